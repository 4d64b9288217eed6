/**
 * The published dataset: one pure function from validated content to the
 * reviews.json document. No clock: `updated` comes from the content itself, so
 * the same content always builds to the same bytes.
 */
import type { AggregateRating, Business, Review, ReviewsDataset } from './schema.ts';

/** Newest first: date descending, then id ascending (the order of reviews.json and search). */
function compareNewestFirst(a: Review, b: Review): number {
  if (a.date !== b.date) return a.date < b.date ? 1 : -1;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

/** Oldest first: date ascending, then id ascending (the order of the since feed). */
function aggregate(reviews: readonly Review[]): AggregateRating {
  const distribution = { 1: 0, 2: 0, 3: 0, 4: 0, 5: 0 };
  let sum = 0;
  for (const review of reviews) {
    distribution[review.rating as 1 | 2 | 3 | 4 | 5] += 1;
    sum += review.rating;
  }
  return {
    rating_value: reviews.length === 0 ? 0 : roundTo(sum / reviews.length, 2),
    review_count: reviews.length,
    best_rating: 5,
    worst_rating: 1,
    distribution,
  };
}

export function buildDataset(business: Business, reviews: readonly Review[]): ReviewsDataset {
  const sorted = [...reviews].sort(compareNewestFirst);
  return {
    business,
    aggregate_rating: aggregate(sorted),
    reviews: sorted,
    updated: newestUpdated(sorted),
  };
}

const REVIEWS_MEMBER = '"reviews":[]';

/**
 * The bytes of `JSON.stringify(dataset)` and a final newline (reviews.json) when the JSON of
 * `dataset.reviews` is given, already made (`reviewsJson`, UTF-8, in pieces): the rest is
 * serialised around it, and everything is copied once. `reviews` is the document's last member
 * but `updated`, a string, so the last `"reviews":[]` of the document without its reviews is that
 * member (in a string value the quotes would be escaped).
 */
export function datasetBytes(dataset: ReviewsDataset, reviewsJson: readonly Uint8Array[]): Buffer {
  const outer = `${JSON.stringify({ ...dataset, reviews: [] })}\n`;
  const at = outer.lastIndexOf(REVIEWS_MEMBER) + REVIEWS_MEMBER.length - 2;
  return Buffer.concat([Buffer.from(outer.slice(0, at)), ...reviewsJson, Buffer.from(outer.slice(at + 2))]);
}

/** The newest `updated` of any review; an empty dataset falls back to the epoch, never the clock. */
function newestUpdated(reviews: readonly Review[]): string {
  return newestInstant(reviews.map((review) => review.updated));
}

/** The newest of some `updated` instants, with the same epoch floor. */
export function newestInstant(instants: readonly string[]): string {
  let newest = '1970-01-01T00:00:00Z';
  for (const instant of instants) if (instant > newest) newest = instant;
  return newest;
}

export function roundTo(value: number, decimals: number): number {
  const factor = 10 ** decimals;
  return Math.round((value + Number.EPSILON) * factor) / factor;
}

/** Reviews by id, made once per dataset: a page or file of one review finds it without a scan (100k reviews). */
const byIdCache = new WeakMap<ReviewsDataset, Map<string, Review>>();

export function reviewById(dataset: ReviewsDataset, id: string): Review | undefined {
  let byId = byIdCache.get(dataset);
  if (!byId) {
    byId = new Map(dataset.reviews.map((review) => [review.id, review]));
    byIdCache.set(dataset, byId);
  }
  return byId.get(id);
}

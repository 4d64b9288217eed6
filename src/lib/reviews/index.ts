/**
 * The review index, built once per dataset (once per process): the reviews in
 * both orders for binary search on dates, posting lists by technician, service
 * and rating, the case- and Unicode-folded text that `query` searches and the
 * substring index over it (text-index.ts), built in the background once
 * startTextIndex is called, or else by the first text query.
 * Positions refer to the newest-first order of reviews.json.
 */
import type { Review, ReviewsDataset } from './schema.ts';
import { compareOldestFirst } from './dataset.ts';
import { buildTextIndex, buildTextIndexInSlices, scanningTextIndex, type TextIndex } from './text-index.ts';

export interface ReviewIndex {
  /** Newest first (date desc, id asc): the order of reviews.json and search. */
  readonly newest: readonly Review[];
  /** Oldest first (date asc, id asc): the order of the since feed. */
  readonly oldest: readonly Review[];
  /** Folded `title + text` per newest-first position. */
  readonly folded: readonly string[];
  /**
   * The substring index over `folded`. Before startTextIndex, the first call
   * builds it (seconds at 100k reviews, paid by that request); while a
   * background build runs, a scan of the texts answers instead.
   */
  text(): TextIndex;
  /**
   * Starts building the substring index in slices between other work (the
   * Node server calls it once listening); resolves when it is ready.
   */
  startTextIndex(): Promise<void>;
  byId(id: string): Review | undefined;
  /** Positions (ascending) of the reviews naming a technician, by lower-cased full name or id. */
  technician(nameOrId: string): readonly number[];
  service(id: string): readonly number[];
  rating(stars: number): readonly number[];
  /** First newest-first position whose date is <= `date` (the start of an `until` range). */
  firstOnOrBefore(date: string): number;
  /** One past the last newest-first position whose date is >= `date` (the end of a `since` range). */
  endOnOrAfter(date: string): number;
  /** First oldest-first position whose date is >= `date`. */
  oldestFrom(date: string): number;
  /** First oldest-first position whose date is > `date` (the end of that day). */
  oldestAfter(date: string): number;
  /** The newest `updated` among oldest-first positions >= `position`, or null past the end. */
  newestUpdatedFrom(position: number): string | null;
}

/** NFKC, then lower case: what `query` matching compares. */
export function fold(text: string): string {
  return text.normalize('NFKC').toLowerCase();
}

const cache = new WeakMap<ReviewsDataset, ReviewIndex>();

export function getReviewIndex(dataset: ReviewsDataset): ReviewIndex {
  let index = cache.get(dataset);
  if (!index) {
    index = buildIndex(dataset);
    cache.set(dataset, index);
  }
  return index;
}

function buildIndex(dataset: ReviewsDataset): ReviewIndex {
  const newest = dataset.reviews;
  const oldest = [...newest].sort(compareOldestFirst);
  const ids = new Map<string, Review>();
  const byTechnician = new Map<string, number[]>();
  const byService = new Map<string, number[]>();
  const byRating = new Map<number, number[]>();
  const technicianKeys = new Map<string, string>();
  for (const t of dataset.business.technicians) {
    technicianKeys.set(t.name.toLowerCase(), t.name);
    technicianKeys.set(t.id.toLowerCase(), t.name);
  }
  const push = <K>(map: Map<K, number[]>, key: K, position: number) => {
    const list = map.get(key);
    if (list) list.push(position);
    else map.set(key, [position]);
  };
  const folded = newest.map((review, position) => {
    ids.set(review.id, review);
    for (const name of review.technicians) push(byTechnician, name, position);
    for (const service of review.services) push(byService, service, position);
    push(byRating, review.rating, position);
    return fold(review.title ? `${review.title}\n${review.text}` : review.text);
  });
  const none: readonly number[] = [];
  // newestUpdatedFrom in O(1): the running maximum of `updated` from the end of the oldest-first order.
  const newestFrom: string[] = new Array(oldest.length);
  for (let i = oldest.length - 1, newestSoFar = ''; i >= 0; i--) {
    const updated = oldest[i]!.updated;
    if (updated > newestSoFar) newestSoFar = updated;
    newestFrom[i] = newestSoFar;
  }

  let text: TextIndex | undefined;
  let building: Promise<void> | undefined;
  let scanning: TextIndex | undefined;

  return {
    newest,
    oldest,
    folded,
    text: () => text ?? (building ? (scanning ??= scanningTextIndex(folded)) : (text = buildTextIndex(folded))),
    startTextIndex: () =>
      (building ??= text
        ? Promise.resolve()
        : buildTextIndexInSlices(folded).then(
            (built) => {
              text ??= built;
              scanning = undefined;
            },
            (error: unknown) => {
              // Back to building on the first text query, rather than scanning for ever.
              building = undefined;
              throw error;
            },
          )),
    byId: (id) => ids.get(id),
    technician(nameOrId) {
      const name = technicianKeys.get(nameOrId.trim().toLowerCase());
      return (name && byTechnician.get(name)) || none;
    },
    service: (id) => byService.get(id) ?? none,
    rating: (stars) => byRating.get(stars) ?? none,
    firstOnOrBefore: (date) => lowerBound(newest.length, (i) => newest[i]!.date <= date),
    endOnOrAfter: (date) => lowerBound(newest.length, (i) => newest[i]!.date < date),
    oldestFrom: (date) => lowerBound(oldest.length, (i) => oldest[i]!.date >= date),
    oldestAfter: (date) => lowerBound(oldest.length, (i) => oldest[i]!.date > date),
    newestUpdatedFrom: (position) => newestFrom[position] ?? null,
  };
}

/** The first i in [0, n) where `reached(i)` holds, for a predicate that stays true once true. */
function lowerBound(n: number, reached: (i: number) => boolean): number {
  let lo = 0;
  let hi = n;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (reached(mid)) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

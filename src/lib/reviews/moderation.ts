/**
 * The moderation log: every review taken down (id, rating, day, reason; never its text or
 * author) and the counts that make the published ones accountable: reviews by how they were
 * verified, removals by reason and by rating.
 */
import {
  REMOVAL_REASONS,
  VERIFICATION_METHODS,
  type ModerationCounts,
  type ModerationLog,
  type Removal,
  type Review,
} from './schema.ts';

const zeros = <T extends string>(keys: readonly T[]) =>
  Object.fromEntries(keys.map((key) => [key, 0])) as Record<T, number>;

function moderationCounts(
  reviews: readonly Pick<Review, 'verification'>[],
  removals: readonly Removal[],
): ModerationCounts {
  const byMethod = zeros(VERIFICATION_METHODS);
  for (const review of reviews) byMethod[review.verification.method] += 1;
  const byReason = zeros(REMOVAL_REASONS);
  const byRating = { 1: 0, 2: 0, 3: 0, 4: 0, 5: 0 };
  for (const removal of removals) {
    byReason[removal.reason] += 1;
    byRating[removal.rating as 1 | 2 | 3 | 4 | 5] += 1;
  }
  return {
    published: reviews.length,
    removed: removals.length,
    by_method: byMethod,
    removed_by_reason: byReason,
    removed_by_rating: byRating,
  };
}

/** The log, newest removal first (then by id); `updated` the later of the reviews' update and the newest removal. */
export function buildModerationLog(
  reviews: readonly Pick<Review, 'verification'>[],
  removals: readonly Removal[],
  reviewsUpdated: string,
): ModerationLog {
  const sorted = [...removals].sort((a, b) => (a.date !== b.date ? (a.date < b.date ? 1 : -1) : a.id < b.id ? -1 : 1));
  const newest = sorted[0] ? `${sorted[0].date}T00:00:00Z` : reviewsUpdated;
  return {
    counts: moderationCounts(reviews, removals),
    // Only the published fields, whatever a caller's objects carry.
    removals: sorted.map(({ id, rating, date, reason }) => ({ id, rating, date, reason })),
    updated: newest > reviewsUpdated ? newest : reviewsUpdated,
  };
}

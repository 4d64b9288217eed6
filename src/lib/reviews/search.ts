/**
 * Search: every filter combines with AND. Dates narrow the newest-first order
 * to one contiguous range by binary search; the smallest posting list among
 * technician, service and rating drives the scan; the remaining tests and the
 * text substring run only on those candidates.
 */
import { fold, type ReviewIndex } from './index.ts';
import type { SearchQuery } from './query.ts';
import type { SearchResponse } from './responses.ts';
import type { Review } from './schema.ts';

export function searchReviews(index: ReviewIndex, query: SearchQuery): SearchResponse {
  const start = query.until === undefined ? 0 : index.firstOnOrBefore(query.until);
  const end = query.since === undefined ? index.newest.length : index.endOnOrAfter(query.since);

  const lists: (readonly number[])[] = [];
  if (query.mentions_technician !== undefined) lists.push(index.technician(query.mentions_technician));
  if (query.mentions_service !== undefined) lists.push(index.service(query.mentions_service));
  if (query.rating !== undefined) lists.push(index.rating(query.rating));
  lists.sort((a, b) => a.length - b.length);
  const [driver, ...others] = lists;
  const otherSets = others.map((list) => new Set(list));
  const needle = query.query === undefined ? undefined : fold(query.query);

  const matches = (position: number): boolean => {
    const review = index.newest[position] as Review;
    if (query.min_rating !== undefined && review.rating < query.min_rating) return false;
    for (const set of otherSets) if (!set.has(position)) return false;
    return needle === undefined || (index.folded[position] as string).includes(needle);
  };

  const reviews: Review[] = [];
  let total = 0;
  const take = (position: number) => {
    if (!matches(position)) return;
    total += 1;
    if (reviews.length < query.limit) reviews.push(index.newest[position] as Review);
  };
  if (driver) {
    for (let i = lowerBoundIn(driver, start); i < driver.length && (driver[i] as number) < end; i++) take(driver[i] as number);
  } else if (query.min_rating === undefined && needle === undefined) {
    // No filter but dates: the range is the answer.
    total = Math.max(0, end - start);
    reviews.push(...index.newest.slice(start, Math.min(end, start + query.limit)));
  } else {
    for (let position = start; position < end; position++) take(position);
  }
  return { total, count: reviews.length, limit: query.limit, reviews };
}

function lowerBoundIn(sorted: readonly number[], value: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((sorted[mid] as number) < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

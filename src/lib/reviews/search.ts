/**
 * Search: every filter combines with AND. Dates narrow the newest-first order
 * to one contiguous range by binary search; `query` becomes the bitset of the
 * reviews containing it (text-index.ts, no text scanned); the smallest posting
 * list among technician, service and rating drives the scan, and the remaining
 * tests are O(1) per candidate. With the text alone, the bitset is walked
 * directly and `total` is a population count. The answer is positions: the
 * REST endpoint splices the records' bytes, MCP parses them (searchReviews).
 */
import { fold, type ReviewIndex } from './index.ts';
import { countBits, forEachBit, has, type Bits } from './postings.ts';
import type { SearchQuery } from './query.ts';
import type { SearchResponse } from './responses.ts';

/** A search's answer before its reviews are read: `total` matches, the newest-first positions of the first `limit`. */
export interface SearchHits {
  total: number;
  limit: number;
  positions: number[];
}

export function searchReviews(index: ReviewIndex, query: SearchQuery): SearchResponse {
  const hits = searchPositions(index, query);
  return { total: hits.total, count: hits.positions.length, limit: hits.limit, reviews: hits.positions.map((position) => index.records.review(position)) };
}

export function searchPositions(index: ReviewIndex, query: SearchQuery): SearchHits {
  const start = query.until === undefined ? 0 : index.firstOnOrBefore(query.until);
  const end = query.since === undefined ? index.length : index.endOnOrAfter(query.since);
  const ratings = index.records.ratings;

  const lists: ArrayLike<number>[] = [];
  if (query.mentions_technician !== undefined) lists.push(index.technician(query.mentions_technician));
  if (query.mentions_service !== undefined) lists.push(index.service(query.mentions_service));
  if (query.rating !== undefined) lists.push(index.rating(query.rating));
  lists.sort((a, b) => a.length - b.length);
  const [driver, ...others] = lists;
  const otherSets = others.map((list) => new Set(Array.from(list)));
  const text: Bits | undefined = query.query === undefined || start >= end ? undefined : index.text().match(fold(query.query));

  const matches = (position: number): boolean => {
    if (query.min_rating !== undefined && ratings[position]! < query.min_rating) return false;
    for (const set of otherSets) if (!set.has(position)) return false;
    return text === undefined || has(text, position);
  };

  const positions: number[] = [];
  let total = 0;
  const take = (position: number) => {
    if (!matches(position)) return;
    total += 1;
    if (positions.length < query.limit) positions.push(position);
  };
  if (query.query !== undefined && start >= end) {
    // An empty date range: nothing to match, and no text index to build.
  } else if (driver) {
    for (let i = lowerBoundIn(driver, start); i < driver.length && (driver[i] as number) < end; i++) take(driver[i] as number);
  } else if (text !== undefined && query.min_rating === undefined) {
    total = countBits(text, start, end);
    forEachBit(text, start, end, (position) => {
      positions.push(position);
      return positions.length < query.limit;
    });
  } else if (text !== undefined) {
    forEachBit(text, start, end, take);
  } else if (query.min_rating === undefined) {
    // No filter but dates: the range is the answer.
    total = Math.max(0, end - start);
    for (let position = start; position < Math.min(end, start + query.limit); position++) positions.push(position);
  } else {
    for (let position = start; position < end; position++) take(position);
  }
  return { total, limit: query.limit, positions };
}

function lowerBoundIn(sorted: ArrayLike<number>, value: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((sorted[mid] as number) < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

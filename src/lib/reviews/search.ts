/**
 * Search: every filter combines with AND. Dates narrow the newest-first order
 * to one contiguous range by binary search; with a technician or a service,
 * the shorter of their position lists gives the candidates, else every review
 * in the range is one. Each candidate is tested, the cheap filters first and
 * `query` last, a substring of its folded text (review-index.ts). No index of
 * the texts: a scan of them all is a few milliseconds at 10k reviews, and the
 * REST endpoint keeps the answers (src/lib/api/answer-cache.ts). The answer is positions:
 * the REST endpoint splices the records' bytes, MCP parses them (searchRecords).
 */
import { fold, type ReviewIndex } from './review-index.ts';
import type { SearchQuery } from './query.ts';
import type { SearchResponse } from './responses.ts';

/** A search's answer before its reviews are read: `total` matches, the newest-first positions of the first `limit`. */
export interface SearchHits {
  total: number;
  limit: number;
  positions: number[];
}

/** The search's answer with its records read: what the MCP tool answers. */
export function searchRecords(index: ReviewIndex, query: SearchQuery): SearchResponse {
  const hits = searchPositions(index, query);
  return {
    total: hits.total,
    count: hits.positions.length,
    limit: hits.limit,
    reviews: hits.positions.map((position) => index.records.review(position)),
  };
}

export function searchPositions(index: ReviewIndex, query: SearchQuery): SearchHits {
  const start = query.until === undefined ? 0 : index.firstOnOrBefore(query.until);
  const end = query.since === undefined ? index.length : index.endOnOrAfter(query.since);
  const positions: number[] = [];
  let total = 0;
  const lists: ArrayLike<number>[] = [];
  if (query.mentions_technician !== undefined) lists.push(index.technician(query.mentions_technician));
  if (query.mentions_service !== undefined) lists.push(index.service(query.mentions_service));
  lists.sort((a, b) => a.length - b.length);
  const [driver, other] = lists;
  const { rating, min_rating } = query;
  const ratings = index.records.ratings;
  const needle = query.query === undefined ? undefined : fold(query.query);
  // An empty range or a list with nothing in it: no text to fold.
  const texts = needle === undefined || start >= end || driver?.length === 0 ? undefined : index.texts();

  const test = (position: number) => {
    if (rating !== undefined && ratings[position] !== rating) return;
    if (min_rating !== undefined && ratings[position]! < min_rating) return;
    if (other !== undefined && !includesSorted(other, position)) return;
    if (needle !== undefined && !texts![position]!.includes(needle)) return;
    total += 1;
    if (positions.length < query.limit) positions.push(position);
  };
  if (driver !== undefined) {
    for (let i = lowerBoundIn(driver, start); i < driver.length && driver[i]! < end; i++) test(driver[i]!);
  } else if (needle === undefined && rating === undefined && min_rating === undefined) {
    // Dates alone: the range is the answer.
    for (let position = start; position < Math.min(end, start + query.limit); position++) positions.push(position);
    total = Math.max(0, end - start);
  } else {
    for (let position = start; position < end; position++) test(position);
  }
  return { total, limit: query.limit, positions };
}

function includesSorted(sorted: ArrayLike<number>, value: number): boolean {
  const at = lowerBoundIn(sorted, value);
  return at < sorted.length && sorted[at] === value;
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

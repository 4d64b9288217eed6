/**
 * The incremental-sync listing, in pages: the reviews dated on or after a day,
 * oldest first (date asc, id asc), at most SINCE_PAGE_SIZE per answer.
 *
 * The only continuation the interface has is the path `since/{date}`, so a page
 * always holds whole days: it ends just before the first day that would not fit
 * whole, and `next_date` is that day's date. The next page, since/{next_date},
 * then starts exactly where this one stopped — every review comes exactly once
 * in a walk, with no overlap to de-duplicate. A single day with more reviews
 * than a page cannot be split without a cursor inside the day, which the
 * interface has no place for: that day is one page of its own, larger than
 * SINCE_PAGE_SIZE (docs/api.md says so). O(log n + k) per page.
 */
import { SINCE_PAGE_SIZE } from './query.ts';
import type { ReviewIndex } from './review-index.ts';
import type { SinceResponse } from './responses.ts';

const SINCE_PATH = '/api/reviews/since/';

/** A page before its reviews are read: the envelope, and the newest-first positions of its reviews in page order. */
export type SincePage = Omit<SinceResponse, 'reviews'> & { positions: number[] };

/**
 * The page of since/{date}: the envelope the REST endpoint and the MCP tool
 * answer. `pageSize` exists for tests and benchmarks; both front doors use the default.
 */
export function reviewsSince(index: ReviewIndex, date: string, pageSize = SINCE_PAGE_SIZE): SinceResponse {
  const { positions, ...envelope } = sincePage(index, date, pageSize);
  return { ...envelope, reviews: positions.map((position) => index.records.review(position)) };
}

export function sincePage(index: ReviewIndex, date: string, pageSize = SINCE_PAGE_SIZE): SincePage {
  const { oldest } = index;
  const start = index.oldestFrom(date);
  let end = Math.min(oldest.length, start + pageSize);
  if (end < oldest.length) {
    // The first review left out: its whole day goes to the next page.
    const boundary = index.dateAt(oldest[end]!);
    const dayStart = index.oldestFrom(boundary);
    // One day alone fills the page: answer the whole day (see above).
    end = dayStart > start ? dayStart : index.oldestAfter(boundary);
  }
  const positions = Array.from(oldest.subarray(start, end));
  const nextDate = end < oldest.length ? index.dateAt(oldest[end]!) : null;
  return {
    since: date,
    count: positions.length,
    has_more: nextDate !== null,
    next: nextDate === null ? null : `${SINCE_PATH}${nextDate}`,
    next_date: nextDate,
    positions,
  };
}

/**
 * The newest `updated` among every review on or after `date` (all pages, not
 * only this one), or null when there are none: a page's Last-Modified. The page
 * is a function of that whole set, so any later review's addition or edit moves
 * it (a page can lose its last day to the next page when reviews are added
 * after it; with a page-only date it would answer 304 and hide `has_more`).
 */
export function sinceLastModified(index: ReviewIndex, date: string): string | null {
  return index.newestUpdatedFrom(index.oldestFrom(date));
}

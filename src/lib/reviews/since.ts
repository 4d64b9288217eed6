/** The incremental-sync listing: every review on or after a date, oldest first, in O(log n + k). */
import type { ReviewIndex } from './index.ts';
import type { SinceResponse } from './responses.ts';

export function reviewsSince(index: ReviewIndex, date: string): SinceResponse {
  const reviews = index.oldest.slice(index.oldestFrom(date));
  return { since: date, count: reviews.length, reviews };
}

/**
 * Answers made of review records, from the records' own bytes. Every search
 * and since answer holds up to 100 (1,000) records, and JSON.stringify plus
 * UTF-8 encoding of them was most of such a request's cost
 * (docs/performance.md). The records are kept as their bytes in reviews.json
 * (src/lib/reviews/records.ts), which are `JSON.stringify(review)`: an answer
 * is the envelope's own JSON with those bytes spliced in — the same bytes as
 * `JSON.stringify({ ...envelope, reviews }) + "\n"`, since JSON.stringify of an
 * array is its elements joined by commas inside brackets.
 */
import { textBytes } from '../http/answer.ts';
import type { ReviewRecords } from '../reviews/records.ts';

const TAIL = textBytes(']}\n');

/**
 * The bytes of `JSON.stringify({ ...envelope, reviews }) + "\n"`, `reviews` being the records at
 * `positions`, in that order.
 */
export function bodyWithRecords(envelope: object, records: ReviewRecords, positions: ArrayLike<number>): Uint8Array {
  const head = JSON.stringify({ ...envelope, reviews: [] });
  if (!head.endsWith('"reviews":[]}')) throw new Error('the envelope must end with its reviews');
  const headBytes = textBytes(head.slice(0, -2));
  // One buffer of the answer's size; the records are read into it where they go.
  const out = new Uint8Array(headBytes.byteLength + records.joinedLength(positions) + TAIL.byteLength);
  out.set(headBytes, 0);
  records.copyJoined(positions, out, headBytes.byteLength);
  out.set(TAIL, out.byteLength - TAIL.byteLength);
  return out;
}

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

const COMMA = textBytes(',');
const TAIL = textBytes(']}\n');

/** The bytes of `JSON.stringify({ ...envelope, reviews }) + "\n"`, `records` being the reviews' JSON bytes. */
export function bodyWithRecords(envelope: object, records: readonly Uint8Array[]): Uint8Array {
  const head = JSON.stringify({ ...envelope, reviews: [] });
  if (!head.endsWith('"reviews":[]}')) throw new Error('the envelope must end with its reviews');
  const parts: Uint8Array[] = [textBytes(head.slice(0, -2))];
  records.forEach((record, i) => {
    if (i > 0) parts.push(COMMA);
    parts.push(record);
  });
  parts.push(TAIL);
  const out = new Uint8Array(parts.reduce((sum, part) => sum + part.byteLength, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.byteLength;
  }
  return out;
}

/**
 * Answers made of review records, serialised from records serialised once.
 * Every uncached search answers up to 100 records, and JSON.stringify plus
 * UTF-8 encoding of them was most of such a request's cost (docs/performance.md):
 * each record's bytes are kept (within a byte budget, oldest kept first out)
 * and an answer is the envelope's own JSON with those bytes spliced in — the
 * same bytes as `JSON.stringify(envelope) + "\n"`, since JSON.stringify of an
 * array is its elements joined by commas inside brackets.
 */
import { textBytes } from '../http/answer.ts';
import type { Review } from '../reviews/schema.ts';

const COMMA = textBytes(',');
const TAIL = textBytes(']}\n');

export class ReviewJson {
  readonly #bytes = new Map<Review, Uint8Array>();
  #size = 0;
  readonly maxBytes: number;

  constructor(maxBytes = 16 * 1024 * 1024) {
    this.maxBytes = maxBytes;
  }

  of(review: Review): Uint8Array {
    let bytes = this.#bytes.get(review);
    if (!bytes) {
      bytes = textBytes(JSON.stringify(review));
      this.#bytes.set(review, bytes);
      this.#size += bytes.byteLength;
      for (const [old, kept] of this.#bytes) {
        if (this.#size <= this.maxBytes) break;
        this.#bytes.delete(old);
        this.#size -= kept.byteLength;
      }
    }
    return bytes;
  }

  /** The bytes of `JSON.stringify(envelope) + "\n"` for an envelope whose last key is `reviews`. */
  body<T extends { reviews: readonly Review[] }>(envelope: T): Uint8Array {
    const head = JSON.stringify({ ...envelope, reviews: [] });
    if (!head.endsWith('"reviews":[]}')) throw new Error('the envelope must end with its reviews');
    const parts: Uint8Array[] = [textBytes(head.slice(0, -2))];
    envelope.reviews.forEach((review, i) => {
      if (i > 0) parts.push(COMMA);
      parts.push(this.of(review));
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
}

/**
 * MCP's part in the per-client limit on searches not answered before
 * (SEARCH_MISS_RATE_LIMIT, src/lib/limits/search-misses.ts): a never-seen
 * search costs the same scan whether GET /api/reviews/search or a tool call
 * asks for it, on either revision (the 2026-07-28 path has no session, so no
 * initialize limit, to lean on). So every tool call that scans, and every
 * completion that does, is counted unless the same question was answered
 * before: those answers are kept (bounded in bytes) and repeat for free, as
 * the REST API's cache does. Over the limit, the request gets a JSON-RPC
 * error saying when to try again.
 */
import { LRUCache } from 'lru-cache';
import type { RateVerdict } from '../limits/rate-limits.ts';

/** The JSON-RPC error of a request over the limit (an implementation-defined server error; 429 as in HTTP). */
export const RATE_LIMITED_CODE = -32029;

/** Counts one scan for the client of this POST: over the limit, how long until one is allowed. */
export type ScanGate = () => RateVerdict;

/** Bytes of answers kept to repeat without a scan or a count (the REST cache's idea, on MCP's answers). */
const ANSWERS_MAX_BYTES = 16 * 1024 * 1024;

export class TooManyScans extends Error {
  readonly code = RATE_LIMITED_CODE;
  readonly data: { retry_after_seconds: number };
  constructor(retryAfterSeconds: number) {
    super(
      `Too many new searches from this address; try again in ${retryAfterSeconds} s. Searches asked before still answer.`,
    );
    this.data = { retry_after_seconds: retryAfterSeconds };
  }
}

/** The answers of scans made before, by question, shared by every client of the process. */
export class ScanAnswers {
  readonly #answers = new LRUCache<string, object>({ maxSize: ANSWERS_MAX_BYTES });

  /**
   * The answer to `key` asked before, else `gate` is counted (TooManyScans
   * when it refuses) and `scan`'s answer kept at `sizeOf` bytes. A shallow
   * copy each time: an SDK may stamp fields on the result it sends.
   */
  answer<T extends object>(key: string, gate: ScanGate | undefined, scan: () => T, sizeOf: (value: T) => number): T {
    const known = this.#answers.get(key) as T | undefined;
    if (known) return { ...known };
    const verdict = gate?.();
    if (verdict && !verdict.ok) throw new TooManyScans(verdict.retryAfterSeconds);
    const value = scan();
    const size = Math.max(1, sizeOf(value));
    if (size <= ANSWERS_MAX_BYTES / 16) this.#answers.set(key, value, { size });
    return { ...value };
  }
}

/** One key for one question, whatever order its arguments came in. */
export function questionKey(kind: string, args: Record<string, unknown>): string {
  return `${kind}:${JSON.stringify(Object.entries(args).sort(([a], [b]) => (a < b ? -1 : 1)))}`;
}

/**
 * The store cannot be reached (Redis down, refusing, or too slow) or written
 * (a read-only STORE_DIR). Routes that
 * need the store answer this as a prompt 503 with Retry-After instead of
 * hanging or failing with a 500: the client did nothing wrong, and the state
 * it asked about is not lost, only out of reach for now.
 */
import type { ApiAnswer } from '../http/answer.ts';
import { jsonAnswer } from '../http/json.ts';

/** Seconds a client is told to wait: about one reconnection attempt of the Redis client. */
const STORE_RETRY_AFTER_SECONDS = 5;

export class StoreUnavailableError extends Error {
  override name = 'StoreUnavailableError';
  /** What a client is told (no address, no path); the message is for the operator's log. */
  readonly publicMessage: string;
  constructor(message: string, options?: { cause?: unknown; publicMessage?: string }) {
    super(message, options);
    this.publicMessage =
      options?.publicMessage ?? 'The state store (Redis, REDIS_URL) is unreachable. Try again in a few seconds.';
  }
}

export function isStoreUnavailable(error: unknown): error is StoreUnavailableError {
  return error instanceof Error && error.name === 'StoreUnavailableError';
}

/**
 * The answer while the store is out of reach. It names the setting (REDIS_URL, STORE_DIR) but never
 * the address, the path or what failed: those are for the operator's log, not for any client.
 */
export function storeUnavailableAnswer(error?: StoreUnavailableError): ApiAnswer {
  return jsonAnswer(
    { error: 'store_unavailable', message: (error ?? new StoreUnavailableError('')).publicMessage },
    { status: 503, headers: { 'retry-after': String(STORE_RETRY_AFTER_SECONDS) } },
  );
}

/**
 * The one small interface behind every piece of state the service keeps (WebSub
 * subscriptions, retries and distributed hashes; ended MCP sessions; the MCP
 * signing key). Values are JSON. Two implementations over unstorage: a folder
 * of files for one machine (atomic writes) and Redis for several instances.
 */
import type Redis from 'ioredis';

export interface Store {
  /**
   * The live value, or null when absent or expired. A value that is present
   * but unreadable (a truncated file, not JSON) is logged and kept aside, and
   * reads as null; with `corrupt: 'throw'` it is left in place and is a
   * CorruptValueError instead (the MCP session key: replacing it would end every session).
   */
  get<T>(key: string, options?: { corrupt?: 'throw' }): Promise<T | null>;
  /** `ttlSeconds`: the value is gone (reads as null) after that long. */
  set(key: string, value: unknown, options?: { ttlSeconds?: number }): Promise<void>;
  remove(key: string): Promise<void>;
  /**
   * Compare-and-delete: removes `key` only if its live value is an object whose
   * `field` is `expected`; true when this call removed it. Atomic across every
   * process sharing the store, so a value written in between (a newer delivery
   * job under the same key) is never removed in place of the one meant.
   */
  removeIf(key: string, field: string, expected: string): Promise<boolean>;
  /** Keys that start with `prefix` (unstorage's `:`-separated keys), expired ones left out. */
  keys(prefix: string): Promise<string[]>;
  /**
   * Takes `key` if no one holds it: true for exactly one caller across every
   * process sharing the store, until `ttlSeconds` pass or its holder has
   * certainly exited (claim-holder.ts: a process on the same machine killed
   * meanwhile; its claims are taken over at once). The basis of "deliver one
   * change once" when several instances run.
   */
  claim(key: string, ttlSeconds: number): Promise<boolean>;
  /**
   * Stores `value` only if `key` holds no live value: true when this call
   * stored it. Atomic across every process sharing the store, so concurrent
   * callers all end up reading the one value that won.
   */
  setIfAbsent(key: string, value: unknown, options?: { ttlSeconds?: number }): Promise<boolean>;
  /**
   * Adds 1 to the counter at `key` and returns the new value; a new counter
   * lives `ttlSeconds` (fixed-window rate limits). Atomic across processes.
   */
  increment(key: string, ttlSeconds: number): Promise<number>;
  /**
   * Adds `member` to the set at `key`, which then lives at least `ttlSeconds`
   * (an expiry only ever moves later). Atomic across processes: compact
   * records of many small facts (ended MCP sessions, one set per expiry hour).
   */
  addMember(key: string, member: string, ttlSeconds: number): Promise<void>;
  /** Whether the live set at `key` holds `member`. */
  hasMember(key: string, member: string): Promise<boolean>;
  /**
   * Redis only: the store's own connected ioredis client and key prefix, for
   * libraries that speak Redis themselves (the rate limits). Throws
   * StoreUnavailableError while Redis is out of reach.
   */
  redis?: () => Promise<{ client: Redis; prefix: string }>;
  /**
   * Resolves once the checks made at open are done and any problem they found
   * is logged (the folder store: whether STORE_DIR can be written). Never rejects:
   * a store that cannot be used answers its operations with StoreUnavailableError.
   */
  ready?(): Promise<void>;
  close(): Promise<void>;
}

/** How a value sits in the underlying storage: expiry travels with it, whatever the driver. */
export interface Envelope {
  value: unknown;
  /** Milliseconds since the epoch, or null for no expiry. */
  expires_at: number | null;
}

export function wrap(value: unknown, ttlSeconds: number | undefined, now: number): Envelope {
  return { value, expires_at: ttlSeconds === undefined ? null : now + ttlSeconds * 1000 };
}

/** A value that is present but not a readable envelope: never treated as missing without a word. */
export class CorruptValueError extends Error {
  override name = 'CorruptValueError';
  readonly key: string;
  constructor(key: string, where: string) {
    super(
      `the stored value of "${key}" (${where}) is not readable JSON (truncated or damaged): restore it from a backup or delete it`,
    );
    this.key = key;
  }
}

/** Raw stored bytes read once: absent (null), an envelope, or present but not one ('corrupt'). */
export function readEnvelope(raw: unknown): Envelope | 'corrupt' | null {
  if (raw === null || raw === undefined) return null;
  let envelope: unknown = raw;
  if (typeof raw === 'string') {
    try {
      envelope = JSON.parse(raw);
    } catch {
      return 'corrupt';
    }
  }
  if (typeof envelope !== 'object' || envelope === null || !('value' in envelope) || !('expires_at' in envelope))
    return 'corrupt';
  return envelope as Envelope;
}

/** Whether raw stored bytes are present but not an envelope (corrupt), as opposed to absent or readable. */
export function isCorrupt(raw: unknown): boolean {
  return readEnvelope(raw) === 'corrupt';
}

/** The live value in a stored envelope; null when absent, expired, or not an envelope at all. */
export function unwrap<T>(raw: unknown, now: number): T | null {
  const envelope = readEnvelope(raw);
  if (envelope === null || envelope === 'corrupt') return null;
  if (envelope.expires_at !== null && envelope.expires_at <= now) return null;
  return envelope.value as T;
}

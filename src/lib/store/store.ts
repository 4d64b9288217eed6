/**
 * The one small interface behind every piece of state the service keeps (WebSub
 * subscriptions, retries and distributed hashes; ended MCP sessions; the MCP
 * signing key). Values are JSON. Two implementations over unstorage: a folder
 * of files for one machine (atomic writes) and Redis for several instances.
 */
export interface Store {
  get<T>(key: string): Promise<T | null>;
  /** `ttlSeconds`: the value is gone (reads as null) after that long. */
  set(key: string, value: unknown, options?: { ttlSeconds?: number }): Promise<void>;
  remove(key: string): Promise<void>;
  /** Keys that start with `prefix` (unstorage's `:`-separated keys), expired ones left out. */
  keys(prefix: string): Promise<string[]>;
  /**
   * Takes `key` if no one holds it: true for exactly one caller across every
   * process sharing the store, until `ttlSeconds` pass. The basis of "deliver
   * one change once" when several instances run.
   */
  claim(key: string, ttlSeconds: number): Promise<boolean>;
  /**
   * Adds 1 to the counter at `key` and returns the new value; a new counter
   * lives `ttlSeconds` (fixed-window rate limits). Atomic in Redis; in the file
   * store, atomic within one process.
   */
  increment(key: string, ttlSeconds: number): Promise<number>;
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

export function unwrap<T>(raw: unknown, now: number): T | null {
  if (raw === null || raw === undefined) return null;
  const envelope = (typeof raw === 'string' ? JSON.parse(raw) : raw) as Envelope;
  if (envelope.expires_at !== null && envelope.expires_at <= now) return null;
  return envelope.value as T;
}

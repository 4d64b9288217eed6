/**
 * The API's answers kept in one process: the dataset never changes inside a
 * process, so serialised bodies (src/lib/http/representation.ts makes them and
 * answers from them) are kept in an LRU with a byte budget: a repeated query
 * costs a map lookup, not a search and a hash.
 */
import { LRUCache } from 'lru-cache';
import type { CachedBody } from '../http/representation.ts';

/**
 * The search and since answers of one process, at most this many bytes, keys
 * included: about 1,400 answers of 20 reviews (12 KB) at 100k. Twice this, filled
 * under load, takes the 100k server past its 300 MB floor (docs/performance.md).
 */
export const BODY_CACHE_BYTES = 16 * 1024 * 1024;

/**
 * Largest answer kept. A search answer is at most 100 records (~57 KB at 100k
 * reviews); a since page of 1,000 records is ~570 KB and is made again when
 * asked again (one read of its records, one SHA-256: about a millisecond).
 * Kept, the few hundred of them a walk from an old date makes would replace
 * thousands of small answers, and the freed small bodies' memory, too
 * scattered for the large ones, stays in the process: tens of MB of RSS over
 * a 100k walk with no more bytes held.
 */
export const MAX_KEPT_BODY_BYTES = 256 * 1024;

/**
 * Longest key kept as an alias. A raw query string longer than this (a
 * padded spelling: `limit=%20%20…5`) is parsed on every request and its answer
 * found under its canonical key: the longest valid queries a client writes
 * (200 characters of text in a non-Latin script, percent-encoded) fit below.
 */
export const MAX_ALIAS_KEY_LENGTH = 2048;

/**
 * Estimates of what V8 holds besides the counted bytes: for a body, its Map
 * slot, the entry and its two header objects (about 830 bytes measured on
 * Node 24 for an empty answer); for an alias, its Map slot and string header
 * (the key it points to is the body's own key string, not a copy).
 */
const BODY_OVERHEAD_BYTES = 1024;
/** A compressed variant's two answers and their header objects, besides its bytes. */
const VARIANT_OVERHEAD_BYTES = 512;
const ALIAS_OVERHEAD_BYTES = 64;

/** A key is counted at 2 bytes a character: V8's two-byte strings, the worst case. */
const keyBytes = (key: string) => key.length * 2;

/**
 * The answers in recency order, holding bodies under canonical keys and
 * aliases: other spellings of a key (a raw query string) that point to it
 * without holding the body twice. Both are counted against one byte budget,
 * keys included, so what a client sends cannot make it hold more: many
 * spellings of one answer are many small aliases, evicted like anything else.
 * On lru-cache: a Map-ordered LRU (delete and re-set on every hit) costs V8 a
 * rehash that grows with the entries, see the README's design section.
 */
export class BodyCache {
  /** A body, or for an alias the key it points to. */
  readonly #entries: LRUCache<string, CachedBody | string>;
  readonly maxBytes: number;

  constructor(maxBytes = BODY_CACHE_BYTES) {
    this.maxBytes = maxBytes;
    // A smaller budget (tests) keeps nothing bigger than a quarter of it.
    const maxEntrySize = Math.min(MAX_KEPT_BODY_BYTES, maxBytes / 4);
    this.#entries = new LRUCache({
      maxSize: maxBytes,
      maxEntrySize,
      sizeCalculation: (value, key) => costOf(key, value),
    });
  }

  /** Bytes held, by the same count the budget is checked against. */
  get bytes(): number {
    return this.#entries.calculatedSize;
  }

  /** Every key held, most recent first. */
  keys(): Generator<string> {
    return this.#entries.keys();
  }

  get(key: string): CachedBody | undefined {
    const hit = this.#entries.get(key);
    return typeof hit === 'string' ? undefined : hit;
  }

  /** The key `alias` (another spelling of a key) points to, if it is still kept. */
  keyOf(alias: string): string | undefined {
    if (alias.length > MAX_ALIAS_KEY_LENGTH) return undefined;
    const key = this.#entries.get(alias);
    return typeof key === 'string' ? key : undefined;
  }

  alias(alias: string, key: string): void {
    if (alias.length <= MAX_ALIAS_KEY_LENGTH && alias !== key) this.#entries.set(alias, key);
  }

  set(key: string, value: CachedBody): void {
    this.#entries.set(key, value);
  }

  /**
   * Counts a variant just added to a kept body against the budget (lru-cache
   * sizes an entry when it is set); an entry that no longer fits is dropped.
   */
  recount(key: string): void {
    const value = this.#entries.peek(key);
    if (value && typeof value !== 'string') this.#entries.set(key, value);
  }
}

/** What keeping `value` under `key` counts against the budget. */
function costOf(key: string, value: CachedBody | string): number {
  if (typeof value === 'string') return keyBytes(key) + ALIAS_OVERHEAD_BYTES;
  let cost = keyBytes(key) + BODY_OVERHEAD_BYTES + value.bytes;
  for (const encoding of ['br', 'gzip'] as const) {
    const variant = value.answers[encoding]?.ok.body;
    if (variant) cost += VARIANT_OVERHEAD_BYTES + variant.byteLength;
  }
  return cost;
}

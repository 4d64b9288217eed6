/**
 * Micro-benchmark of the search answers' LRU (issue 12 item 5): BodyCache
 * (src/lib/api/cached-json.ts, on `lru-cache`: `maxSize`, `sizeCalculation`,
 * `maxEntrySize`) against the same cache on a Map in insertion order (our own
 * code before), same budget, same keys, same bodies, one process, interleaved
 * rounds.
 *
 *   node_modules/.bin/node bench/body-cache.ts [--rounds 5] [--ms 500]
 *
 * Paths (ns per call, median of the rounds; each path runs --ms milliseconds on a freshly filled cache):
 * - hit by alias: getByAlias of 64 raw query strings cycled (the steady state of search under load);
 * - hit: get of 64 canonical keys cycled (since);
 * - miss: getByAlias of raw strings never seen (a new query's first lookup);
 * - set at budget: set of a new key into a full cache, evicting the oldest (a new query's answer).
 */
import assert from 'node:assert/strict';
import { parseArgs } from 'node:util';
import { BODY_CACHE_BYTES, BodyCache, cachedBody, costOf, MAX_ALIAS_KEY_LENGTH, type CachedBody } from '../src/lib/api/cached-json.ts';
import { textBytes } from '../src/lib/http/answer.ts';

/**
 * BodyCache as it was before it moved onto lru-cache, kept here as the
 * reference: a bounded map in recency order (Map keeps insertion order, so the first key
 * is the least recent) holding bodies under canonical keys and aliases: other
 * spellings of a key (a raw query string) that point to it without holding the
 * body twice. Both are counted against one byte budget, keys included, so what
 * a client sends cannot make it hold more: many spellings of one answer are
 * many small aliases, evicted like anything else.
 */
class MapBodyCache {
  /** A body, or for an alias the key it points to. */
  readonly #entries = new Map<string, CachedBody | string>();
  #bytes = 0;
  readonly maxBytes: number;

  constructor(maxBytes = BODY_CACHE_BYTES) {
    this.maxBytes = maxBytes;
  }

  get(key: string): CachedBody | undefined {
    const hit = this.#touch(key);
    return typeof hit === 'string' ? undefined : hit;
  }

  /** The body under `alias` (another spelling of a key), if that key is still cached. */
  getByAlias(alias: string): CachedBody | undefined {
    if (alias.length > MAX_ALIAS_KEY_LENGTH) return undefined;
    const key = this.#touch(alias);
    return typeof key === 'string' ? this.get(key) : undefined;
  }

  alias(alias: string, key: string): void {
    if (alias.length > MAX_ALIAS_KEY_LENGTH || alias === key) return;
    this.#put(alias, key);
  }

  set(key: string, value: CachedBody): void {
    this.#put(key, value);
  }

  #touch(key: string): CachedBody | string | undefined {
    const hit = this.#entries.get(key);
    if (hit !== undefined) {
      this.#entries.delete(key);
      this.#entries.set(key, hit);
    }
    return hit;
  }

  #put(key: string, value: CachedBody | string): void {
    const cost = costOf(key, value);
    // Nothing bigger than a quarter of the budget (a since of everything at 100k reviews) is kept.
    if (cost > this.maxBytes / 4) return;
    const previous = this.#entries.get(key);
    if (previous !== undefined) {
      this.#entries.delete(key);
      this.#bytes -= costOf(key, previous);
    }
    this.#entries.set(key, value);
    this.#bytes += cost;
    for (const [oldest, entry] of this.#entries) {
      if (this.#bytes <= this.maxBytes) break;
      this.#entries.delete(oldest);
      this.#bytes -= costOf(oldest, entry);
    }
  }
}

type Cache = Pick<BodyCache, 'get' | 'getByAlias' | 'alias' | 'set'>;

const { values } = parseArgs({ options: { rounds: { type: 'string', default: '5' }, ms: { type: 'string', default: '500' } } });
const rounds = Number(values.rounds);
const ms = Number(values.ms);

// A search answer of 20 reviews is ~12 KB; 3 KB keeps ~10,000 of them in the budget, as many keys as a busy process holds.
const body = cachedBody(textBytes(JSON.stringify({ total: 20, count: 20, reviews: 'x'.repeat(3000) })), '2026-01-01T00:00:00Z');
const canonical = (i: number) => `search:[["limit",${(i % 100) + 1}],["query","word${i}"]]`;
const raw = (i: number) => `search?query=word${i}&limit=${(i % 100) + 1}`;
const HOT = 64;
const hotRaw = Array.from({ length: HOT }, (_, i) => raw(i));
const hotCanonical = Array.from({ length: HOT }, (_, i) => canonical(i));
const FRESH = 500_000;
const fresh = Array.from({ length: FRESH }, (_, i) => ({ raw: raw(1_000_000 + i), canonical: canonical(1_000_000 + i) }));

/** `cold` other answers (each with an alias) before the hot ones: 20,000 fills past the budget, so every later set evicts. */
function filled(make: () => Cache, cold: number): Cache {
  const cache = make();
  for (let i = HOT; i < HOT + cold; i++) {
    cache.set(canonical(i), body);
    cache.alias(raw(i), canonical(i));
  }
  for (let i = 0; i < HOT; i++) {
    cache.set(hotCanonical[i]!, body);
    cache.alias(hotRaw[i]!, hotCanonical[i]!);
  }
  return cache;
}

/**
 * CPU ns per call of `step` (this process's user + system time, so other
 * processes on a shared machine do not count), in chunks of 1,000 calls for
 * about `--ms` milliseconds of CPU.
 */
function time(step: (i: number) => void): number {
  const cpu = () => {
    const { user, system } = process.cpuUsage();
    return (user + system) * 1000;
  };
  const started = cpu();
  let calls = 0;
  while (cpu() - started < ms * 1e6) {
    for (const end = calls + 1000; calls < end; calls++) step(calls);
  }
  return (cpu() - started) / calls;
}

const PATHS = {
  'hit by alias': (cache: Cache) =>
    time((i) => {
      if (cache.getByAlias(hotRaw[i % HOT]!) === undefined) throw new Error('miss');
    }),
  hit: (cache: Cache) =>
    time((i) => {
      if (cache.get(hotCanonical[i % HOT]!) === undefined) throw new Error('miss');
    }),
  miss: (cache: Cache) =>
    time((i) => {
      if (cache.getByAlias(fresh[i % FRESH]!.raw) !== undefined) throw new Error('hit');
    }),
  'set at budget': (cache: Cache) =>
    time((i) => {
      const { raw, canonical } = fresh[i % FRESH]!;
      cache.set(canonical, body);
      cache.alias(raw, canonical);
    }),
};

const IMPLEMENTATIONS = { 'Map LRU (before)': () => new MapBodyCache(), 'lru-cache 11 (BodyCache)': () => new BodyCache() } as const;
/** Only the 64 hot answers (the bench's mix under load), or a cache full to its budget (a process that has seen many queries). */
const FILLS = { '64 answers': 0, 'full budget': 20_000 };
const results = new Map<string, number[]>();
for (let round = 0; round < rounds; round++) {
  const order = round % 2 === 0 ? Object.entries(IMPLEMENTATIONS) : Object.entries(IMPLEMENTATIONS).reverse();
  for (const [name, make] of order) {
    for (const [fill, cold] of Object.entries(FILLS)) {
      for (const [path, measure] of Object.entries(PATHS)) {
        const cache = filled(make, cold);
        assert.ok(cache.getByAlias(hotRaw[0]!));
        const key = `${name}\t${fill}\t${path}`;
        results.set(key, [...(results.get(key) ?? []), measure(cache)]);
      }
    }
  }
  process.stderr.write(`round ${round + 1}/${rounds}\n`);
}

const median = (list: number[]) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)]!;
console.log(`| cache | path | ${Object.keys(IMPLEMENTATIONS).join(' CPU ns | ')} CPU ns | lru-cache / Map |`);
console.log(`| --- | --- | ${Object.keys(IMPLEMENTATIONS).map(() => '---:').join(' | ')} | ---: |`);
for (const fill of Object.keys(FILLS)) {
  for (const path of Object.keys(PATHS)) {
    const [map, lru] = Object.keys(IMPLEMENTATIONS).map((name) => median(results.get(`${name}\t${fill}\t${path}`)!)) as [number, number];
    console.log(`| ${fill} | ${path} | ${map.toFixed(0)} | ${lru.toFixed(0)} | ${(lru / map).toFixed(2)} |`);
  }
}

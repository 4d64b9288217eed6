/**
 * How many searches a client may have answered that are not in the answer
 * cache. A cached answer costs a map lookup and is never limited; a search not
 * seen before scans every review's text (about 15 ms at 100k reviews), so one
 * client sending nothing but new queries could keep a core busy and the other
 * clients waiting behind it. Since pages are not counted: one costs at most a
 * page of records, however large the dataset.
 *
 * A token bucket per client (client-key.ts: an IPv4 address, an IPv6 /64):
 * `perSecond` refill, `burst` held at most. Counted in this instance's memory,
 * even with Redis: the cost it bounds is this instance's CPU, and a search
 * needs no store, so it does not wait for one or fail with it. The check is
 * synchronous (rate-limiter-flexible answers through a promise), so a cached
 * answer and the Node entry's read-only path stay free of promises.
 */
import { LRUCache } from 'lru-cache';
import { clientKey } from './client-key.ts';
import type { RateVerdict } from './rate-limits.ts';

export interface SearchMissRule {
  /** Uncached searches a client may have answered per second, sustained. */
  perSecond: number;
  /** How many it may have answered at once after a pause (the bucket's size). */
  burst: number;
}

/**
 * At 100k reviews a new text query takes about 15 ms (p50; p99 37 ms): ten a
 * second keep one client at about a sixth of a core. The burst covers a page
 * of filters a person clicks through, or a script's start.
 */
export const DEFAULT_SEARCH_MISS_RULE: SearchMissRule = { perSecond: 10, burst: 30 };

/**
 * Clients tracked at once. A client forgotten at this bound starts again with
 * a full bucket: the least recently seen ones, which have mostly refilled anyway.
 */
const MAX_CLIENTS = 50_000;

export interface SearchMissLimit {
  /** Counts one uncached search from `address`: over the limit, how long until one is allowed. */
  take(address: string): RateVerdict;
}

/**
 * SEARCH_MISS_RATE_LIMIT: uncached searches per second and client (default 10),
 * or `off` for none (a CDN or proxy in front limits instead). SEARCH_MISS_BURST:
 * how many at once (default 30, at least 1). Null: no limit.
 */
export function searchMissRuleFromEnv(env: Record<string, string | undefined>): SearchMissRule | null {
  const rateText = env.SEARCH_MISS_RATE_LIMIT?.trim() ?? '';
  if (rateText.toLowerCase() === 'off') return null;
  const perSecond = rateText === '' ? DEFAULT_SEARCH_MISS_RULE.perSecond : Number(rateText);
  if (!Number.isFinite(perSecond) || perSecond <= 0) {
    throw new Error(
      `SEARCH_MISS_RATE_LIMIT must be a number of searches per second above 0, or "off"; got "${env.SEARCH_MISS_RATE_LIMIT}"`,
    );
  }
  const burstText = env.SEARCH_MISS_BURST?.trim() ?? '';
  const burst = burstText === '' ? DEFAULT_SEARCH_MISS_RULE.burst : Number(burstText);
  if (!Number.isInteger(burst) || burst < 1)
    throw new Error(`SEARCH_MISS_BURST must be a whole number, at least 1; got "${env.SEARCH_MISS_BURST}"`);
  return { perSecond, burst };
}

interface Bucket {
  tokens: number;
  /** performance.now() when `tokens` was counted. */
  at: number;
}

export function createSearchMissLimit(rule: SearchMissRule): SearchMissLimit {
  // A bucket untouched for this long is full again: forgetting it changes nothing.
  const refillMs = (rule.burst / rule.perSecond) * 1000;
  const buckets = new LRUCache<string, Bucket>({ max: MAX_CLIENTS, ttl: Math.ceil(refillMs) });
  return {
    take(address) {
      const key = clientKey(address);
      const time = performance.now();
      const bucket = buckets.get(key) ?? { tokens: rule.burst, at: time };
      const tokens = Math.min(rule.burst, bucket.tokens + ((time - bucket.at) / 1000) * rule.perSecond);
      // Refused, the bucket stays as it was: what it refills to is counted from there.
      if (tokens < 1) return { ok: false, retryAfterSeconds: Math.max(1, Math.ceil((1 - tokens) / rule.perSecond)) };
      buckets.set(key, { tokens: tokens - 1, at: time });
      return { ok: true };
    },
  };
}

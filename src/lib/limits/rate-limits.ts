/**
 * Fixed-window rate limits per client (see client-key.ts for what "one
 * client" is), by rate-limiter-flexible: in this process's memory on the
 * one-process Node server with the folder store, in Redis when the store is
 * Redis (REDIS_URL: several instances, and every serverless instance, share
 * one count). Nothing is written to the folder store, so no counter file, lock
 * or per-window folder is left behind.
 *
 * Redis out of reach is a StoreUnavailableError, as everywhere else the store
 * is needed: the route answers its 503 (docs/reliability.md). Counting in
 * memory meanwhile (an "insurance" limiter) would let each instance grant the
 * whole limit again, and the request could not go on without Redis anyway.
 */
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import type { Store } from '../store/store.ts';
import { isStoreUnavailable, StoreUnavailableError } from '../store/unavailable.ts';
import { clientKey } from './client-key.ts';

export type RateVerdict = { ok: true } | { ok: false; retryAfterSeconds: number };

/** `points` requests per `windowSeconds` and client. */
export interface RateRule {
  points: number;
  windowSeconds: number;
}

export interface RateLimits<Kind extends string> {
  /** Counts one request of `kind` from `address`: over the limit, how long until the window ends. */
  hit(kind: Kind, address: string): Promise<RateVerdict>;
}

/**
 * `store` is asked for on the first hit (the MCP sessions fetch theirs
 * lazily): a Redis store gives Redis limiters, any other in-memory ones.
 */
export function createRateLimits<Kind extends string>(
  store: () => Store,
  rules: Record<Kind, RateRule>,
): RateLimits<Kind> {
  const limiters = new Map<Kind, RateLimiterAbstract>();
  const limiterFor = async (kind: Kind): Promise<RateLimiterAbstract> => {
    const shared = store().redis;
    // The connected client is fetched on every hit: during an outage this is the prompt StoreUnavailableError.
    const redis = shared ? await shared() : undefined;
    let limiter = limiters.get(kind);
    if (!limiter) {
      const { points, windowSeconds: duration } = rules[kind];
      limiter = redis
        ? new RateLimiterRedis({
            storeClient: redis.client,
            keyPrefix: `${redis.prefix}:rate:${kind}`,
            points,
            duration,
          })
        : new RateLimiterMemory({ keyPrefix: kind, points, duration });
      limiters.set(kind, limiter);
    }
    return limiter;
  };
  return {
    async hit(kind, address) {
      const limiter = await limiterFor(kind);
      try {
        await limiter.consume(clientKey(address));
        return { ok: true };
      } catch (rejection) {
        if (rejection instanceof RateLimiterRes)
          return { ok: false, retryAfterSeconds: Math.max(1, Math.ceil(rejection.msBeforeNext / 1000)) };
        if (isStoreUnavailable(rejection)) throw rejection;
        // A Redis command that failed (the connection went away mid-request, or timed out).
        throw new StoreUnavailableError(
          `rate limit "${kind}" could not be counted in Redis (${(rejection as Error).message})`,
          { cause: rejection },
        );
      }
    },
  };
}

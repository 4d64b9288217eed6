/**
 * The shared store for several instances: Redis through unstorage's driver,
 * with the atomic steps (claims, set-if-absent, counters) as single Redis
 * commands on the driver's own client. Redis expires keys itself.
 */
import type Redis from 'ioredis';
import { createStorage } from 'unstorage';
import redisDriver from 'unstorage/drivers/redis';
import { wrap, type Store } from './store.ts';
import { liveKeys, unstorageStore } from './unstorage-store.ts';

/** INCR, and a TTL on the counter's first increment: one atomic step. */
const INCREMENT_SCRIPT = "local v = redis.call('INCR', KEYS[1]) if v == 1 then redis.call('EXPIRE', KEYS[1], ARGV[1]) end return v";

export function redisStore(url: string, prefix: string, now: () => number): Store {
  const driver = redisDriver({ url, base: prefix });
  const basic = unstorageStore(createStorage({ driver }), now);
  const client = () => (driver as unknown as { getInstance: () => Redis }).getInstance();
  const seconds = (ttl: number) => String(Math.max(1, Math.ceil(ttl)));
  return {
    ...basic,
    async keys(keyPrefix) {
      return liveKeys(await basic.entries(keyPrefix), now());
    },
    async setIfAbsent(key, value, options) {
      const envelope = JSON.stringify(wrap(value, options?.ttlSeconds, now()));
      const ttl = options?.ttlSeconds;
      const answer = ttl ? await client().set(`${prefix}:${key}`, envelope, 'EX', seconds(ttl), 'NX') : await client().set(`${prefix}:${key}`, envelope, 'NX');
      return answer === 'OK';
    },
    async claim(key, ttlSeconds) {
      return (await client().set(`${prefix}:claims:${key}`, '1', 'EX', seconds(ttlSeconds), 'NX')) === 'OK';
    },
    async increment(key, ttlSeconds) {
      return Number(await client().eval(INCREMENT_SCRIPT, 1, `${prefix}:counters:${key}`, seconds(ttlSeconds)));
    },
  };
}

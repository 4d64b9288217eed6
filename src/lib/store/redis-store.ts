/**
 * The shared store for several instances: Redis through unstorage's driver,
 * with the atomic steps (claims, set-if-absent, counters, compare-and-delete)
 * as single Redis commands on the driver's own client. Redis expires keys itself.
 *
 * Redis going away must cost a prompt, named error, never a hang or a crash:
 * commands are not queued while disconnected (enableOfflineQueue: false), not
 * retried on another connection (maxRetriesPerRequest: 0), and time out
 * (commandTimeout) when Redis stops answering; every such failure becomes a
 * StoreUnavailableError that routes answer as a 503. The client reconnects on
 * its own every ≤ 2 s, so the service recovers without a restart. One error
 * listener logs the outage once (ioredis otherwise prints an "Unhandled error
 * event" per reconnection attempt) and its end once.
 */
import { once } from 'node:events';
import type Redis from 'ioredis';
import { createStorage } from 'unstorage';
import redisDriver from 'unstorage/drivers/redis';
import { holderIsGone, THIS_HOLDER } from './claim-holder.ts';
import { wrap, type Store } from './store.ts';
import { StoreUnavailableError } from './unavailable.ts';
import { liveKeys, unstorageStore } from './unstorage-store.ts';

/** INCR, and a TTL on the counter's first increment: one atomic step. */
const INCREMENT_SCRIPT =
  "local v = redis.call('INCR', KEYS[1]) if v == 1 then redis.call('EXPIRE', KEYS[1], ARGV[1]) end return v";

/** SADD, and an expiry that only ever moves later: one atomic step. */
const ADD_MEMBER_SCRIPT =
  "redis.call('SADD', KEYS[1], ARGV[1]) if redis.call('TTL', KEYS[1]) < tonumber(ARGV[2]) then redis.call('EXPIRE', KEYS[1], ARGV[2]) end return 1";

/** DEL only if the stored envelope's value has ARGV[1] = ARGV[2] (compare-and-delete): one atomic step. */
const REMOVE_IF_SCRIPT =
  "local raw = redis.call('GET', KEYS[1]) if not raw then return 0 end " +
  'local ok, envelope = pcall(cjson.decode, raw) ' +
  "if ok and type(envelope) == 'table' and type(envelope.value) == 'table' and envelope.value[ARGV[1]] == ARGV[2] then return redis.call('DEL', KEYS[1]) end return 0";

/** Replaces a claim's holder ARGV[1] (one that has exited) by ARGV[2] for ARGV[3] s, if it still holds it: one atomic step. */
const TAKE_OVER_SCRIPT =
  "if redis.call('GET', KEYS[1]) == ARGV[1] then redis.call('SET', KEYS[1], ARGV[2], 'EX', ARGV[3]) return 1 end return 0";

/** Longest wait for a connection or an answer: a request that needs the store gets its 503 within about this. */
const REDIS_TIMEOUT_MS = 2000;

/** The URL as it may be logged or told to a client: no user name or password. */
function redactedRedisUrl(url: string): string {
  try {
    const parsed = new URL(url);
    parsed.username = '';
    parsed.password = '';
    // ioredis reads options, a password among them, from the query string too.
    parsed.search = '';
    return parsed.href.replace(/\/$/, '');
  } catch {
    return '(not a URL)';
  }
}

export function redisStore(url: string, prefix: string, now: () => number): Store {
  const shown = `REDIS_URL (${redactedRedisUrl(url)})`;
  const driver = redisDriver({
    url,
    base: prefix,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    connectTimeout: REDIS_TIMEOUT_MS,
    commandTimeout: REDIS_TIMEOUT_MS,
    // Try again soon, forever: Redis coming back is noticed within 2 s.
    retryStrategy: (times: number) => Math.min(times * 200, REDIS_TIMEOUT_MS),
  });
  const client = (driver as unknown as { getInstance: () => Redis }).getInstance();
  // An unreadable value is renamed out of the key space, never deleted, and logged.
  const basic = unstorageStore(createStorage({ driver }), now, async (key) => {
    const aside = `${prefix}:_corrupt:${key}:${Date.now()}`;
    if ((await client.renamenx(`${prefix}:${key}`, aside).catch(() => 0)) === 1)
      console.error(`store: "${key}" in Redis is not readable JSON; renamed to "${aside}"`);
  });
  const seconds = (ttl: number) => String(Math.max(1, Math.ceil(ttl)));

  /** Why Redis is out of reach, while it is (null: connected, or never failed yet). */
  let outage: string | null = null;
  client.on('error', (error: Error & { code?: string }) => {
    if (outage !== null) return;
    outage = error.code ?? error.message;
    console.error(
      `store: Redis at ${shown} is unreachable (${error.message}); the WebSub hub and MCP 2025 sessions answer 503 until it is back. Retrying every ≤ ${REDIS_TIMEOUT_MS / 1000} s.`,
    );
  });
  client.on('ready', () => {
    if (outage === null) return;
    outage = null;
    console.error(`store: Redis at ${shown} is reachable again`);
  });

  /**
   * Before a command: wait for the first connection (or a reconnection under
   * way while no outage is known), at most REDIS_TIMEOUT_MS; fail at once
   * during a known outage.
   */
  const ready = async (): Promise<void> => {
    if (client.status === 'ready') return;
    if (outage === null && client.status !== 'end') {
      // Rejects on an 'error' event or the deadline, whichever comes before 'ready'.
      const connected = await once(client, 'ready', { signal: AbortSignal.timeout(REDIS_TIMEOUT_MS) }).then(
        () => true,
        () => false,
      );
      if (connected) return;
    }
    throw new StoreUnavailableError(`The state store, Redis at ${shown}, is unreachable (${outage ?? client.status})`);
  };

  /** Runs a command; a connection-level failure becomes a StoreUnavailableError (a Redis error reply is a bug: thrown as is). */
  const run = async <T>(command: () => Promise<T>): Promise<T> => {
    await ready();
    try {
      return await command();
    } catch (error) {
      if ((error as Error).name === 'ReplyError') throw error;
      throw new StoreUnavailableError(`The state store, Redis at ${shown}, failed (${(error as Error).message})`, {
        cause: error,
      });
    }
  };

  return {
    get: (key, options) => run(() => basic.get(key, options)),
    set: (key, value, options) => run(() => basic.set(key, value, options)),
    remove: (key) => run(() => basic.remove(key)),
    keys: (keyPrefix) => run(async () => liveKeys(await basic.entries(keyPrefix), now())),
    setIfAbsent: (key, value, options) =>
      run(async () => {
        const envelope = JSON.stringify(wrap(value, options?.ttlSeconds, now()));
        const ttl = options?.ttlSeconds;
        const answer = ttl
          ? await client.set(`${prefix}:${key}`, envelope, 'EX', seconds(ttl), 'NX')
          : await client.set(`${prefix}:${key}`, envelope, 'NX');
        return answer === 'OK';
      }),
    removeIf: (key, field, expected) =>
      run(async () => Number(await client.eval(REMOVE_IF_SCRIPT, 1, `${prefix}:${key}`, field, expected)) === 1),
    claim: (key, ttlSeconds) =>
      run(async () => {
        const claimKey = `${prefix}:claims:${key}`;
        if ((await client.set(claimKey, THIS_HOLDER, 'EX', seconds(ttlSeconds), 'NX')) === 'OK') return true;
        // Held by a process of this machine that has exited (claim-holder.ts): taken over, if no one else did first.
        const holder = await client.get(claimKey);
        return (
          holder !== null &&
          holderIsGone(holder) &&
          Number(await client.eval(TAKE_OVER_SCRIPT, 1, claimKey, holder, THIS_HOLDER, seconds(ttlSeconds))) === 1
        );
      }),
    increment: (key, ttlSeconds) =>
      run(async () => Number(await client.eval(INCREMENT_SCRIPT, 1, `${prefix}:counters:${key}`, seconds(ttlSeconds)))),
    addMember: (key, member, ttlSeconds) =>
      run(
        async () =>
          void (await client.eval(ADD_MEMBER_SCRIPT, 1, `${prefix}:sets:${key}`, member, seconds(ttlSeconds))),
      ),
    hasMember: (key, member) => run(async () => (await client.sismember(`${prefix}:sets:${key}`, member)) === 1),
    redis: () => run(async () => ({ client, prefix })),
    close: () => basic.close(),
  };
}

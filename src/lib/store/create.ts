/**
 * Chooses the store from configuration: Redis when REDIS_URL is set (several
 * instances share subscriptions, sessions and delivery claims), otherwise a
 * folder on this machine (STORE_DIR, default `.data/`).
 */
import { mkdir, open, readdir, readFile, rm, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type Redis from 'ioredis';
import { createStorage, type Storage } from 'unstorage';
import redisDriver from 'unstorage/drivers/redis';
import { atomicFileDriver, keyToPath } from './file-driver.ts';
import { unwrap, wrap, type Store } from './store.ts';

export interface StoreConfig {
  redisUrl?: string;
  dir: string;
  /** Prefix of every key in Redis, so several services can share one server. */
  redisPrefix: string;
}

export function storeConfigFromEnv(env: Record<string, string | undefined> = process.env): StoreConfig {
  return {
    redisUrl: env.REDIS_URL?.trim() || undefined,
    dir: resolve(env.STORE_DIR?.trim() || '.data'),
    redisPrefix: env.REDIS_PREFIX?.trim() || 'roofing-reviews',
  };
}

export function createStore(config: StoreConfig, now: () => number = Date.now): Store {
  return config.redisUrl ? redisStore(config, now) : fileStore(config.dir, now);
}

function commonStore(storage: Storage, now: () => number, purgeExpired: boolean): Omit<Store, 'claim' | 'increment'> {
  return {
    async get<T>(key: string) {
      return unwrap<T>(await storage.getItemRaw(key), now());
    },
    async set(key, value, options) {
      await storage.setItemRaw(key, JSON.stringify(wrap(value, options?.ttlSeconds, now())), options?.ttlSeconds ? { ttl: Math.ceil(options.ttlSeconds) } : {});
    },
    async remove(key) {
      await storage.removeItem(key);
    },
    async keys(prefix) {
      const live: string[] = [];
      const candidates = (await storage.getKeys(prefix)).filter((key) => key.startsWith(prefix));
      // One round trip (MGET in Redis) per batch instead of one per key.
      for (let start = 0; start < candidates.length; start += 500) {
        const batch = await storage.getItems(candidates.slice(start, start + 500));
        for (const { key, value } of batch) {
          if (unwrap(value, now()) !== null) live.push(key);
          // Redis drops expired keys itself; a file would stay forever: remove it when seen.
          else if (purgeExpired && value !== null) await storage.removeItem(key);
        }
      }
      return live.sort();
    },
    async close() {
      await storage.dispose();
    },
  };
}

function fileStore(dir: string, now: () => number): Store {
  const storage = createStorage({ driver: atomicFileDriver({ base: dir }) });
  const common = commonStore(storage, now, true);
  const claimsDir = resolve(dir, '.claims');
  let lastPrune = now();
  // Claims are files until taken again: sweep the expired ones now and then, so the folder does not grow forever.
  const pruneClaims = () => {
    if (now() - lastPrune < CLAIM_PRUNE_INTERVAL_MS) return;
    lastPrune = now();
    void (async () => {
      for (const entry of await readdir(claimsDir, { recursive: true, withFileTypes: true }).catch(() => [])) {
        if (!entry.isFile()) continue;
        const path = join(entry.parentPath, entry.name);
        if (await claimExpired(path, now())) await rm(path, { force: true }).catch(() => {});
      }
    })().catch(() => {});
  };
  // Read-modify-write counters, one at a time per key within this process.
  const counterLocks = new Map<string, Promise<unknown>>();
  return {
    ...common,
    async increment(key, ttlSeconds) {
      const previous = counterLocks.get(key) ?? Promise.resolve();
      const next = previous.catch(() => {}).then(async () => {
        const raw = await storage.getItemRaw(key);
        const current = raw === null || raw === undefined ? null : (typeof raw === 'string' ? JSON.parse(raw) : raw) as { value: unknown; expires_at: number | null };
        const live = current && (current.expires_at === null || current.expires_at > now()) ? current : null;
        const value = (live ? Number(live.value) : 0) + 1;
        const expiresAt = live ? live.expires_at : now() + ttlSeconds * 1000;
        await storage.setItemRaw(key, JSON.stringify({ value, expires_at: expiresAt }));
        return value;
      });
      counterLocks.set(key, next);
      try {
        return await next;
      } finally {
        if (counterLocks.get(key) === next) counterLocks.delete(key);
      }
    },
    // Exclusive create (O_EXCL) is atomic across processes on one file system.
    async claim(key, ttlSeconds) {
      pruneClaims();
      const path = keyToPath(claimsDir, key);
      await mkdir(resolve(path, '..'), { recursive: true });
      for (let attempt = 0; attempt < 2; attempt++) {
        try {
          const handle = await open(path, 'wx');
          await handle.writeFile(String(now() + ttlSeconds * 1000));
          await handle.close();
          return true;
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
          const expired = await claimExpired(path, now());
          if (!expired) return false;
          await rm(path, { force: true });
        }
      }
      return false;
    },
  };
}

const CLAIM_PRUNE_INTERVAL_MS = 10 * 60_000;

/** INCR, and a TTL on the counter's first increment: one atomic step. */
const INCREMENT_SCRIPT = "local v = redis.call('INCR', KEYS[1]) if v == 1 then redis.call('EXPIRE', KEYS[1], ARGV[1]) end return v";

async function claimExpired(path: string, now: number): Promise<boolean> {
  try {
    const until = Number(await readFile(path, 'utf8'));
    // A claim whose writer died before writing its expiry is given a minute, then released.
    if (!Number.isFinite(until) || until === 0) return (await stat(path)).mtimeMs + 60_000 <= now;
    return until <= now;
  } catch {
    return false;
  }
}

function redisStore(config: StoreConfig, now: () => number): Store {
  const driver = redisDriver({ url: config.redisUrl, base: config.redisPrefix, lazyConnect: false });
  const storage = createStorage({ driver });
  const client = () => (driver as unknown as { getInstance: () => Redis }).getInstance();
  return {
    ...commonStore(storage, now, false),
    async increment(key, ttlSeconds) {
      const counted = await client().eval(INCREMENT_SCRIPT, 1, `${config.redisPrefix}:counters:${key}`, String(Math.max(1, Math.ceil(ttlSeconds))));
      return Number(counted);
    },
    async claim(key, ttlSeconds) {
      const answer = await client().set(`${config.redisPrefix}:claims:${key}`, '1', 'EX', Math.max(1, Math.ceil(ttlSeconds)), 'NX');
      return answer === 'OK';
    },
    async close() {
      await storage.dispose();
    },
  };
}

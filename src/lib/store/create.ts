/**
 * Chooses the store from configuration: Redis when REDIS_URL is set (several
 * instances share subscriptions, sessions and delivery claims), otherwise a
 * folder on this machine (STORE_DIR, default `.data/`).
 */
import { mkdir, open, readFile, rm, stat } from 'node:fs/promises';
import { resolve } from 'node:path';
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

function commonStore(storage: Storage, now: () => number): Omit<Store, 'claim'> {
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
      for (const key of await storage.getKeys(prefix)) {
        if (key.startsWith(prefix) && unwrap(await storage.getItemRaw(key), now()) !== null) live.push(key);
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
  return {
    ...commonStore(storage, now),
    // Exclusive create (O_EXCL) is atomic across processes on one file system.
    async claim(key, ttlSeconds) {
      const path = keyToPath(resolve(dir, '.claims'), key);
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
    ...commonStore(storage, now),
    async claim(key, ttlSeconds) {
      const answer = await client().set(`${config.redisPrefix}:claims:${key}`, '1', 'EX', Math.max(1, Math.ceil(ttlSeconds)), 'NX');
      return answer === 'OK';
    },
    async close() {
      await storage.dispose();
    },
  };
}

/**
 * Chooses the store from configuration: Redis when REDIS_URL is set (several
 * instances share subscriptions, sessions and delivery claims), otherwise a
 * folder on this machine (STORE_DIR, default `.data/`).
 */
import { resolve } from 'node:path';
import { fileStore } from './file-store.ts';
import { tracked } from './open-stores.ts';
import { redisStore } from './redis-store.ts';
import type { Store } from './store.ts';

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
  return tracked(config.redisUrl ? redisStore(config.redisUrl, config.redisPrefix, now) : fileStore(config.dir, now));
}

/**
 * The parts of a Store that are the same on every driver: JSON values in an
 * envelope that carries their expiry, over an unstorage Storage.
 */
import type { Storage } from 'unstorage';
import { CorruptValueError, isCorrupt, unwrap, wrap, type Store } from './store.ts';

export type BasicStore = Pick<Store, 'get' | 'set' | 'remove' | 'close'> & {
  /** Keys under `prefix` with their raw envelopes, read in batches (MGET in Redis). */
  entries(prefix: string): Promise<Array<{ key: string; value: unknown }>>;
};

/**
 * `onCorrupt`: what the backend does with a present but unreadable value before
 * it reads as null (the folder store moves the file aside; Redis logs it).
 */
export function unstorageStore(
  storage: Storage,
  now: () => number,
  onCorrupt: (key: string, raw: unknown) => Promise<void>,
): BasicStore {
  return {
    async get<T>(key: string, options?: { corrupt?: 'throw' }) {
      const raw = await storage.getItemRaw(key);
      if (isCorrupt(raw)) {
        if (options?.corrupt === 'throw') throw new CorruptValueError(key, 'in the store');
        await onCorrupt(key, raw);
        return null;
      }
      return unwrap<T>(raw, now());
    },
    async set(key, value, options) {
      const ttl = options?.ttlSeconds;
      await storage.setItemRaw(
        key,
        JSON.stringify(wrap(value, ttl, now())),
        ttl ? { ttl: Math.max(1, Math.ceil(ttl)) } : {},
      );
    },
    async remove(key) {
      await storage.removeItem(key);
    },
    async entries(prefix) {
      const keys = (await storage.getKeys(prefix)).filter((key) => key.startsWith(prefix)).sort();
      const out: Array<{ key: string; value: unknown }> = [];
      for (let start = 0; start < keys.length; start += 500)
        out.push(...(await storage.getItems(keys.slice(start, start + 500))));
      return out;
    },
    async close() {
      await storage.dispose();
    },
  };
}

/** The live keys among entries: expired and vanished ones left out. */
export function liveKeys(entries: Array<{ key: string; value: unknown }>, now: number): string[] {
  return entries.filter(({ value }) => unwrap(value, now) !== null).map(({ key }) => key);
}

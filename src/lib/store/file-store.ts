/**
 * The embedded store: a folder, one file per key (see file-driver.ts for the
 * atomic writes). Steps that read, decide and write — set-if-absent, claims,
 * counters, removing an expired value — hold a per-key lock, a directory made
 * with mkdir (atomic on one file system), so they are atomic across every
 * process sharing the folder. Expired files are swept on a timer: nothing
 * listed or not, short-lived keys (rate windows, ended sessions) included,
 * outlives its expiry by more than one sweep.
 */
import { mkdir, readFile, rm, stat } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { createStorage } from 'unstorage';
import { atomicFileDriver, keyToPath } from './file-driver.ts';
import { unwrap, wrap, type Store } from './store.ts';
import { liveKeys, unstorageStore } from './unstorage-store.ts';

/** A lock older than this was left by a process that died holding it (a step takes milliseconds). */
const STALE_LOCK_MS = 10_000;
const SWEEP_INTERVAL_MS = 5 * 60_000;
const CLAIMS = '_claims';

export interface FileStoreOptions {
  sweepIntervalMs?: number;
}

export function fileStore(dir: string, now: () => number, options: FileStoreOptions = {}): Store {
  const base = resolve(dir);
  const basic = unstorageStore(createStorage({ driver: atomicFileDriver({ base }) }), now);
  const pathOf = (key: string) => keyToPath(base, key);

  const readLive = async (key: string): Promise<unknown> => unwrap(await readRaw(pathOf(key)), now());

  /** Removes `key` if its value has expired, deciding and removing under its lock. */
  const removeIfExpired = (key: string) =>
    withLock(pathOf(key), async () => {
      const raw = await readRaw(pathOf(key));
      if (raw !== null && unwrap(raw, now()) === null) await basic.remove(key);
    });

  const sweep = async () => {
    for (const { key, value } of await basic.entries('')) {
      if (value !== null && unwrap(value, now()) === null) await removeIfExpired(key);
    }
  };
  const timer = setInterval(() => void sweep().catch(() => {}), options.sweepIntervalMs ?? SWEEP_INTERVAL_MS);
  timer.unref();

  const setIfAbsent: Store['setIfAbsent'] = (key, value, opts) =>
    withLock(pathOf(key), async () => {
      if ((await readLive(key)) !== null) return false;
      await basic.set(key, value, opts);
      return true;
    });

  return {
    ...basic,
    async keys(prefix) {
      const entries = await basic.entries(prefix);
      return liveKeys(entries.filter(({ key }) => !key.startsWith(CLAIMS)), now());
    },
    setIfAbsent,
    claim: (key, ttlSeconds) => setIfAbsent(`${CLAIMS}:${key}`, true, { ttlSeconds }),
    increment: (key, ttlSeconds) =>
      withLock(pathOf(key), async () => {
        const raw = await readRaw(pathOf(key));
        const current = unwrap<number>(raw, now());
        if (current === null) {
          await basic.set(key, 1, { ttlSeconds });
          return 1;
        }
        // The window keeps the expiry its first increment gave it.
        const expiresAt = (JSON.parse(raw as string) as { expires_at: number | null }).expires_at;
        await basic.set(key, current + 1, expiresAt === null ? {} : { ttlSeconds: (expiresAt - now()) / 1000 });
        return current + 1;
      }),
    async close() {
      clearInterval(timer);
      await basic.close();
    },
  };
}

async function readRaw(path: string): Promise<string | null> {
  try {
    return await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT' || (error as NodeJS.ErrnoException).code === 'EISDIR') return null;
    throw error;
  }
}

/** Runs `step` holding the lock of one key's file: `<file>.lock/`, made by mkdir. */
async function withLock<T>(path: string, step: () => Promise<T>): Promise<T> {
  const lock = `${path}.lock`;
  for (;;) {
    try {
      await mkdir(lock);
      break;
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOENT') {
        await mkdir(dirname(lock), { recursive: true });
        continue;
      }
      if (code !== 'EEXIST') throw error;
      const held = await stat(lock).catch(() => null);
      if (held && Date.now() - held.mtimeMs > STALE_LOCK_MS) await rm(lock, { recursive: true, force: true });
      else await sleep(1 + Math.random() * 4);
    }
  }
  try {
    return await step();
  } finally {
    await rm(lock, { recursive: true, force: true });
  }
}

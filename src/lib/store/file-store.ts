/**
 * The embedded store: a folder, one file per key (see file-driver.ts for the
 * atomic writes). Steps that read, decide and write — set-if-absent, claims,
 * counters, compare-and-delete, removing an expired value — hold a per-key lock (file-lock.ts:
 * proper-lockfile's mkdir lock, taken over 2 s after its holder died), so they
 * are atomic across every process sharing the folder. Expired files are swept on a timer: nothing
 * listed or not, short-lived keys (rate windows, ended sessions) included,
 * outlives its expiry by more than one sweep.
 *
 * A file that is not a readable envelope (truncated by a full disk, edited by
 * hand) is never taken for a missing value without a word, nor swept away: it
 * is renamed to `<file>.corrupt-<time>` next to where it was, with one log line
 * naming the key, and then reads as missing.
 *
 * A folder that cannot be written (read-only, not ours, under a file, a full
 * disk) is checked for when the store opens: one log line naming STORE_DIR and
 * the path, and the server still starts. Every operation that then meets such
 * an error fails with a StoreUnavailableError (the hub and MCP sessions answer
 * 503), logged once per outage; the first write that succeeds again ends it.
 *
 * The sweep also removes the folders it left empty and locks abandoned for a
 * minute (folder-prune.ts).
 */
import { statSync } from 'node:fs';
import { readFile, rename } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import { resolve } from 'node:path';
import { createStorage } from 'unstorage';
import { atomicFileDriver, keyToPath } from './file-driver.ts';
import { holderIsGone, THIS_HOLDER } from './claim-holder.ts';
import { withLock } from './file-lock.ts';
import { pruneFolders } from './folder-prune.ts';
import { isCorrupt, readEnvelope, unwrap, type Envelope, type Store } from './store.ts';
import { liveKeys, unstorageStore } from './unstorage-store.ts';
import { isUnwritable, probeWritable, unwritableError, unwritableLine } from './writable.ts';

const SWEEP_INTERVAL_MS = 5 * 60_000;
const CLAIMS = '_claims';

export interface FileStoreOptions {
  sweepIntervalMs?: number;
  /** Where the lines about a corrupt file or an unwritable folder go (default: stderr). */
  log?: (line: string) => void;
}

export function fileStore(dir: string, now: () => number, options: FileStoreOptions = {}): Store {
  const base = resolve(dir);
  const log = options.log ?? ((line: string) => console.error(line));
  const pathOf = (key: string) => keyToPath(base, key);

  /** Moves an unreadable file aside, if it still holds the bytes that were found unreadable (a good value written since stays). */
  const keepAside = async (key: string, raw: unknown): Promise<void> => {
    const path = pathOf(key);
    if ((await readRaw(path)) !== raw) return;
    const aside = `${path}.corrupt-${new Date().toISOString().replace(/[:.]/g, '-')}-${randomBytes(3).toString('hex')}`;
    try {
      await rename(path, aside);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
      throw error;
    }
    log(`store: "${key}" is not readable JSON (truncated or damaged); moved aside to ${aside}`);
  };

  const basic = unstorageStore(createStorage({ driver: atomicFileDriver({ base }) }), now, keepAside);

  /** The live envelope under the key's lock (held by the caller); a corrupt file is moved aside and reads as missing. */
  const readLive = async (key: string): Promise<Envelope | null> => {
    const raw = await readRaw(pathOf(key));
    const envelope = readEnvelope(raw);
    if (envelope === 'corrupt') {
      await keepAside(key, raw);
      return null;
    }
    return envelope && unwrap(envelope, now()) !== null ? envelope : null;
  };

  /** Removes `key` if its value has expired, deciding and removing under its lock; a corrupt one is moved aside, never removed. */
  const removeIfExpired = (key: string) =>
    withLock(pathOf(key), async () => {
      const raw = await readRaw(pathOf(key));
      if (isCorrupt(raw)) await keepAside(key, raw);
      else if (raw !== null && unwrap(raw, now()) === null) await basic.remove(key);
    });

  const sweep = async () => {
    for (const { key, value } of await basic.entries('')) {
      if (value !== null && unwrap(value, now()) === null) await removeIfExpired(key);
    }
    await pruneFolders(base);
  };
  const timer = setInterval(() => void sweep().catch(() => {}), options.sweepIntervalMs ?? SWEEP_INTERVAL_MS);
  timer.unref();

  /** The sets hasMember read, with the file version they were read at. */
  const memberSets = new Map<string, { version: string; envelope: Envelope | null }>();

  const store: Store = {
    ...basic,
    async keys(prefix) {
      const entries = await basic.entries(prefix);
      for (const { key, value } of entries) if (isCorrupt(value)) await keepAside(key, value);
      return liveKeys(
        entries.filter(({ key }) => !key.startsWith(CLAIMS)),
        now(),
      );
    },
    setIfAbsent: (key, value, opts) =>
      withLock(pathOf(key), async () => {
        if ((await readLive(key))?.value != null) return false;
        await basic.set(key, value, opts);
        return true;
      }),
    removeIf: (key, field, expected) =>
      withLock(pathOf(key), async () => {
        const live = (await readLive(key))?.value;
        if (typeof live !== 'object' || live === null || (live as Record<string, unknown>)[field] !== expected)
          return false;
        await basic.remove(key);
        return true;
      }),
    // Free, or held by a process that has exited: taken, under the claim's lock (claim-holder.ts).
    claim: (key, ttlSeconds) =>
      withLock(pathOf(`${CLAIMS}:${key}`), async () => {
        const held = (await readLive(`${CLAIMS}:${key}`))?.value;
        if (held != null && !holderIsGone((held as { holder?: unknown }).holder)) return false;
        await basic.set(`${CLAIMS}:${key}`, { holder: THIS_HOLDER }, { ttlSeconds });
        return true;
      }),
    increment: (key, ttlSeconds) =>
      withLock(pathOf(key), async () => {
        const live = await readLive(key);
        if (live?.value == null) {
          await basic.set(key, 1, { ttlSeconds });
          return 1;
        }
        // The window keeps the expiry its first increment gave it.
        const next = (live.value as number) + 1;
        await basic.set(key, next, live.expires_at === null ? {} : { ttlSeconds: (live.expires_at - now()) / 1000 });
        return next;
      }),
    addMember: (key, member, ttlSeconds) =>
      withLock(pathOf(key), async () => {
        const live = await readLive(key);
        const members = (live?.value as string[] | null | undefined) ?? [];
        const expiresAt = live?.expires_at ?? null;
        const ttl = Math.max(ttlSeconds, expiresAt === null ? 0 : (expiresAt - now()) / 1000);
        if (!members.includes(member)) members.push(member);
        await basic.set(key, members, { ttlSeconds: ttl });
      }),
    async hasMember(key, member) {
      // Asked on every MCP session request (ended ids): the file is read again only when a
      // stat says it changed (a write renames a new file in), since an asynchronous read costs
      // several thread-pool round trips, more than the rest of the request.
      const path = pathOf(key);
      const stat = statSync(path, { throwIfNoEntry: false });
      if (!stat) {
        memberSets.delete(key);
        return false;
      }
      const version = `${stat.ino}:${stat.mtimeMs}:${stat.size}`;
      let kept = memberSets.get(key);
      if (kept?.version !== version) {
        const raw = await readRaw(path);
        const envelope = readEnvelope(raw);
        if (envelope === 'corrupt') {
          await keepAside(key, raw);
          return false;
        }
        // Sets are per expiry bucket, and a past bucket is not asked for again: drop the expired.
        for (const [other, { envelope: old }] of memberSets)
          if (old && unwrap(old, now()) === null) memberSets.delete(other);
        kept = { version, envelope };
        memberSets.set(key, kept);
      }
      return (unwrap<string[]>(kept.envelope, now()) ?? []).includes(member);
    },
    async close() {
      clearInterval(timer);
      await basic.close();
    },
  };

  /** Whether the folder is known to be unwritable now (logged once when it became so). */
  let unwritable = false;
  const failed = (error: unknown): unknown => {
    if (!isUnwritable(error)) return error;
    if (!unwritable) log(unwritableLine(base, error));
    unwritable = true;
    return unwritableError(base, error);
  };
  const wrote = () => {
    if (unwritable) log(`store: STORE_DIR (${base}) is writable again`);
    unwritable = false;
  };
  // Checked once at open; every operation waits for the check, so its line comes first.
  const checked = probeWritable(base).then(
    (error) => void (error && failed(error)),
    (error: unknown) => log(`store: STORE_DIR (${base}) could not be checked: ${String(error)}`),
  );
  const guard =
    <A extends unknown[], R>(operation: (...args: A) => Promise<R>, writes?: (result: R) => boolean) =>
    async (...args: A): Promise<R> => {
      await checked;
      let result: R;
      try {
        result = await operation(...args);
      } catch (error) {
        throw failed(error);
      }
      if (writes?.(result)) wrote();
      return result;
    };
  return {
    get: <T>(key: string, options?: { corrupt?: 'throw' }) => guard(() => store.get<T>(key, options))(),
    set: guard(store.set, () => true),
    remove: guard(store.remove),
    keys: guard(store.keys),
    setIfAbsent: guard(store.setIfAbsent, (stored) => stored),
    removeIf: guard(store.removeIf, (removed) => removed),
    claim: guard(store.claim, (taken) => taken),
    increment: guard(store.increment, () => true),
    addMember: guard(store.addMember, () => true),
    hasMember: guard(store.hasMember),
    ready: () => checked,
    close: store.close,
  };
}

async function readRaw(path: string): Promise<string | null> {
  try {
    return await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT' || (error as NodeJS.ErrnoException).code === 'EISDIR')
      return null;
    throw error;
  }
}

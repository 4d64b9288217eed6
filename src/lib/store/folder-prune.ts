/**
 * Tidying after the folder store's sweep: folders left empty when their last
 * key expired (a per-window rate folder, a topic with no subscribers left) are
 * removed, and so are locks abandoned for a minute by a killed process on keys
 * nobody asked for since (a live holder refreshes its lock every second, see
 * file-lock.ts, so one this old is dead; the next caller on the key would have
 * taken it over after 2 s anyway).
 *
 * Removing a folder races with a write that has just made it: rmdir only
 * removes an empty one, and the write (file-driver.ts) and the lock
 * (file-lock.ts) make the folder again when it vanished under them.
 */
import { readdir, rm, rmdir, stat } from 'node:fs/promises';
import { join } from 'node:path';

const ABANDONED_LOCK_MS = 60_000;

/** Prunes below `base` (never `base` itself); true when `dir` itself is now empty. */
export async function pruneFolders(base: string, dir = base): Promise<boolean> {
  let entries;
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch {
    return false;
  }
  let left = entries.length;
  for (const entry of entries) {
    if (!entry.isDirectory()) continue;
    const path = join(dir, entry.name);
    if (entry.name.endsWith('.lock')) {
      const lock = await stat(path).catch(() => null);
      if (lock && Date.now() - lock.mtimeMs > ABANDONED_LOCK_MS && (await rm(path, { recursive: true, force: true }).then(() => true, () => false))) left--;
    } else if ((await pruneFolders(base, path)) && (await rmdir(path).then(() => true, () => false))) left--;
  }
  return dir !== base && left === 0;
}

/**
 * Tidying after the folder store's sweep: folders left empty when their last
 * key expired (a per-window rate folder, a topic with no subscribers left) are
 * removed, and so are locks abandoned for a minute by a killed process on keys
 * nobody asked for since (a live holder refreshes its lock every second, see
 * file-lock.ts, so one this old is dead; the next caller on the key would have
 * taken it over after 2 s anyway). Temporary files of writes cut short by a
 * kill (file-driver.ts names them `<key file>.<random>.tmp`; never read as
 * keys) go once they are ten minutes old: a live write renames its file
 * within milliseconds.
 *
 * Removing a folder races with a write that has just made it: rmdir only
 * removes an empty one, and the write (file-driver.ts) and the lock
 * (file-lock.ts) make the folder again when it vanished under them.
 */
import { readdir, rm, rmdir, stat } from 'node:fs/promises';
import { join } from 'node:path';

const ABANDONED_LOCK_MS = 60_000;
const ABANDONED_TEMPORARY_MS = 10 * 60_000;

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
    const path = join(dir, entry.name);
    if (!entry.isDirectory()) {
      if (
        entry.name.endsWith('.tmp') &&
        (await isOlderThan(path, ABANDONED_TEMPORARY_MS)) &&
        (await rm(path, { force: true }).then(
          () => true,
          () => false,
        ))
      )
        left--;
      continue;
    }
    if (entry.name.endsWith('.lock')) {
      if (
        (await isOlderThan(path, ABANDONED_LOCK_MS)) &&
        (await rm(path, { recursive: true, force: true }).then(
          () => true,
          () => false,
        ))
      )
        left--;
    } else if (
      (await pruneFolders(base, path)) &&
      (await rmdir(path).then(
        () => true,
        () => false,
      ))
    )
      left--;
  }
  return dir !== base && left === 0;
}

async function isOlderThan(path: string, ms: number): Promise<boolean> {
  const info = await stat(path).catch(() => null);
  return info !== null && Date.now() - info.mtimeMs > ms;
}

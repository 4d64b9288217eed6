/**
 * The per-key lock of the folder store, by proper-lockfile: a directory
 * `<file>.lock` made with mkdir (atomic on one file system), so a step holding
 * it is atomic across every process sharing the folder.
 *
 * Staleness: the holder touches the lock's mtime every second while it holds
 * it; a lock whose mtime is more than 2 s old (proper-lockfile's shortest
 * `stale`) was left by a process that died holding it (kill -9, power loss)
 * and is taken over by the next caller. So a dead holder delays that key's
 * next operation by at most about 2 s, while a slow live step (a long fsync)
 * is never taken for a dead one.
 *
 * Waiting: proper-lockfile's own retries are not used. They would retry every
 * error (a read-only folder would take seconds to report), and they build and
 * sort an array of every wait on each call. Here a held lock is waited for in
 * 1–5 ms steps and any other error is thrown at once.
 */
import { mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import lockfile from 'proper-lockfile';

/** Milliseconds after its last refresh that a lock counts as abandoned (proper-lockfile's minimum). */
const STALE_LOCK_MS = 2000;

const OPTIONS = {
  // The key's file may not exist yet: lock the path as given.
  realpath: false,
  stale: STALE_LOCK_MS,
  retries: 0,
  // Another process took the lock as stale while this one still held it (an event loop stalled
  // over 2 s): the step is already under way; say so rather than throw from a timer.
  onCompromised: (error: Error) => console.error(`store: a lock was taken over while held (${error.message})`),
};

/** Runs `step` holding the lock of one key's file. */
export async function withLock<T>(path: string, step: () => Promise<T>): Promise<T> {
  let release: () => Promise<void>;
  for (;;) {
    try {
      release = await lockfile.lock(path, OPTIONS);
      break;
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOENT') await mkdir(dirname(path), { recursive: true });
      else if (code === 'ELOCKED') await sleep(1 + Math.random() * 4);
      else throw error;
    }
  }
  try {
    return await step();
  } finally {
    await release();
  }
}

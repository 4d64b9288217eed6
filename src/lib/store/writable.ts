/**
 * Whether the folder store can be written, and what a failure to write it
 * means: a folder that is read-only, not ours, on a read-only or full file
 * system, or under a file is the operator's to fix, not a bug and not the
 * client's fault. Such a failure becomes a StoreUnavailableError (a 503 naming
 * STORE_DIR, as an unreachable Redis is one naming REDIS_URL), never a 500.
 */
import { randomBytes } from 'node:crypto';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { StoreUnavailableError } from './unavailable.ts';

/** Errors that say the folder cannot be written here at all, whatever the key. */
const UNWRITABLE = new Set(['EACCES', 'EPERM', 'EROFS', 'ENOTDIR', 'ENOSPC', 'EDQUOT']);

export function isUnwritable(error: unknown): error is NodeJS.ErrnoException {
  return error instanceof Error && UNWRITABLE.has((error as NodeJS.ErrnoException).code ?? '');
}

/**
 * Creates the folder if it is absent, then writes, renames and deletes a
 * hidden probe file in it (hidden names are never keys): what every write of
 * the store does. The error that stopped it, or null when the folder is writable.
 */
export async function probeWritable(dir: string): Promise<NodeJS.ErrnoException | null> {
  const probe = join(dir, `.probe-${randomBytes(6).toString('hex')}`);
  try {
    await mkdir(dir, { recursive: true });
    await writeFile(probe, '', { mode: 0o600 });
    await rename(probe, `${probe}-renamed`);
    await rm(`${probe}-renamed`);
    return null;
  } catch (error) {
    await rm(probe, { force: true }).catch(() => {});
    if (isUnwritable(error)) return error;
    throw error;
  }
}

/** The operator's line: the setting, the path, the reason, what still works and who the process runs as. */
export function unwritableLine(dir: string, error: NodeJS.ErrnoException): string {
  const user = process.getuid ? ` (this process runs as uid ${process.getuid()})` : '';
  return (
    `store: STORE_DIR (${dir}) is not writable: ${error.message}. The WebSub hub and MCP 2025 sessions answer 503 ` +
    `until it is; static files, search, since and 2026-07-28 MCP work. Make the folder writable${user} or set STORE_DIR to one that is.`
  );
}

/** What a request that needs the store is told: the setting, never the path or the error (those are for the log). */
export function unwritableError(dir: string, error: NodeJS.ErrnoException): StoreUnavailableError {
  return new StoreUnavailableError(`The state store, the folder STORE_DIR (${dir}), is not writable (${error.code})`, {
    cause: error,
    publicMessage: 'The state store (the folder set by STORE_DIR) is not writable on this server. Try again later.',
  });
}

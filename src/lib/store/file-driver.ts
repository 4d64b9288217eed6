/**
 * An unstorage driver over a folder, one file per key, written atomically: the
 * bytes go to a temporary file that is flushed to disk and then renamed over
 * the old one, so a crash mid-write leaves the old value or the new one, never
 * a torn file. unstorage's own fs driver writes in place.
 */
import { mkdir, open, readdir, readFile, rename, rm, type FileHandle } from 'node:fs/promises';
import { dirname, join, relative, sep } from 'node:path';
import { randomBytes } from 'node:crypto';
import { defineDriver } from 'unstorage';

export interface FileDriverOptions {
  base: string;
}

/** Keys are `:`-separated; each segment becomes a path segment, made safe for any file system. */
export function keyToPath(base: string, key: string): string {
  const segments = key
    .split(':')
    .filter(Boolean)
    .map((s) => encodeURIComponent(s).replace(/^\.+/, (dots) => '%2E'.repeat(dots.length)));
  if (segments.length === 0) throw new Error('empty store key');
  return join(base, ...segments);
}

function pathToKey(base: string, path: string): string {
  return relative(base, path).split(sep).map(decodeURIComponent).join(':');
}

/** Creates the temporary file, and its folder when absent (first key there, or the sweep removed it as empty just now). */
async function openTemporary(path: string): Promise<FileHandle> {
  for (let attempt = 1; ; attempt++) {
    try {
      // Owner-only: the store holds subscriber secrets and the session signing key.
      return await open(path, 'w', 0o600);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT' || attempt === 3) throw error;
      await mkdir(dirname(path), { recursive: true });
    }
  }
}

async function writeFileAtomic(path: string, data: string): Promise<void> {
  const temporary = `${path}.${randomBytes(6).toString('hex')}.tmp`;
  const handle = await openTemporary(temporary);
  try {
    await handle.writeFile(data);
    await handle.sync();
  } finally {
    await handle.close();
  }
  try {
    await rename(temporary, path);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
  // The rename itself is durable only once the folder's entry is on disk.
  const folder = await open(dirname(path), 'r');
  try {
    await folder.sync();
  } finally {
    await folder.close();
  }
}

async function listFiles(dir: string): Promise<string[]> {
  let entries;
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  const out: string[] = [];
  for (const entry of entries) {
    if (entry.name.startsWith('.')) continue; // hidden files are not keys
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...(await listFiles(path)));
    // Temporary files and values kept aside as corrupt (file-store.ts) are not keys.
    else if (entry.isFile() && !entry.name.endsWith('.tmp') && !entry.name.includes('.corrupt-')) out.push(path);
  }
  return out;
}

export const atomicFileDriver = defineDriver((options: FileDriverOptions) => ({
  name: 'atomic-file',
  async hasItem(key) {
    return (await this.getItem(key, {})) !== null;
  },
  async getItem(key) {
    try {
      return await readFile(keyToPath(options.base, key), 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw error;
    }
  },
  async setItem(key, value) {
    await writeFileAtomic(keyToPath(options.base, key), value);
  },
  async removeItem(key) {
    await rm(keyToPath(options.base, key), { force: true });
  },
  async getKeys(base) {
    const root = base ? keyToPath(options.base, base) : options.base;
    return (await listFiles(root)).map((path) => pathToKey(options.base, path));
  },
}));

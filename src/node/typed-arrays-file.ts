/**
 * A structure's typed arrays handed from a child process to the server through
 * a file, the rest through the IPC channel (text-index-process.ts). Sent whole
 * over the channel (`serialization: 'advanced'`), 40 MB of typed arrays at 100k
 * reviews arrived as 64 KiB chunks, their concatenation, views into it and the
 * copies the index keeps: about three times the index in garbage, which
 * stayed in the server's RSS until V8 collected it (docs/performance.md). From
 * a file, each array is read once, into the array the index keeps.
 *
 * The file is made by the server and nameless (unlinked once open, where the
 * system allows): nothing is left on disk if either process dies.
 */
import { closeSync, mkdtempSync, openSync, readSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const TYPED_ARRAYS = { Int8Array, Uint8Array, Uint8ClampedArray, Int16Array, Uint16Array, Int32Array, Uint32Array, Float32Array, Float64Array, BigInt64Array, BigUint64Array };
type TypedArrayName = keyof typeof TYPED_ARRAYS;
type TypedArray = InstanceType<(typeof TYPED_ARRAYS)[TypedArrayName]>;

/** What stands for a typed array in the message: its type, where its bytes start in the file and its length. */
const IN_FILE = 'typedArrayInFile';
interface InFile {
  [IN_FILE]: [type: TypedArrayName, at: number, length: number];
}

/** A scratch file open for reading and writing, without a name where the system allows it. */
export interface ScratchFile {
  fd: number;
  close(): void;
}

/** A scratch file in the system's temporary folder, or undefined if none can be made there (a read-only system). */
export function openScratchFile(prefix: string): ScratchFile | undefined {
  let dir: string;
  try {
    dir = mkdtempSync(join(tmpdir(), prefix));
  } catch {
    return undefined;
  }
  const remove = () => rmSync(dir, { recursive: true, force: true });
  let fd: number;
  try {
    fd = openSync(join(dir, 'data'), 'w+', 0o600);
  } catch {
    remove();
    return undefined;
  }
  let removed = false;
  try {
    // POSIX: the open file outlives its name, and its space is freed when the last descriptor closes.
    remove();
    removed = true;
  } catch {
    // Windows: an open file cannot be removed; after it is closed, then.
  }
  return {
    fd,
    close() {
      closeSync(fd);
      if (!removed) remove();
    },
  };
}

/**
 * Writes every typed array in `value` (through plain objects, arrays and Map values) to the
 * file open as `fd`, one after the other from its start, and returns `value` with each
 * replaced by where it lies (restoreTypedArrays reads them back).
 */
export function writeTypedArrays<T>(value: T, fd: number): T {
  let at = 0;
  return mapTypedArrays(value, (array) => {
    const bytes = new Uint8Array(array.buffer, array.byteOffset, array.byteLength);
    for (let done = 0; done < bytes.length; ) done += writeSync(fd, bytes, done, bytes.length - done, at + done);
    const inFile: InFile = { [IN_FILE]: [array.constructor.name as TypedArrayName, at, array.length] };
    at += bytes.length;
    return inFile;
  });
}

/** `value` (from writeTypedArrays, through a message) with each typed array read from the file open as `fd`, in a buffer of its own. */
export function restoreTypedArrays<T>(value: T, fd: number): T {
  return mapTypedArrays(value, undefined, ([type, at, length]) => {
    const array = new TYPED_ARRAYS[type](length);
    const bytes = new Uint8Array(array.buffer);
    for (let done = 0; done < bytes.length; ) {
      const got = readSync(fd, bytes, done, bytes.length - done, at + done);
      if (got === 0) throw new Error('the typed arrays file is shorter than its message says');
      done += got;
    }
    return array;
  });
}

/**
 * `value` with each typed array in a buffer of its own: what the structured clone of a message
 * makes are views into the message's one buffer, which would stay whole while any of them lives.
 */
export function ownedTypedArrays<T>(value: T): T {
  return mapTypedArrays(value, (array) => array.slice());
}

/** A copy of the structure with its typed arrays (or, with `fromFile`, the markers of them) replaced. */
function mapTypedArrays<T>(value: T, typed?: (array: TypedArray) => unknown, fromFile?: (where: InFile[typeof IN_FILE]) => TypedArray): T {
  const map = (item: unknown): unknown => {
    if (ArrayBuffer.isView(item)) return typed && !(item instanceof DataView) ? typed(item as TypedArray) : item;
    if (Array.isArray(item)) return item.map(map);
    if (item instanceof Map) return new Map([...item].map(([key, entry]) => [key, map(entry)]));
    if (item === null || typeof item !== 'object') return item;
    if (fromFile && IN_FILE in item) return fromFile((item as InFile)[IN_FILE]);
    return Object.fromEntries(Object.entries(item).map(([key, entry]) => [key, map(entry)]));
  };
  return map(value) as T;
}

/**
 * The Node server's text index, built in a child process (text-index-worker.ts)
 * rather than in slices on the main thread: what the build leaves behind goes
 * back to the system when that process ends. Built on the main thread, it left
 * V8's heap committed far above what is live (issue 11: the server's RSS at
 * 100k reviews). A worker thread was tried first and measured worse: V8's heap
 * went with it, but the native memory it freed (the builders' typed arrays)
 * stayed in the server's RSS, in the malloc arena the thread had used, for
 * minutes (docs/performance.md). The child reads reviews.json through the
 * server's own descriptor, so the main thread never folds the texts unless a
 * text query comes before the index. The index's typed arrays come back
 * through a scratch file, read straight into the arrays the index keeps
 * (typed-arrays-file.ts); only the rest is in the IPC message.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { textIndexFromParts, type TextIndex, type TextIndexParts } from '../lib/reviews/text-index.ts';
import { openScratchFile, ownedTypedArrays, restoreTypedArrays } from './typed-arrays-file.ts';

// Beside this file (the server runs the sources: Node strips the types); Vite's module runner may add a query.
const workerFile = () => fileURLToPath(new URL('./text-index-worker.ts', import.meta.url.replace(/\?.*$/, '')));
/**
 * From how many reviews the index is built in a child. Below, its build is small
 * (about a second of CPU and tens of MB at 10k reviews) and a process start would
 * cost more than it saves: the server builds it in slices on its own thread.
 */
export const CHILD_FROM_REVIEWS = 50_000;
/** Where the child finds the dataset's descriptor: stdin, stdout, stderr, the IPC channel, then it. */
export const CHILD_DESCRIPTOR = 4;
/** Where the child writes the index's typed arrays, when the server could make a scratch file (else they come in the message). */
export const CHILD_ARRAYS_DESCRIPTOR = 5;
/** The child's argument saying that CHILD_ARRAYS_DESCRIPTOR is open. */
export const ARRAYS_IN_FILE = 'arrays-in-file';

/** The text index over the records of the dataset file open as `descriptor` (src/node/dataset-file.ts). */
export function textIndexInChild(descriptor: number, path: string): Promise<TextIndex> {
  return new Promise((resolveIndex, reject) => {
    // A system without a writable temporary folder: the arrays come in the message (copied out of its buffer).
    const scratch = openScratchFile('text-index-');
    // Not the server's debugger flags (a second inspector), nor its other flags: a plain Node.
    const nodeOptions = (process.env.NODE_OPTIONS ?? '').split(/\s+/).filter((flag) => flag && !flag.startsWith('--inspect'));
    let child: ChildProcess;
    try {
      child = fork(workerFile(), scratch ? [path, ARRAYS_IN_FILE] : [path], {
        execArgv: [],
        env: { ...process.env, NODE_OPTIONS: nodeOptions.join(' ') },
        serialization: 'advanced',
        stdio: ['ignore', 'inherit', 'inherit', 'ipc', descriptor, scratch?.fd ?? 'ignore'],
      });
    } catch (error) {
      scratch?.close();
      throw error;
    }
    let index: TextIndex | undefined;
    let settled = false;
    // Once, whichever comes first: the scratch file closed once, and never read after.
    const settle = (error?: Error) => {
      if (settled) return;
      settled = true;
      scratch?.close();
      if (index && !error) resolveIndex(index);
      else reject(error ?? new Error('the text index process stopped before sending the index'));
    };
    child.once('message', (parts: TextIndexParts) => {
      if (settled) return;
      try {
        index = textIndexFromParts(scratch ? restoreTypedArrays(parts, scratch.fd) : ownedTypedArrays(parts));
      } catch (error) {
        settle(error instanceof Error ? error : new Error(String(error)));
      }
    });
    // A process that could not start emits 'error' and no 'exit' or 'close'.
    child.once('error', (error) => {
      settle(error);
      child.kill();
    });
    // Resolved on 'close', not on the message: the child's memory is gone by then, and 'close' comes
    // after the IPC channel has closed, so no message can follow it ('exit' may come before one).
    child.once('close', (code, signal) => {
      settle(index ? undefined : new Error(`the text index process stopped (${signal ?? `exit code ${code}`}) before sending the index`));
    });
  });
}

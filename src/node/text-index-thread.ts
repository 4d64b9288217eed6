/**
 * The Node server's text index, built in a worker thread (text-index-worker.ts)
 * rather than in slices on the main thread: what the build leaves behind dies
 * with the worker's heap. Built on the main thread, it left V8's heap committed
 * far above what is live (issue 11: the server's RSS at 100k reviews), and V8
 * does not give that back. The worker reads reviews.json itself, so the main
 * thread never folds the texts unless a text query comes before the index.
 */
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { textIndexFromParts, type TextIndex, type TextIndexParts } from '../lib/reviews/text-index.ts';

// Beside this file (the server runs the sources: Node strips the types); Vite's module runner may add a query.
const workerFile = () => fileURLToPath(new URL('./text-index-worker.ts', import.meta.url.replace(/\?.*$/, '')));

/** The text index over the records of the dataset file open as `descriptor` (src/node/dataset-file.ts). */
export function textIndexInWorker(descriptor: number, path: string): Promise<TextIndex> {
  return new Promise((resolveIndex, reject) => {
    const worker = new Worker(workerFile(), { workerData: { descriptor, path } });
    let index: TextIndex | undefined;
    worker.once('message', (parts: TextIndexParts) => {
      try {
        index = textIndexFromParts(parts);
      } catch (error) {
        reject(error instanceof Error ? error : new Error(String(error)));
      }
    });
    worker.once('error', reject);
    // Resolved on exit, not on the message: the worker's memory is gone by then.
    worker.once('exit', (code) => {
      if (index) resolveIndex(index);
      else reject(new Error(`the text index thread stopped (exit code ${code}) before posting the index`));
    });
  });
}

/**
 * A worker thread of parallel-load.ts: reads and analyses the batches of review
 * files it is sent, with the business it was started with, and answers each
 * batch with its results in the batch's order.
 */
import { parentPort, workerData } from 'node:worker_threads';
import type { Business } from '../reviews/schema.ts';
import { createFileReader } from './parallel-load.ts';
import type { ReviewFile } from '../content/load.ts';

const read = createFileReader((workerData as { business: Business | null }).business);

parentPort!.on('message', ({ start, files }: { start: number; files: ReviewFile[] }) => {
  parentPort!.postMessage({ start, results: read(files) });
});

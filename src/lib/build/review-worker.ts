/**
 * A worker thread of parallel-load.ts: reads and analyses the review files it
 * was started with, with the business, and answers once with their results in
 * the files' order.
 */
import { parentPort, workerData } from 'node:worker_threads';
import type { ReviewFile } from '../content/load.ts';
import type { Business } from '../reviews/schema.ts';
import { createFileReader } from './parallel-load.ts';

const { business, files } = workerData as { business: Business | null; files: ReviewFile[] };
parentPort!.postMessage(createFileReader(business)(files));

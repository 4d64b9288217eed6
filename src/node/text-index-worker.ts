/**
 * The worker thread of text-index-thread.ts: reads the records of reviews.json
 * through the descriptor the server opened (the same file it loaded, even if
 * replaced since), folds their texts, builds the text index's parts and posts
 * them, moving the large buffers. Then it ends, and the builder's garbage (the
 * folded texts, the growing postings: hundreds of MB at 100k reviews) goes
 * with its heap instead of staying committed in the server's.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { foldedTexts } from '../lib/reviews/index.ts';
import { recordsFromSource } from '../lib/reviews/records.ts';
import { buildTextIndexParts, partsBuffers } from '../lib/reviews/text-index.ts';
import { descriptorSource } from './dataset-file.ts';

const { descriptor, path } = workerData as { descriptor: number; path: string };
const parts = buildTextIndexParts(foldedTexts(recordsFromSource(descriptorSource(descriptor, path))));
parentPort!.postMessage(parts, partsBuffers(parts));

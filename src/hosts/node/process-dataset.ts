/**
 * Where the Node entry registers the dataset it holds (compact records read
 * from reviews.json, src/node/dataset-file.ts) for Astro's on-demand pages in
 * the same process, which were bundled separately: one module instance cannot
 * be shared across the two bundles, a global symbol can. Without it a review
 * page would load the whole content collection a second time: hundreds of MB
 * and seconds before the first page at 100k reviews.
 * On a serverless host and at build time nothing is registered: the pages read
 * the content collections.
 */
import type { DatasetSource } from '../../lib/reviews/review-index.ts';

const REGISTRY = Symbol.for('roofing-reviews.dataset');

export function registerProcessDataset(dataset: DatasetSource): void {
  (globalThis as Record<symbol, unknown>)[REGISTRY] = dataset;
}

export function processDataset(): DatasetSource | undefined {
  return (globalThis as Record<symbol, unknown>)[REGISTRY] as DatasetSource | undefined;
}

/**
 * The dataset as Astro code sees it, built from the content collections once per
 * process (at build time for the static files and pages, at request time in the
 * on-demand routes of a serverless host). In `astro dev` it is built again after
 * each content change, and a content mistake is thrown so the dev overlay shows it.
 */
import { getCollection, getEntry } from 'astro:content';
import { contentProblemInDev } from '../lib/content/live-content.ts';
import { unpackReviews } from '../lib/content/stored-reviews.ts';
import { processDataset } from '../lib/platform/process-dataset.ts';
import { buildDataset } from '../lib/reviews/dataset.ts';
import type { DatasetSource } from '../lib/reviews/index.ts';
import type { ReviewsDataset } from '../lib/reviews/schema.ts';

let cached: Promise<ReviewsDataset> | undefined;

// Astro's dev server announces a content change to the server-side modules.
import.meta.hot?.on('astro:content-changed', () => (cached = undefined));

export function getDataset(): Promise<ReviewsDataset> {
  throwContentProblem();
  cached ??= (async () => {
    const [entries, business] = await Promise.all([getCollection('reviews'), getEntry('business', 'business')]);
    if (!business) throw new Error('the business collection is empty: content/business.yaml was not loaded');
    return buildDataset(business.data, unpackReviews(entries));
  })();
  return cached;
}

/**
 * The dataset for on-demand pages and routes: inside the Node server, the records
 * it already holds (src/lib/platform/process-dataset.ts); elsewhere getDataset().
 */
export async function getDatasetSource(): Promise<DatasetSource> {
  return processDataset() ?? getDataset();
}

/** In `astro dev`, the editor's current content mistake, thrown so the page shows it. */
export function throwContentProblem(): void {
  const problem = contentProblemInDev();
  if (problem) throw problem;
}

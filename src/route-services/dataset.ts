/**
 * The dataset as Astro code sees it, built from the content collections once per
 * process (at build time for the static files and pages, at request time in the
 * on-demand routes of a serverless host). In `astro dev` it is the content
 * loader's last good read (live-content.ts), and a content mistake is thrown so
 * the dev overlay shows it.
 */
import { getCollection, getEntry } from 'astro:content';
import { contentInDev, contentProblemInDev } from '../lib/content/live-content.ts';
import { reviewsJsonParts, unpackReviews } from '../lib/content/stored-reviews.ts';
import { textBytes } from '../lib/http/answer.ts';
import { toJsonBody } from '../lib/http/json.ts';
import { processDataset } from '../hosts/node/process-dataset.ts';
import { buildDataset, datasetBytes } from '../lib/reviews/published-dataset.ts';
import type { DatasetSource } from '../lib/reviews/review-index.ts';
import type { ReviewsDataset } from '../lib/reviews/schema.ts';

let cached: Promise<ReviewsDataset> | undefined;
/** The store entries a dataset was read from, when they hold its reviews in its order. */
const storedIn = new WeakMap<ReviewsDataset, Parameters<typeof reviewsJsonParts>[0]>();

export function getDataset(): Promise<ReviewsDataset> {
  throwContentProblem();
  const preview = contentInDev<{ dataset: ReviewsDataset }>();
  if (preview) return Promise.resolve(preview.dataset);
  cached ??= (async () => {
    const [entries, business] = await Promise.all([getCollection('reviews'), getEntry('business', 'business')]);
    if (!business) throw new Error('the business collection is empty: content/business.yaml was not loaded');
    const reviews = unpackReviews(entries);
    const dataset = buildDataset(business.data, reviews);
    // Stored in the dataset's order (the content config packs them so): then its reviews array's JSON is the entries'.
    if (dataset.reviews.every((review, i) => review === reviews[i])) storedIn.set(dataset, entries);
    return dataset;
  })();
  return cached;
}

/**
 * reviews.json's bytes: `toJsonBody(dataset)` encoded, with the reviews array joined from the
 * stored JSON when the store holds it in the dataset's order (at 100k reviews, serialising and
 * encoding its 56 MB again cost the prerender ~1.5 s of CPU).
 */
export async function datasetJsonBody(): Promise<Uint8Array> {
  const dataset = await getDataset();
  const entries = storedIn.get(dataset);
  return entries ? datasetBytes(dataset, reviewsJsonParts(entries)) : textBytes(toJsonBody(dataset));
}

/**
 * The dataset for on-demand pages and routes: inside the Node server, the records
 * it already holds (src/hosts/node/process-dataset.ts); elsewhere getDataset().
 */
export async function getDatasetSource(): Promise<DatasetSource> {
  return processDataset() ?? getDataset();
}

/** In `astro dev`, the editor's current content mistake, thrown so the page shows it. */
export function throwContentProblem(): void {
  const problem = contentProblemInDev();
  if (problem) throw problem;
}

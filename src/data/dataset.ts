/**
 * The dataset as Astro code sees it, built from the content collections once per
 * process (at build time for the static files and pages, at request time in the
 * on-demand routes of a serverless host).
 */
import { getCollection, getEntry } from 'astro:content';
import { buildDataset } from '../lib/reviews/dataset.ts';
import type { ReviewsDataset } from '../lib/reviews/schema.ts';

let cached: Promise<ReviewsDataset> | undefined;

export function getDataset(): Promise<ReviewsDataset> {
  cached ??= (async () => {
    const [entries, business] = await Promise.all([getCollection('reviews'), getEntry('business', 'business')]);
    if (!business) throw new Error('the business collection is empty: content/business.yaml was not loaded');
    return buildDataset(business.data, entries.map((entry) => entry.data));
  })();
  return cached;
}

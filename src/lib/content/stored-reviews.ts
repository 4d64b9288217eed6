/**
 * How the published reviews sit in Astro's data store: as JSON text, a few
 * thousand reviews per store entry, instead of one entry per review.
 *
 * Astro serialises its store with devalue, which walks every object and value
 * of every entry (and, per entry, looks for image imports in the data); the
 * build then bundles the store as one module and the prerender and the
 * serverless functions parse it back and make an entry object per review. At
 * 100k reviews that was tens of seconds of a build, growing faster than the
 * reviews. One string per few thousand reviews is a single value to devalue,
 * and JSON.parse reads it back faster than anything else.
 *
 * Nothing reads a single review from the store (src/data/dataset.ts reads them
 * all), and the records are already validated by the loader, so nothing else
 * changes: the same reviews come back, in the same order.
 */
import { z } from 'zod';
import type { Review } from '../reviews/schema.ts';

/** Reviews per store entry: large enough that entries stay few, small enough that no string nears V8's limit (~512 MB). */
export const REVIEWS_PER_ENTRY = 5000;

/** One store entry's data. */
export const storedReviews = z.object({ json: z.string() });
export type StoredReviews = z.infer<typeof storedReviews>;

/** The store entries for these reviews, in order; ids sort in the same order. */
export function packReviews(reviews: readonly Review[]): Array<{ id: string; data: StoredReviews }> {
  const entries: Array<{ id: string; data: StoredReviews }> = [];
  for (let start = 0; start < reviews.length; start += REVIEWS_PER_ENTRY) {
    const id = String(start / REVIEWS_PER_ENTRY).padStart(6, '0');
    entries.push({ id, data: { json: JSON.stringify(reviews.slice(start, start + REVIEWS_PER_ENTRY)) } });
  }
  return entries;
}

/** The reviews of the store entries (any order: they are put back by id). */
export function unpackReviews(entries: ReadonlyArray<{ id: string; data: StoredReviews }>): Review[] {
  return [...entries].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)).flatMap((entry) => JSON.parse(entry.data.json) as Review[]);
}

/**
 * How the published reviews sit in Astro's data store: as deflated JSON text
 * (base64), a few thousand reviews per store entry, instead of one entry per
 * review.
 *
 * Astro serialises its store with devalue, which walks every object and value
 * of every entry (and, per entry, looks for image imports in the data); the
 * build then turns the whole store into one JavaScript module (a string
 * literal of it) that Vite bundles for the prerender and for the server, and
 * that the prerender and the on-demand routes parse back into an entry object
 * per review. At 100k reviews that module was 60 MB and these steps took
 * minutes of CPU, growing faster than the reviews. Deflated, the reviews are a
 * few strings of about a fifth of the size, with nothing to escape; inflating
 * and parsing them back costs well under a second at 100k.
 *
 * Nothing reads a single review from the store (src/data/dataset.ts reads them
 * all), and the records are validated by the loader before they are stored, so
 * nothing else changes: the same reviews come back, in the same order.
 */
import { deflateRawSync, inflateRawSync } from 'node:zlib';
import { z } from 'zod';
import type { Review } from '../reviews/schema.ts';

/** Reviews per store entry: large enough that entries stay few, small enough that no string nears V8's limit (~512 MB). */
export const REVIEWS_PER_ENTRY = 5000;

/** One store entry's data: the JSON of its reviews, deflated (raw), in base64. */
export const storedReviews = z.object({ deflatedJson: z.string() });
export type StoredReviews = z.infer<typeof storedReviews>;

/** The store entries for these reviews, in order; ids sort in the same order. */
export function packReviews(reviews: readonly Review[]): Array<{ id: string; data: StoredReviews }> {
  const entries: Array<{ id: string; data: StoredReviews }> = [];
  for (let start = 0; start < reviews.length; start += REVIEWS_PER_ENTRY) {
    const id = String(start / REVIEWS_PER_ENTRY).padStart(6, '0');
    const json = JSON.stringify(reviews.slice(start, start + REVIEWS_PER_ENTRY));
    entries.push({ id, data: { deflatedJson: deflateRawSync(json).toString('base64') } });
  }
  return entries;
}

/** The reviews of the store entries (any order: they are put back by id). */
export function unpackReviews(entries: ReadonlyArray<{ id: string; data: StoredReviews }>): Review[] {
  return [...entries].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)).flatMap((entry) => JSON.parse(inflateRawSync(Buffer.from(entry.data.deflatedJson, 'base64')).toString('utf8')) as Review[]);
}

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
 * per review. One entry per review makes that module 60 MB at 100k reviews
 * and these steps minutes of CPU, growing faster than the reviews. Deflated, the reviews are a
 * few strings of about a fifth of the size, with nothing to escape; inflating
 * and parsing them back costs well under a second at 100k.
 *
 * Nothing reads a single review from the store (src/route-services/dataset.ts reads them
 * all), and the records are validated by the loader before they are stored, so
 * nothing else changes: the same reviews come back, in the same order.
 *
 * The content config stores them in the dataset's order (newest first), so the
 * entries' JSON, joined, is the `reviews` array of reviews.json as it is
 * written: the prerender writes that file from these bytes (reviewsJsonBody)
 * instead of serialising and encoding 56 MB again at 100k reviews.
 */
import { promisify } from 'node:util';
import { deflateRaw, inflateRawSync } from 'node:zlib';
import { z } from 'zod';
import type { Review } from '../reviews/schema.ts';

/** Reviews per store entry: large enough that entries stay few, small enough that no string nears V8's limit (~512 MB). */
export const REVIEWS_PER_ENTRY = 5000;

/** One store entry's data: the JSON of its reviews, deflated (raw), in base64. */
export const storedReviews = z.object({ deflatedJson: z.string() });
type StoredReviews = z.infer<typeof storedReviews>;
type Entry = { id: string; data: StoredReviews };

const deflateRawAsync = promisify(deflateRaw);
// Output taken 1 MB at a time, not zlib's 16 KB: fewer trips between the pool and this thread
// (at 100k reviews 15% less CPU). The bytes do not depend on it.
const DEFLATE_OPTIONS = { chunkSize: 1 << 20 };

/**
 * The store entries for these reviews, in order; ids sort in the same order. The JSON is made
 * here, the deflating (two thirds of the time) on libuv's thread pool: the build analyses the
 * insights on the main thread meanwhile, on one core, and the other core would be idle (1.25 s
 * at 100k reviews, all of it on the main thread). The bytes are deflateRawSync's.
 */
export async function packReviews(reviews: readonly Review[]): Promise<Entry[]> {
  const packing: Array<Promise<Entry>> = [];
  for (let start = 0; start < reviews.length; start += REVIEWS_PER_ENTRY) {
    const id = String(start / REVIEWS_PER_ENTRY).padStart(6, '0');
    const json = JSON.stringify(reviews.slice(start, start + REVIEWS_PER_ENTRY));
    packing.push(deflateRawAsync(json, DEFLATE_OPTIONS).then((deflated) => ({ id, data: { deflatedJson: deflated.toString('base64') } })));
  }
  return Promise.all(packing);
}

const byId = (entries: readonly Entry[]) => [...entries].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
const inflate = (entry: Entry) => inflateRawSync(Buffer.from(entry.data.deflatedJson, 'base64'));

/** The reviews of the store entries (any order: they are put back by id). */
export function unpackReviews(entries: readonly Entry[]): Review[] {
  return byId(entries).flatMap((entry) => JSON.parse(inflate(entry).toString('utf8')) as Review[]);
}

/**
 * The JSON of the entries' reviews as one array, in UTF-8, in pieces: joined, the bytes of
 * `JSON.stringify(unpackReviews(entries))`, made from the stored JSON (each entry is one
 * array) without parsing or serialising anything. Pieces, so that whoever writes them
 * copies 56 MB (at 100k reviews) once.
 */
export function reviewsJsonParts(entries: readonly Entry[]): Buffer[] {
  const parts: Buffer[] = [Buffer.from('[')];
  for (const entry of byId(entries)) {
    const array = inflate(entry);
    // An entry's array is never empty (packReviews makes none), but "[]" would add nothing.
    if (array.length <= 2) continue;
    if (parts.length > 1) parts.push(COMMA);
    parts.push(array.subarray(1, array.length - 1));
  }
  parts.push(Buffer.from(']'));
  return parts;
}

const COMMA = Buffer.from(',');

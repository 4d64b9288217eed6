/**
 * The build's serial parts made cheaper without changing a byte: reviews.json
 * joined from the stored JSON, the store's deflating on the thread pool, and
 * the manifest taking variants compressed during the prerender.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { deflateRawSync } from 'node:zlib';
import { after, describe, it } from 'node:test';
import { loadContent } from '../../src/lib/content/load.ts';
import {
  packReviews,
  REVIEWS_PER_ENTRY,
  reviewsJsonParts,
  unpackReviews,
} from '../../src/lib/content/stored-reviews.ts';
import { toJsonBody } from '../../src/lib/http/json.ts';
import { buildDataset, datasetBytes } from '../../src/lib/reviews/published-dataset.ts';
import { brotli, gzip } from '../../src/lib/static/compress.ts';
import { acceptEarlyCompressions, compressEarly, writeStaticManifest } from '../../src/lib/static/manifest.ts';

const { business, reviews: small } = loadContent(resolve(import.meta.dirname, '../fixtures/content-small'));
// More than one store entry's worth: copies of the fixture's reviews under new ids.
const reviews = Array.from({ length: REVIEWS_PER_ENTRY + 7 }, (_, i) => ({
  ...small[i % small.length]!,
  id: `copy-${String(i).padStart(5, '0')}`,
}));
const dataset = buildDataset(business, reviews);

describe('stored reviews and reviews.json', () => {
  it('packs in order, with the bytes deflateRawSync makes, and unpacks the same reviews', async () => {
    const entries = await packReviews(dataset.reviews);
    assert.equal(entries.length, 2);
    entries.forEach((entry, i) => {
      const json = JSON.stringify(dataset.reviews.slice(i * REVIEWS_PER_ENTRY, (i + 1) * REVIEWS_PER_ENTRY));
      assert.equal(entry.data.deflatedJson, deflateRawSync(json).toString('base64'));
    });
    assert.deepEqual(unpackReviews([...entries].reverse()), dataset.reviews);
  });

  it("joins the entries' JSON into reviews.json's bytes, as toJsonBody makes them", async () => {
    const entries = await packReviews(dataset.reviews);
    assert.ok(Buffer.concat(reviewsJsonParts(entries)).equals(Buffer.from(JSON.stringify(dataset.reviews))));
    assert.ok(datasetBytes(dataset, reviewsJsonParts(entries)).equals(Buffer.from(toJsonBody(dataset))));
    const empty = buildDataset(business, []);
    assert.ok(datasetBytes(empty, reviewsJsonParts(await packReviews([]))).equals(Buffer.from(toJsonBody(empty))));
  });
});

describe('variants compressed during the prerender', () => {
  const dir = mkdtempSync(join(tmpdir(), 'build-tail-'));
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('are taken for a file of the same bytes, and equal what the manifest would make', async () => {
    const body = Buffer.from(toJsonBody(dataset));
    const other = Buffer.from(`${JSON.stringify({ reviews: dataset.reviews.slice(0, 500) })}\n`);
    writeFileSync(join(dir, 'reviews.json'), body);
    mkdirSync(join(dir, 'sitemaps'));
    writeFileSync(join(dir, 'sitemaps', '1.xml'), other);
    acceptEarlyCompressions();
    compressEarly('/reviews.json', body);
    // Handed over, then written differently: compressed again from the file.
    compressEarly('/sitemaps/1.xml', Buffer.concat([other, Buffer.from(' ')]));
    const compressedEarly: string[] = [];
    await writeStaticManifest(dir, { compressedEarly });
    assert.deepEqual(compressedEarly, ['/reviews.json']);
    for (const [file, bytes] of [
      ['reviews.json', body],
      ['sitemaps/1.xml', other],
    ] as const) {
      assert.ok(readFileSync(join(dir, `${file}.br`)).equals(brotli(`/${file}`, bytes)), file);
      assert.ok(readFileSync(join(dir, `${file}.gz`)).equals(gzip(bytes)), file);
    }
  });

  it('are not made unless a build accepts them', async () => {
    const compressedEarly: string[] = [];
    compressEarly('/reviews.json', readFileSync(join(dir, 'reviews.json')));
    await writeStaticManifest(dir, { compressedEarly });
    assert.deepEqual(compressedEarly, []);
  });
});

/**
 * The compact records the server holds instead of review objects
 * (src/lib/reviews/records.ts, src/node/dataset-file.ts): each record's bytes
 * are exactly what `JSON.stringify(review)` gives, read from reviews.json in
 * memory or on disk by offset, and the columns and postings agree with the
 * records. In process, over the sample content's reviews.json: seconds.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, it } from 'node:test';
import { recordsFromDataset, recordsFromBytes, dayNumber } from '../../src/lib/reviews/records.ts';
import { findReview, getReviewIndex } from '../../src/lib/reviews/review-index.ts';
import { searchRecords } from '../../src/lib/reviews/search.ts';
import type { ReviewsDataset } from '../../src/lib/reviews/schema.ts';
import { openDatasetFile } from '../../src/node/dataset-file.ts';
import { BUILDS } from '../helpers/builds.ts';

const file = resolve(BUILDS.content.outDir, 'client/reviews.json');
const bytes = readFileSync(file);
const dataset = JSON.parse(bytes.toString('utf8')) as ReviewsDataset;
const decode = (part: Uint8Array) => Buffer.from(part).toString('utf8');

describe('compact records', () => {
  for (const [name, make] of [
    ['reviews.json in memory', () => recordsFromBytes(bytes)],
    ['reviews.json on disk, read by offset', () => openDatasetFile(file).records],
    ['a dataset object, serialised once', () => recordsFromDataset(dataset)],
  ] as const) {
    it(`${name}: each record's bytes are JSON.stringify(review), and the columns agree`, () => {
      const records = make();
      assert.equal(records.length, dataset.reviews.length);
      assert.deepEqual(records.business, dataset.business);
      assert.deepEqual(records.aggregate_rating, dataset.aggregate_rating);
      assert.equal(records.updated, dataset.updated);
      dataset.reviews.forEach((review, p) => {
        assert.equal(decode(records.json(p)), JSON.stringify(review), review.id);
        assert.deepEqual(records.review(p), review);
        assert.equal(records.dates[p], dayNumber(review.date));
        assert.equal(records.ratings[p], review.rating);
        assert.equal(records.updates[p], review.updated);
      });
      // Runs of positions in both directions, scattered ones, and none.
      const positions = [5, 6, 7, 3, 2, 1, 40, 0, records.length - 1];
      const joined = (list: number[]) => {
        // Written into a larger buffer at an offset, the bytes around it untouched.
        const out = new Uint8Array(records.joinedLength(list) + 3).fill(0x7e);
        records.copyJoined(list, out, 1);
        assert.deepEqual([out[0], out[out.length - 2], out[out.length - 1]], [0x7e, 0x7e, 0x7e]);
        return decode(out.subarray(1, out.length - 2));
      };
      const expected = (list: number[]) => JSON.stringify(list.map((p) => dataset.reviews[p])).slice(1, -1);
      assert.equal(joined(positions), expected(positions));
      // Close together (one span, in any order) and far apart (runs read straight into the answer).
      const near = [4, 5, 6, 2, 3, 0, 1];
      const far = [0, 1, 2, records.length - 3, records.length - 2, records.length - 1, 9];
      assert.equal(joined(near), expected(near));
      assert.equal(joined(far), expected(far));
      assert.equal(joined([]), '');
      assert.equal(records.datasetJson(), JSON.stringify(dataset));
    });
  }

  it('finds every review by id through the id table, and no other id', () => {
    const records = openDatasetFile(file).records;
    const index = getReviewIndex(records);
    dataset.reviews.forEach((review, p) => {
      assert.equal(index.byId(review.id), p);
      assert.deepEqual(findReview(records, review.id), review);
    });
    assert.equal(index.byId('no-such-review'), undefined);
    assert.equal(findReview(records, ''), undefined);
  });

  it('the posting lists agree with the records; a name listed twice in a review is one match', () => {
    const twice = structuredClone(dataset);
    const first = twice.reviews[0]!;
    const name = twice.business.technicians[0]!.name;
    first.technicians = [name, name];
    const service = twice.business.services[0]!.id;
    first.services = [service, service];
    const naming = twice.reviews.filter((review) => review.technicians.includes(name));
    const answer = searchRecords(getReviewIndex(twice), { mentions_technician: name, limit: 100 });
    assert.equal(answer.total, naming.length);
    assert.deepEqual(
      answer.reviews.map((review) => review.id),
      naming.slice(0, 100).map((review) => review.id),
    );
    const ofService = twice.reviews.filter((review) => review.services.includes(service));
    assert.equal(searchRecords(getReviewIndex(twice), { mentions_service: service, limit: 1 }).total, ofService.length);
  });

  it('refuses a reviews array that is not compact JSON (offsets hold starts only)', () => {
    assert.throws(() => recordsFromBytes(Buffer.from(JSON.stringify(dataset, null, 1))), /compact JSON/);
  });

  it('records far apart in the file: each run read straight into the answer, joined by commas', () => {
    // 300 records of ~2 KB: positions at both ends lie much further apart than they weigh.
    const big: ReviewsDataset = structuredClone(dataset);
    const model = dataset.reviews[0]!;
    big.reviews = Array.from({ length: 300 }, (_, i) => ({
      ...model,
      id: `r${String(i).padStart(3, '0')}`,
      text: `${'roof '.repeat(400)}${i}`,
    }));
    const dir = mkdtempSync(join(tmpdir(), 'records-far-'));
    try {
      const path = join(dir, 'reviews.json');
      writeFileSync(path, JSON.stringify(big));
      const positions = [0, 1, 2, 299, 150, 151, 3];
      const expected = JSON.stringify(positions.map((p) => big.reviews[p])).slice(1, -1);
      for (const records of [openDatasetFile(path).records, recordsFromDataset(big)]) {
        const out = new Uint8Array(records.joinedLength(positions));
        records.copyJoined(positions, out, 0);
        assert.equal(decode(out), expected);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

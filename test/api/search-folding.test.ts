/**
 * `query` over made-up reviews full of what Unicode folding and substring
 * matching have to get exactly right: punctuation runs, non-ASCII letters and
 * marks, compatibility characters NFKC changes (ﬁ, full-width letters), case
 * folds that change length (İ), surrogate pairs, words that are prefixes and
 * suffixes of others, reviews with no word at all, titles and untitled reviews.
 * For every needle (cut from the texts at random, or made from their parts)
 * the search answers exactly the reviews whose folded `title + "\n" + text`
 * (text alone when untitled) contains the folded needle, in newest-first order,
 * alone and with the other filters; over a dataset object (the Astro routes)
 * and over a reviews.json on disk read by offset (the Node server).
 */
import assert from 'node:assert/strict';
import { closeSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, it } from 'node:test';
import fc from 'fast-check';
import { getReviewIndex } from '../../src/lib/reviews/review-index.ts';
import type { SearchQuery } from '../../src/lib/reviews/query.ts';
import type { Review, ReviewsDataset } from '../../src/lib/reviews/schema.ts';
import { searchPositions } from '../../src/lib/reviews/search.ts';
import { openDatasetFile } from '../../src/node/dataset-file.ts';

const WORDS = [
  'Roof',
  'roofer',
  'reroof',
  'the',
  'then',
  'bathe',
  'a',
  'é',
  'Été',
  'ﬁx',
  'straße',
  'STRASSE',
  'naïve',
  'İstanbul',
  '🏠',
  'x1',
  '42',
  'e\u0301',
  'ＲＯＯＦ',
  'leak',
  'leaks',
];
const GAPS = [' ', ', ', '. ', '.', '\n', '\n\n', ' — ', '-', '—', '; ', '!', '...', "'", ' "', '", ', '  '];

const fold = (s: string) => s.normalize('NFKC').toLowerCase();

const sentence = fc
  .array(fc.tuple(fc.constantFrom(...WORDS), fc.constantFrom(...GAPS)), { minLength: 0, maxLength: 12 })
  .chain((pairs) => fc.tuple(fc.constantFrom('', ...GAPS), fc.constant(pairs)))
  .map(([lead, pairs]) => lead + pairs.map(([word, gap]) => word + gap).join(''));
const review = fc.record({
  title: fc.oneof(fc.constant(''), sentence),
  text: sentence,
  rating: fc.integer({ min: 1, max: 5 }),
  day: fc.integer({ min: 1, max: 28 }),
});

function datasetOf(parts: Array<{ title: string; text: string; rating: number; day: number }>): ReviewsDataset {
  const reviews = parts
    .map(({ title, text, rating, day }, i): Review => {
      const date = `2026-01-${String(day).padStart(2, '0')}`;
      return {
        id: `r${String(i).padStart(3, '0')}`,
        date,
        updated: `${date}T00:00:00Z`,
        rating,
        ...(title ? { title } : {}),
        author: 'A. B.',
        text,
        technicians: [],
        services: [],
        source: 'google',
        verified: true,
        verification: { method: 'job', checked: '2024-01-01' },
      } as unknown as Review;
    })
    .sort((a, b) => (a.date !== b.date ? (a.date < b.date ? 1 : -1) : a.id < b.id ? -1 : 1));
  return {
    updated: '2026-02-01T00:00:00Z',
    business: { technicians: [], services: [] },
    aggregate_rating: {},
    reviews,
  } as unknown as ReviewsDataset;
}

/** The contract read literally: newest-first positions whose folded text contains the folded needle. */
function expected(dataset: ReviewsDataset, query: SearchQuery): { total: number; positions: number[] } {
  const needle = fold(query.query!);
  const positions: number[] = [];
  dataset.reviews.forEach((r, position) => {
    if (query.min_rating !== undefined && r.rating < query.min_rating) return;
    if (query.since !== undefined && r.date < query.since) return;
    if (fold(r.title ? `${r.title}\n${r.text}` : r.text).includes(needle)) positions.push(position);
  });
  return { total: positions.length, positions: positions.slice(0, query.limit) };
}

const needleFrom = (dataset: ReviewsDataset) =>
  fc.oneof(
    // A cut anywhere, 1 to 30 code units, in the text's own case: parts of words, across gaps, halves of surrogate pairs.
    fc
      .tuple(fc.nat({ max: dataset.reviews.length - 1 }), fc.nat(), fc.integer({ min: 1, max: 30 }))
      .map(([i, start, length]) => {
        const haystack = `${dataset.reviews[i]!.title ?? ''}\n${dataset.reviews[i]!.text}`;
        const from = start % haystack.length;
        return haystack.slice(from, from + length);
      }),
    // Words and gaps in an order the texts may not have, in any case.
    fc
      .array(fc.constantFrom(...WORDS, ...GAPS, 'oo', 'he', 'af', 'ee', 'ss', 'FI', 'ß'), {
        minLength: 1,
        maxLength: 5,
      })
      .map((parts) => parts.join('')),
  );

const cases = fc.array(review, { minLength: 1, maxLength: 40 }).chain((parts) => {
  const dataset = datasetOf(parts);
  const query = fc.record(
    {
      query: needleFrom(dataset).filter((needle) => needle !== ''),
      limit: fc.integer({ min: 1, max: 10 }),
      min_rating: fc.integer({ min: 1, max: 5 }),
      since: fc.integer({ min: 1, max: 28 }).map((d) => `2026-01-${String(d).padStart(2, '0')}`),
    },
    { requiredKeys: ['query', 'limit'] },
  );
  return fc.tuple(fc.constant(dataset), fc.array(query, { minLength: 1, maxLength: 20 }));
});

it('query over awkward Unicode and punctuation: exactly the reviews whose folded text contains the folded needle', () => {
  fc.assert(
    fc.property(cases, ([dataset, queries]) => {
      const index = getReviewIndex(dataset);
      for (const query of queries) {
        const { total, positions } = searchPositions(index, query as SearchQuery);
        assert.deepEqual({ total, positions }, expected(dataset, query as SearchQuery), JSON.stringify(query));
      }
    }),
    { numRuns: 300, seed: 2026 },
  );
});

const dir = mkdtempSync(join(tmpdir(), 'search-folding-'));
after(() => rmSync(dir, { recursive: true, force: true }));

it('the same answers over a reviews.json on disk, read by offset as the Node server reads it', () => {
  fc.assert(
    fc.property(cases, ([dataset, queries]) => {
      const path = join(dir, 'reviews.json');
      writeFileSync(path, `${JSON.stringify(dataset)}\n`);
      const file = openDatasetFile(path);
      try {
        const index = getReviewIndex(file.records);
        for (const query of queries) {
          const { total, positions } = searchPositions(index, query as SearchQuery);
          assert.deepEqual({ total, positions }, expected(dataset, query as SearchQuery), JSON.stringify(query));
        }
      } finally {
        closeSync(file.descriptor);
      }
    }),
    { numRuns: 50, seed: 2027 },
  );
});

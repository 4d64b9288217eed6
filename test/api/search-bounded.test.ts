/**
 * A search with a text and a rating filter costs n / 32 word operations, not
 * one test per match: once the rating bitsets exist, it reads no review's
 * rating. (It used to read the rating of every review containing the text, and
 * a 1-character `query` is in nearly every review: 1.8 ms at 100k.) Over a
 * stand-in index, every review matching the text, whose ratings count reads.
 */
import assert from 'node:assert/strict';
import { it } from 'node:test';
import type { ReviewIndex } from '../../src/lib/reviews/index.ts';
import type { SearchQuery } from '../../src/lib/reviews/query.ts';
import { searchPositions } from '../../src/lib/reviews/search.ts';

it('query with rating or min_rating: no rating read per match, the same answer', () => {
  const n = 10_000;
  const stars = Uint8Array.from({ length: n }, (_, position) => 1 + (position % 5));
  let reads = 0;
  const ratings = new Proxy(stars, {
    get(target, key) {
      if (typeof key === 'string' && /^\d+$/.test(key)) reads += 1;
      const value = Reflect.get(target, key, target) as unknown;
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  const everyReview = new Uint32Array(Math.ceil(n / 32)).fill(0xffffffff);
  const index = { length: n, records: { ratings }, text: () => ({ bytes: 0, match: () => everyReview.slice() }) } as unknown as ReviewIndex;

  const cases: Array<[Partial<SearchQuery>, (stars: number) => boolean]> = [
    [{ min_rating: 2 }, (s) => s >= 2],
    [{ min_rating: 3.5 }, (s) => s >= 3.5],
    [{ rating: 5 }, (s) => s === 5],
    [{ rating: 4, min_rating: 4 }, (s) => s === 4],
  ];
  searchPositions(index, { query: 'e', min_rating: 1, limit: 1 } as SearchQuery); // makes the bitsets: n reads, once
  for (const [filters, keeps] of cases) {
    reads = 0;
    const hits = searchPositions(index, { query: 'e', limit: 7, ...filters } as SearchQuery);
    assert.equal(reads, 0, `${JSON.stringify(filters)}: ratings read per match`);
    const expected = Array.from(stars.keys()).filter((position) => keeps(stars[position]!));
    assert.deepEqual(hits, { total: expected.length, limit: 7, positions: expected.slice(0, 7) }, JSON.stringify(filters));
  }
});

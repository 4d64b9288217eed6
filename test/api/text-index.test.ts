/**
 * The text index in process (src/lib/reviews/text-index.ts), over small made-up
 * texts full of what the phrase path has to get exactly right: punctuation runs,
 * non-ASCII letters and marks, surrogate pairs, words that are prefixes and
 * suffixes of others, texts with no word at all. For every needle (cut from the
 * texts at random, or made from their words and gaps) the answer equals
 * `includes` over every text. Then: the index answers without reading any text,
 * and the background build lets the event loop run while a scan answers.
 */
import assert from 'node:assert/strict';
import { it } from 'node:test';
import fc from 'fast-check';
import { fold, getReviewIndex } from '../../src/lib/reviews/index.ts';
import type { ReviewsDataset } from '../../src/lib/reviews/schema.ts';
import { buildTextIndex, buildTextIndexInSlices, type TextIndex } from '../../src/lib/reviews/text-index.ts';

const WORDS = ['roof', 'roofer', 'reroof', 'the', 'then', 'bathe', 'a', 'é', 'été', 'ﬁx', 'straße', 'naïve', 'İstanbul', '🏠', 'x1', '42', 'e\u0301', 'ＲＯＯＦ', 'leak', 'leaks'];
const GAPS = [' ', ', ', '. ', '.', '\n', '\n\n', ' — ', '-', '—', '; ', '!', '...', "'", ' "', '", ', '  '];

const text = fc
  .array(fc.tuple(fc.constantFrom(...WORDS), fc.constantFrom(...GAPS)), { minLength: 0, maxLength: 14 })
  .chain((pairs) => fc.tuple(fc.constantFrom('', ...GAPS), fc.constant(pairs)))
  .map(([lead, pairs]) => fold(lead + pairs.map(([word, gap]) => word + gap).join('')));
const texts = fc.array(text, { minLength: 1, maxLength: 40 });

function assertExact(index: TextIndex, folded: readonly string[], needle: string) {
  const bits = index.match(needle);
  folded.forEach((haystack, position) => {
    const got = ((bits[position >>> 5]! >>> (position & 31)) & 1) === 1;
    assert.equal(got, haystack.includes(needle), `${JSON.stringify(needle)} in ${JSON.stringify(haystack)}`);
  });
}

it('phrases, words and gaps cut from the texts or made from their parts: the index equals includes', () => {
  const needleFrom = (folded: string[]) =>
    fc.oneof(
      // A cut anywhere, 1 to 30 code units: words, parts of words, across gaps, halves of surrogate pairs.
      fc.tuple(fc.nat({ max: folded.length - 1 }), fc.nat(), fc.integer({ min: 1, max: 30 })).map(([i, start, length]) => {
        const haystack = folded[i]!;
        const from = start % Math.max(1, haystack.length);
        return haystack.slice(from, from + length);
      }),
      // Words and gaps in an order the texts may not have.
      fc.array(fc.constantFrom(...WORDS, ...GAPS, 'oo', 'he', 'af', 'ee'), { minLength: 1, maxLength: 5 }).map((parts) => fold(parts.join(''))),
    );
  fc.assert(
    fc.property(
      texts.chain((folded) => fc.tuple(fc.constant(folded), fc.array(needleFrom(folded), { minLength: 1, maxLength: 30 }))),
      ([folded, needles]) => {
        // Both layouts of the suffix array: entries packed with their review, and plain element
        // indexes (what a review too long to pack leads to).
        for (const index of [buildTextIndex(folded), buildTextIndex(folded, { packEntries: false })]) {
          for (const needle of needles) if (needle !== '') assertExact(index, folded, needle);
        }
      },
    ),
    { numRuns: 300, seed: 2026 },
  );
});

it('answers phrases, words, gaps and short needles without reading any text', () => {
  const folded = ['the roof. then a leak', 'reroof, the crew — été', '...', '', 'bathe the roofer; the end', 'straße 🏠 naïve'].map(fold);
  let reads = 0;
  const counted = new Proxy(folded, {
    get(target, key, receiver) {
      if (typeof key === 'string' && /^\d+$/.test(key)) reads += 1;
      return Reflect.get(target, key, receiver);
    },
  });
  const index = buildTextIndex(counted);
  reads = 0;
  for (const needle of ['f. then a', 'e roof', 'oof, the c', '. t', 'the roof.', ' — é', '...', '; the', 'roofe', 'e 🏠 n', 'ß', 'e ', 'leak']) {
    assertExact(index, folded, needle);
  }
  assert.equal(reads, 0, 'the texts were read at query time');
});

it('the background build yields to the event loop; meanwhile a scan answers, exactly', async () => {
  const folded = Array.from({ length: 3000 }, (_, i) => fold(`Review ${i}: the roof, then a leak${i % 7 === 0 ? ' — été' : ''}.`));
  let turns = 0;
  const ticking = setInterval(() => (turns += 1), 0);
  const built = await buildTextIndexInSlices(folded, 0.5);
  clearInterval(ticking);
  assert.ok(turns > 0, 'no timer ran during the build');
  assertExact(built, folded, 'f, then a');

  const dataset = {
    updated: '2026-01-01T00:00:00Z',
    business: { technicians: [], services: [] },
    reviews: folded.map((t, i) => ({ id: `r${i}`, date: '2026-01-01', updated: '2026-01-01T00:00:00Z', rating: 5, title: '', text: t, technicians: [], services: [] })),
  } as unknown as ReviewsDataset;
  const index = getReviewIndex(dataset);
  const ready = index.startTextIndex();
  const during = index.text();
  assert.equal(during.bytes, 0, 'a scan answers while the index is built');
  assertExact(during, index.folded(), ' — été.');
  await ready;
  const after = index.text();
  assert.ok(after.bytes > 0, 'the index answers once built');
  assertExact(after, index.folded(), ' — été.');
});

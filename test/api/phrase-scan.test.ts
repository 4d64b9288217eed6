/**
 * The candidate loops of the phrase path (src/lib/reviews/phrase-scan.ts) over
 * made-up ranges: an entry's bit is set exactly when its `before` key passes
 * the test the loop stands for, written here as plain branches. The loops
 * decide without branches (arithmetic on the key's gap), so the gap widths at
 * the edges (1 bit; 16 bits, with 32-bit keys) are covered.
 */
import assert from 'node:assert/strict';
import { it } from 'node:test';
import fc from 'fast-check';
import { markAfterGap, markAfterWord, markRanges, type PhraseChecks } from '../../src/lib/reviews/phrase-scan.ts';

const OFFSET_BITS = 12;
const N = 200; // reviews

/** A range of entries: a review and a `before` key each, keys of `gapBits` gap bits and ranks below `ranks`. */
const scan = fc.integer({ min: 1, max: 16 }).chain((gapBits) =>
  fc.record({
    gapBits: fc.constant(gapBits),
    ranks: fc.integer({ min: 1, max: 40 }),
    entries: fc.array(fc.tuple(fc.nat({ max: N - 1 }), fc.nat({ max: 39 }), fc.nat({ max: 2 ** gapBits - 1 })), { maxLength: 60 }),
    gap: fc.nat({ max: 2 ** gapBits - 1 }),
    seed: fc.nat(),
  }),
);

function layout({ gapBits, entries }: { gapBits: number; entries: [number, number, number][] }) {
  const suffixArray = Uint32Array.from(entries, ([review]) => review * 2 ** OFFSET_BITS + 1);
  const keys = entries.map(([, rank, gap]) => (rank << gapBits) | gap);
  // 16-bit keys while they fit, as the index does.
  const before = gapBits + 6 <= 16 ? Uint16Array.from(keys) : Uint32Array.from(keys);
  return { suffixArray, before };
}

function expected(entries: [number, number, number][], pass: (rank: number, gap: number) => boolean): Uint32Array {
  const bits = new Uint32Array(Math.ceil(N / 32));
  for (const [review, rank, gap] of entries) if (pass(rank, gap)) bits[review >>> 5]! |= 1 << (review & 31);
  return bits;
}

it('markAfterWord: a bit exactly for the entries whose word before is marked and whose gap after it is the one given', () => {
  fc.assert(
    fc.property(scan, ({ gapBits, entries, gap, seed }) => {
      const { suffixArray, before } = layout({ gapBits, entries });
      const word = Uint8Array.from({ length: 40 }, (_, rank) => (seed >>> rank % 31) & 1);
      const bits = new Uint32Array(Math.ceil(N / 32));
      markAfterWord(suffixArray, before, 0, entries.length, gapBits, gap, word, OFFSET_BITS, bits);
      assert.deepEqual(bits, expected(entries, (rank, g) => word[rank] === 1 && g === gap));
    }),
    { numRuns: 300, seed: 11 },
  );
});

it('markAfterGap: a bit for the entries whose gap before is marked in lead; every entry without lead', () => {
  fc.assert(
    fc.property(scan, ({ gapBits, entries, seed }) => {
      const { suffixArray, before } = layout({ gapBits, entries });
      const lead = Uint8Array.from({ length: 2 ** gapBits }, (_, gap) => (seed >>> gap % 31) & 1);
      const bits = new Uint32Array(Math.ceil(N / 32));
      markAfterGap(suffixArray, before, 0, entries.length, gapBits, lead, OFFSET_BITS, bits);
      assert.deepEqual(bits, expected(entries, (_, g) => lead[g] === 1));
      const all = new Uint32Array(Math.ceil(N / 32));
      markAfterGap(suffixArray, before, 0, entries.length, gapBits, new Uint8Array(0), OFFSET_BITS, all);
      assert.deepEqual(all, expected(entries, () => true));
    }),
    { numRuns: 300, seed: 12 },
  );
});

it('markRanges: only the entries inside the ranges count, each range by the loop its candidates need', () => {
  const { suffixArray, before } = layout({ gapBits: 3, entries: [[1, 2, 5], [2, 3, 5], [3, 2, 4], [4, 2, 5], [5, 1, 5]] });
  const firstWord = Uint8Array.from([0, 0, 1, 0]);
  const checks = { suffixArray, before, gapBits: 3, packed: true, offsetBits: OFFSET_BITS, lo: new Uint32Array(2), gap0: 5, firstWord, lead: new Uint8Array(0) } as unknown as PhraseChecks;
  const bits = new Uint32Array(Math.ceil(N / 32));
  // From the second word: the entries of [0, 4) whose key before is word 2 then gap 5 (reviews 1 and 4).
  markRanges(checks, 1, [{ from: 0, to: 4, through: 2 }], bits);
  assert.deepEqual(bits, expected([[1, 0, 0], [4, 0, 0]], () => true));
  // From the first word, no leading gap: every entry of [3, 5).
  const all = new Uint32Array(Math.ceil(N / 32));
  markRanges(checks, 0, [{ from: 3, to: 5, through: 2 }], all);
  assert.deepEqual(all, expected([[4, 0, 0], [5, 0, 0]], () => true));
});

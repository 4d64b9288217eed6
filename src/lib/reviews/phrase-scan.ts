/**
 * The loops of a phrase query (word-positions.ts): over the ranges of the
 * suffix array its candidates lie in, and for each entry of a range the
 * checks the range does not ensure, then its review's bit. Small top-level
 * functions, called with typed arrays and numbers of the same types on every
 * call, and nothing in `phrase` itself loops for long.
 *
 * Why: inlined in `phrase`, the loops shared one large function with the
 * needle's setup, whose branches differ from needle to needle (a leading gap
 * or not, a first word matched by its end or not). V8 compiled the loop on its
 * own while it ran (on-stack replacement), and that code was deoptimized each
 * time the loop was left: 271 times in 420 phrase queries at 100k reviews
 * (`--trace-deopt`), the rest of each call then running in the interpreter,
 * and a branch not seen yet deoptimized the whole function, loop included.
 * Apart, they are not deoptimized once warm; the same phrases, warm, took
 * 1.2–1.6× as long before (docs/performance.md, "The slow tail of text search").
 */
import { popcount, type Bits } from './postings.ts';

/** Keys of elements, and `before` (the key before each entry): one width per index. */
export type KeyArray = Uint16Array | Uint32Array;

/** A range of the suffix array: entries [from, to) whose words up to `through` (exclusive) are as the needle says (see rangeFrom in word-positions.ts). */
export interface Range {
  from: number;
  to: number;
  through: number;
}

/** Every range's matches into `bits`, the candidates coming from needle word `first` (0 or 1). */
export function markRanges(c: PhraseChecks, first: number, ranges: readonly Range[], bits: Bits): void {
  const { suffixArray, before, gapBits, packed, offsetBits, lead } = c;
  const k = c.lo.length;
  for (let i = 0; i < ranges.length; i++) {
    const { from, to, through } = ranges[i]!;
    // Only packed entries whose range and `before` settle everything have their own loops.
    if (!packed || through < k || (first === 1 && lead.length > 0)) markChecked(c, first, from, to, through, bits);
    else if (first === 1) markAfterWord(suffixArray, before, from, to, gapBits, c.gap0, c.firstWord, offsetBits, bits);
    else markAfterGap(suffixArray, before, from, to, gapBits, lead, offsetBits, bits);
  }
}

/** table[rank] = 1 for each of `ranks`. */
export function markRanks(table: Uint8Array, ranks: Uint32Array): void {
  for (let i = 0; i < ranks.length; i++) table[ranks[i]!] = 1;
}

/*
 * markAfterWord and markAfterGap decide each entry without a branch: an entry
 * that fails ORs a zero bit. In text whose candidates fail in no pattern (a
 * third to a half of them can, for a first word matched by its end), a branch
 * mispredicts; measured on a made-up range failing at random, 11–33 % faster
 * than the branch (the same on the generated reviews, whose failures come in
 * runs). Nothing follows the loops: code
 * after a loop that V8 compiled while in it (on-stack replacement) has no type
 * feedback yet, and leaving the loop then deoptimized the code on every call.
 */

/**
 * Packed entries ((review << offsetBits) | offset) whose range settles
 * everything, but for the word before: its key in `before` must have gap
 * `gap` after it and a word marked in `word` (by rank). The no-word element
 * before a review's first word has a rank marked nowhere.
 */
export function markAfterWord(suffixArray: Uint32Array, before: KeyArray, from: number, to: number, gapBits: number, gap: number, word: Uint8Array, offsetBits: number, bits: Bits): void {
  const gapMask = (1 << gapBits) - 1;
  for (let q = from; q < to; q++) {
    const key = before[q]!;
    // 1 when the key's gap is `gap`: x = gap ^ key's gap is in [0, gapMask], and x + gapMask reaches bit gapBits unless x = 0.
    const ok = word[key >>> gapBits]! & (1 - ((((key & gapMask) ^ gap) + gapMask) >>> gapBits));
    const review = suffixArray[q]! >>> offsetBits;
    bits[review >>> 5]! |= ok << (review & 31);
  }
}

/**
 * Packed entries whose range settles everything but the gap before their
 * word: `lead` marks (by gap rank) the gaps it may be. With an empty `lead`,
 * every entry is a match.
 */
export function markAfterGap(suffixArray: Uint32Array, before: KeyArray, from: number, to: number, gapBits: number, lead: Uint8Array, offsetBits: number, bits: Bits): void {
  if (lead.length === 0) return markAll(suffixArray, from, to, offsetBits, bits);
  const gapMask = (1 << gapBits) - 1;
  for (let q = from; q < to; q++) {
    const review = suffixArray[q]! >>> offsetBits;
    bits[review >>> 5]! |= lead[before[q]! & gapMask]! << (review & 31);
  }
}

/** Packed entries that are all matches. */
function markAll(suffixArray: Uint32Array, from: number, to: number, offsetBits: number, bits: Bits): void {
  for (let q = from; q < to; q++) {
    const review = suffixArray[q]! >>> offsetBits;
    bits[review >>> 5]! |= 1 << (review & 31);
  }
}

/** What markChecked needs of the index and of the needle (see phrase in word-positions.ts). */
export interface PhraseChecks {
  suffixArray: Uint32Array;
  before: KeyArray;
  keys: KeyArray;
  gapBits: number;
  packed: boolean;
  offsetBits: number;
  /** First element of each review (packed entries). */
  reviewStart: Uint32Array;
  /** Review starts per 32 elements (unpacked entries; see reviewInTable). */
  reviewTable: Uint32Array;
  /** Ranks (as suffixKey maps them where bySuffix) allowed for each needle word: [lo[j], hi[j]). */
  lo: Uint32Array;
  hi: Uint32Array;
  bySuffix: Uint8Array;
  suffixKey: Uint32Array;
  /** The needle's inner gaps by rank. */
  inner: Int32Array;
  /** The gaps the leading / trailing gap may be, by rank; empty when the needle has none. */
  lead: Uint8Array;
  trail: Uint8Array;
  /** With candidates from the second word: its gap before, and the ranks word 0 may be. */
  gap0: number;
  firstWord: Uint8Array;
}

/**
 * The general loop: any layout, entries whose words past `through` (or the
 * leading gap, with candidates from the second word) are read from `keys`,
 * next to the candidate's element: a cache miss each at 100k reviews.
 */
export function markChecked(c: PhraseChecks, first: number, from: number, to: number, through: number, bits: Bits): void {
  const { suffixArray, before, keys, gapBits, packed, offsetBits, reviewStart, reviewTable, lo, hi, bySuffix, suffixKey, inner, lead, trail, gap0, firstWord } = c;
  const k = lo.length;
  const gapMask = (1 << gapBits) - 1;
  const offsetMask = 2 ** offsetBits - 1;
  const reads = through < k || (first === 1 && lead.length > 0);
  for (let q = from; q < to; q++) {
    // `before` first: it also stops a walk back past the review's first word (the no-word key fits no word).
    if (first === 1) {
      const key = before[q]!;
      if ((key & gapMask) !== gap0 || firstWord[key >>> gapBits] === 0) continue;
    } else if (lead.length > 0 && lead[before[q]! & gapMask] === 0) continue;
    const entry = suffixArray[q]!;
    if (reads) {
      const s = (packed ? reviewStart[entry >>> offsetBits]! + (entry & offsetMask) : entry) - first;
      if (!occursAt(keys, s, first, through, k, gapBits, lo, hi, bySuffix, suffixKey, inner, lead, trail)) continue;
    }
    const review = packed ? entry >>> offsetBits : reviewInTable(reviewTable, entry);
    bits[review >>> 5]! |= 1 << (review & 31);
  }
}

/** The conditions neither the range nor `before` ensure, at the needle's first word s: the words past the range's, the gaps after them, a leading gap two elements back. */
function occursAt(keys: KeyArray, s: number, first: number, through: number, k: number, gapBits: number, lo: Uint32Array, hi: Uint32Array, bySuffix: Uint8Array, suffixKey: Uint32Array, inner: Int32Array, lead: Uint8Array, trail: Uint8Array): boolean {
  const gapMask = (1 << gapBits) - 1;
  for (let j = through; j < k; j++) {
    const rank = keys[s + j]! >>> gapBits;
    const key = bySuffix[j] ? suffixKey[rank]! : rank;
    if (key < lo[j]! || key >= hi[j]!) return false;
  }
  for (let j = through; j + 1 < k; j++) if ((keys[s + j]! & gapMask) !== inner[j]) return false;
  if (first === 1 && lead.length > 0 && lead[keys[s - 1]! & gapMask] === 0) return false;
  if (trail.length > 0 && through < k && trail[keys[s + k - 1]! & gapMask] === 0) return false;
  return true;
}

/** The review of element e, from the table of review starts per 32 elements (see finishParts in word-positions.ts). */
export function reviewInTable(table: Uint32Array, e: number): number {
  const block = 2 * (e >>> 5);
  return table[block]! + popcount(table[block + 1]! & (0xffffffff >>> (31 - (e & 31)))) - 1;
}

/**
 * Word positions: every review's folded text as the sequence of its words and
 * the gaps between them (word-units.ts), and for each distinct word the places
 * it occurs, all in typed arrays (no object per occurrence). They answer a
 * needle that spans words exactly, without reading any text.
 *
 * A needle cut as splitNeedle cuts it, `g0 w0 g1 w1 … wk-1 gk`, occurs in a
 * text exactly where k consecutive words t..t+k-1 of the text satisfy:
 * - word j equals wj when the needle has something on both sides of it, starts
 *   with wj when only before it (the text word may go on past the needle's
 *   end), ends with it when only after it (the first word of "s. the");
 * - the gap between text words j and j+1 equals gj+1 (a needle's inner gap is
 *   bounded by word units on both sides, so it is the text's whole gap);
 * - the gap before word t ends with g0, the gap after word t+k-1 starts with gk.
 * So the search walks the occurrences of the needle word with the fewest of
 * them (the anchor) and checks its neighbours in the word sequence: its cost
 * follows that word's occurrences, never the texts' length.
 *
 * Layout: one array of word ranks for all reviews, each review's words after
 * an element that is no word (rank V), plus one after the last review, so a
 * neighbour check never leaves its review; beside it the id of the gap after
 * each element (the one after the no-word element is the text's leading gap).
 * Ranks are indexes into the sorted vocabulary, so the words starting with a
 * string are one range of ranks; a second order, by reversed word, makes the
 * words ending with a string one range too. Beside the suffix array, in its
 * order, the key of the element before each entry's (`before`): what a phrase
 * needs of the word before its candidates, read along the range instead of at
 * random (a cache miss per candidate at 100k reviews; 2 bytes a word).
 */
import { markRanges, markRanks, reviewInTable, type PhraseChecks, type Range } from './phrase-scan.ts';
import { emptyBits, orInto, PostingBuilder, type Bits, type PostingSet } from './postings.ts';

export interface WordPositions {
  /** The distinct words, sorted by code unit; a word's rank is its index here. */
  readonly words: readonly string[];
  /** The reviews holding each word, by rank. */
  readonly wordSets: readonly PostingSet[];
  /** The reviews whose text contains `needle`, a string without word units (so it lies inside one gap). */
  inGaps(needle: string): Bits;
  /** The reviews whose text contains the needle that splitNeedle cut into `words` (at least one) and `gaps`, unless it is one word alone. */
  phrase(words: readonly string[], gaps: readonly string[]): Bits;
  /** Bytes of the typed arrays held (posting sets included), for the benchmarks. */
  readonly bytes: number;
}

/** The gap table of a needle without that gap (phrase-scan.ts reads an empty table as "any gap"). */
const NO_TABLE = new Uint8Array(0);

/** The element before each review's words, while building (ranks replace it on finish). */
const NO_WORD = 0xffffffff;

export class WordPositionsBuilder {
  readonly #n: number;
  readonly #words = new Terms();
  readonly #gaps = new Terms('');
  // Word ids, NO_WORD before each review, and the gap id after each element: chunked, so that
  // growing never copies and never holds twice the size.
  readonly #sequence = new ChunkedUint32();
  readonly #gapAfter = new ChunkedUint32();
  readonly #asciiGapIds = new Int32Array(0x80).fill(-1);
  #position = -1;

  readonly #pack: boolean;

  /** `pack`: false only for tests, to use the layout of texts too long to pack (see finish). */
  constructor(n: number, pack = true) {
    this.#n = n;
    this.#pack = pack;
  }

  /** Starts the next review (positions 0, 1, … in order). */
  review(): void {
    this.#position++;
    this.#sequence.push(NO_WORD);
    this.#gapAfter.push(0);
  }

  word(word: string): void {
    this.#sequence.push(this.#words.id(word, this.#position, this.#n));
    this.#gapAfter.push(0);
  }

  /** The (non-empty) gap after the last word, or the text's leading gap right after review(). */
  gap(gap: string): void {
    this.#gapAfter.set(this.#gapAfter.length - 1, this.#gaps.id(gap, this.#position, this.#n));
  }

  /** gap(String.fromCharCode(unit)) for an ASCII unit, without making the string (most gaps are one space). */
  asciiGap(unit: number): void {
    let id = this.#asciiGapIds[unit]!;
    if (id < 0) id = this.#asciiGapIds[unit] = this.#gaps.id(String.fromCharCode(unit), this.#position, this.#n);
    else this.#gaps.postings[id]!.add(this.#position, this.#n);
    this.#gapAfter.set(this.#gapAfter.length - 1, id);
  }

  finish(): WordPositions {
    return wordPositionsFrom(this.finishParts());
  }

  /** What finish makes the word positions of: plain arrays and strings, which a worker thread can post. */
  finishParts(): WordPositionsParts {
    const n = this.#n;
    this.#sequence.push(NO_WORD);
    this.#gapAfter.push(0);

    const v = this.#words.values.length;
    const byWord = sortedIds(this.#words.values);
    const rankOf = new Uint32Array(v);
    byWord.forEach((id, rank) => (rankOf[id] = rank));
    const words = byWord.map((id) => this.#words.values[id]!);
    const reversed = words.map(reverseUnits);
    const bySuffix = sortedIds(reversed);
    const suffixKey = new Uint32Array(v + 1); // by rank; rank v (no word) gets v, outside every range
    bySuffix.forEach((rank, i) => (suffixKey[rank] = i));
    suffixKey[v] = v;
    const gapCount = this.#gaps.values.length;
    const byGap = sortedIds(this.#gaps.values);
    const gapRankOf = new Uint32Array(gapCount);
    byGap.forEach((id, rank) => (gapRankOf[id] = rank));
    const gapBits = Math.max(1, Math.ceil(Math.log2(gapCount)));

    // One key per element: (word rank << gapBits) | rank of the gap after it.
    const raw = this.#sequence;
    const rawGaps = this.#gapAfter;
    const length = raw.length;
    const endKey = ((v + 1) << gapBits) >>> 0; // past every key: what lies beyond the last element
    const keys = endKey <= 0xffff ? new Uint16Array(length) : new Uint32Array(length);
    const rankStart = new Uint32Array(v + 1); // the suffix array's entries of rank r: [rankStart[r], rankStart[r + 1])
    for (let e = 0; e < length; e++) {
      const id = raw.get(e);
      const rank = id === NO_WORD ? v : rankOf[id]!;
      keys[e] = ((rank << gapBits) | gapRankOf[rawGaps.get(e)]!) >>> 0;
      if (rank < v) rankStart[rank + 1]! += 1;
    }
    for (let r = 1; r <= v; r++) rankStart[r]! += rankStart[r - 1]!;

    raw.clear();
    rawGaps.clear();
    const wordSets = byWord.map((id) => this.#words.postings[id]!.finish());
    const gaps = byGap.map((id) => this.#gaps.values[id]!);
    const gapSets = byGap.map((id) => this.#gaps.postings[id]!.finish());
    // An element's review, in one read: per block of 32 elements, the no-word elements before the
    // block, then a bit per no-word element in it (each starts a review).
    const reviewTable = new Uint32Array(2 * ((length >>> 5) + 1));
    for (let e = 0, starts = 0; e < length; e++) {
      if ((e & 31) === 0) reviewTable[2 * (e >>> 5)] = starts;
      if (keys[e]! >>> gapBits === v) {
        reviewTable[2 * (e >>> 5) + 1]! |= 1 << (e & 31);
        starts++;
      }
    }
    // Suffix array entries as (review << offsetBits) | offset in the review, when every review
    // fits: the review of a candidate is then in the entry itself, not one more read at random.
    const reviewStart = new Uint32Array(n + 1);
    let longest = 0;
    for (let e = 0, r = 0; e < length; e++) {
      if (keys[e]! >>> gapBits === v) {
        if (r > 0) longest = Math.max(longest, e - reviewStart[r - 1]!);
        reviewStart[r++] = e;
      }
    }
    const offsetBits = 32 - Math.max(1, Math.ceil(Math.log2(n + 1)));
    const packed = this.#pack && longest < 2 ** offsetBits;
    const suffixArray = wordSuffixArray(keys, length - (n + 1), gapBits, endKey);
    // The key before each entry's element (its review's no-word element for a first word), in
    // suffix array order: a phrase's word before the range's first word, or its leading gap, is
    // then checked by reading along the range, not the keys at random.
    const before = keys instanceof Uint16Array ? new Uint16Array(suffixArray.length) : new Uint32Array(suffixArray.length);
    for (let q = 0; q < suffixArray.length; q++) before[q] = keys[suffixArray[q]! - 1]!;
    if (packed) {
      for (let q = 0; q < suffixArray.length; q++) {
        const e = suffixArray[q]!;
        const review = reviewInTable(reviewTable, e);
        suffixArray[q] = review * 2 ** offsetBits + (e - reviewStart[review]!);
      }
    }
    return {
      n,
      words,
      reversedSorted: bySuffix.map((rank) => reversed[rank]!),
      suffixOrder: Uint32Array.from(bySuffix),
      suffixKey,
      keys,
      gapBits,
      endKey,
      suffixArray,
      before,
      packed,
      offsetBits,
      reviewStart,
      rankStart,
      reviewTable: packed ? new Uint32Array(0) : reviewTable,
      gaps,
      wordSets,
      gapSets,
    };
  }
}

/**
 * How many words (with the gap after each) the suffix array is sorted by. A
 * needle's run of words longer than this is found by its first SORT_DEPTH
 * words, the rest checked on each candidate.
 */
const SORT_DEPTH = 6;

/**
 * The word elements, sorted by their key and the keys of the SORT_DEPTH - 1
 * elements after them, then by position: a word suffix array cut at
 * SORT_DEPTH. Every run of exact words and gaps is then one range of it.
 * Built with one counting sort per depth, from the deepest (LSD radix).
 */
function wordSuffixArray(keys: Uint16Array | Uint32Array, count: number, gapBits: number, endKey: number): Uint32Array {
  const length = keys.length;
  const noWord = (endKey >>> gapBits) - 1;
  let order = new Uint32Array(count);
  for (let e = 0, i = 0; e < length; e++) if (keys[e]! >>> gapBits !== noWord) order[i++] = e;
  let spare = new Uint32Array(count);
  // Each pass reads the keys in the current order, i.e. at random: once, into `passKeys`.
  const passKeys = keys instanceof Uint16Array ? new Uint16Array(count) : new Uint32Array(count);
  const counts = new Uint32Array(endKey + 2);
  for (let depth = SORT_DEPTH - 1; depth >= 0; depth--) {
    counts.fill(0);
    for (let i = 0; i < count; i++) {
      const e = order[i]! + depth;
      const key = e < length ? keys[e]! : endKey;
      passKeys[i] = key;
      counts[key + 1]! += 1;
    }
    for (let k = 1; k < counts.length; k++) counts[k]! += counts[k - 1]!;
    for (let i = 0; i < count; i++) spare[counts[passKeys[i]!]!++] = order[i]!;
    [order, spare] = [spare, order];
  }
  return order;
}

/** The word positions as data (typed arrays and strings): see wordPositionsFrom. */
export interface WordPositionsParts {
  n: number;
  words: string[];
  reversedSorted: string[];
  suffixOrder: Uint32Array;
  suffixKey: Uint32Array;
  keys: Uint16Array | Uint32Array;
  gapBits: number;
  endKey: number;
  suffixArray: Uint32Array;
  /** keys[element - 1] for each suffix array entry, in the same order. */
  before: Uint16Array | Uint32Array;
  rankStart: Uint32Array;
  packed: boolean;
  offsetBits: number;
  reviewStart: Uint32Array;
  reviewTable: Uint32Array;
  gaps: string[];
  wordSets: PostingSet[];
  gapSets: PostingSet[];
}

/** The word positions over their parts (made by finishParts, here or in a worker thread). */
export function wordPositionsFrom(a: WordPositionsParts): WordPositions {
  const { n, words, keys, gapBits, endKey, suffixArray, before, packed, offsetBits, reviewStart, rankStart, reviewTable, suffixKey, suffixOrder } = a;
  const v = words.length;
  const gapMask = (1 << gapBits) - 1;
  const gapRank = new Map(a.gaps.map((gap, rank) => [gap, rank]));
  const keyAt = (e: number): number => (e < keys.length ? keys[e]! : endKey);

  const offsetMask = 2 ** offsetBits - 1;
  /** The element a suffix array entry stands for. */
  const elementOf = (entry: number): number => (packed ? reviewStart[entry >>> offsetBits]! + (entry & offsetMask) : entry);

  /**
   * The part of suffixArray[from, to) whose elements have keys `exact[0..last)`
   * at depths 0..last-1 and a key in [low, high) at depth `last` (last <
   * SORT_DEPTH): one range, the entries being sorted by those keys in turn.
   * One binary search per bound over all the depths at once, rather than one
   * per depth: each probe is a cache miss or three at 100k reviews (the entry,
   * its review's start, its keys), and the keys of one probe lie together.
   */
  const narrow = (from: number, to: number, exact: Uint32Array, last: number, low: number, high: number): [number, number] => {
    /** Whether the entry's keys come before (exact…, key). */
    const precedes = (entry: number, key: number): boolean => {
      const e = elementOf(entry);
      for (let d = 0; d < last; d++) {
        const at = keyAt(e + d);
        if (at !== exact[d]) return at < exact[d]!;
      }
      return keyAt(e + last) < key;
    };
    const bound = (key: number, lo: number, hi: number) => {
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        if (precedes(suffixArray[mid]!, key)) lo = mid + 1;
        else hi = mid;
      }
      return lo;
    };
    const first = bound(low, from, to);
    return [first, bound(high, first, to)];
  };

  /** For each gap rank, whether `test` holds of that gap; empty if `part` is (nothing to check). */
  const gapTable = (part: string, test: (gap: string, part: string) => boolean): Uint8Array =>
    part === '' ? NO_TABLE : Uint8Array.from(a.gaps, (gap) => (test(gap, part) ? 1 : 0));

  return {
    words,
    wordSets: a.wordSets,
    bytes: [keys, suffixArray, before, reviewStart, rankStart, reviewTable, suffixKey, suffixOrder, ...a.wordSets, ...a.gapSets].reduce((sum, array) => sum + array.byteLength, 0),

    inGaps(needle) {
      const bits = emptyBits(n);
      a.gaps.forEach((gap, rank) => {
        if (gap.includes(needle)) orInto(bits, a.gapSets[rank]!);
      });
      return bits;
    },

    phrase(needleWords, needleGaps) {
      const bits = emptyBits(n);
      const k = needleWords.length;
      // Which text words each needle word may be: keys in [lo, hi), keys being ranks, or suffix keys.
      const lo = new Uint32Array(k);
      const hi = new Uint32Array(k);
      const bySuffix = new Uint8Array(k);
      for (let j = 0; j < k; j++) {
        const word = needleWords[j]!;
        const startFixed = j > 0 || needleGaps[0] !== '';
        const endFixed = j < k - 1 || needleGaps[k] !== '';
        let range: [number, number];
        if (startFixed && endFixed) range = prefixRange(words, word, true);
        else if (startFixed) range = prefixRange(words, word, false);
        else if (endFixed) {
          range = prefixRange(a.reversedSorted, reverseUnits(word), false);
          bySuffix[j] = 1;
        } else throw new Error('phrase: a lone word without gaps belongs to the word path');
        if (range[0] >= range[1]) return bits;
        [lo[j], hi[j]] = range;
      }
      const inner = new Int32Array(Math.max(0, k - 1));
      for (let j = 0; j + 1 < k; j++) {
        const rank = gapRank.get(needleGaps[j + 1]!);
        if (rank === undefined) return bits;
        inner[j] = rank;
      }
      const lead = gapTable(needleGaps[0]!, (gap, part) => gap.endsWith(part));
      const trail = gapTable(needleGaps[k]!, (gap, part) => gap.startsWith(part));
      const [trailLow, trailHigh] = needleGaps[k] === '' ? [0, gapMask + 1] : prefixRange(a.gaps, needleGaps[k]!, false);

      /**
       * The suffix array's range for the needle's words from `first` on, word
       * `first` being a rank in [rankLow, rankHigh), narrowed as far as the
       * sort depth and single keys allow: every occurrence of the needle with
       * such a word `first` lies in it. `through`: words first..through-1 and
       * the gaps after them are as the needle says for every entry.
       */
      const exact = new Uint32Array(SORT_DEPTH);
      const rangeFrom = (first: number, rankLow: number, rankHigh: number): Range => {
        const from = rankStart[rankLow]!;
        const to = rankStart[rankHigh]!;
        let through = first;
        // The keys the range's entries have, depth by depth: exact ones, then the last depth's [low, high).
        for (let depth = 0; depth < SORT_DEPTH && first + depth < k; depth++) {
          const j = first + depth;
          const [low, high] = depth === 0 ? [rankLow, rankHigh] : [lo[j]!, hi[j]!];
          if (high - low > 1) {
            // Only the last word may be several words; what follows it matters only with a trailing gap.
            if (needleGaps[k] === '') through = j + 1;
            if (depth === 0) return { from, to, through };
            const [start, end] = narrow(from, to, exact, depth, low << gapBits, high << gapBits);
            return { from: start, to: end, through };
          }
          const [gapLow, gapHigh] = j < k - 1 ? [inner[j]!, inner[j]! + 1] : [trailLow, trailHigh];
          through = j + 1;
          if (gapHigh - gapLow > 1 || depth + 1 === SORT_DEPTH || j + 1 === k) {
            const [start, end] = narrow(from, to, exact, depth, (low << gapBits) + gapLow, (low << gapBits) + gapHigh);
            return { from: start, to: end, through };
          }
          exact[depth] = (low << gapBits) + gapLow;
        }
        return { from, to, through };
      };

      // Candidates: the range from the second word, or the ranges from the first (one per word it
      // may be, when it only has to end with a string), whichever costs less. An entry whose range
      // and `before` (the word before it, or the leading gap) settle everything costs reads along
      // the range; any other costs a read of the words around it too, a cache miss at 100k reviews
      // (RANGE_COST is in such reads).
      const readsKeys = (first: number, through: number): boolean => through < k || (first === 1 && lead.length > 0);
      const cost = (option: Option): number =>
        option.ranges.reduce((sum, { from, to, through }) => sum + RANGE_COST + (to - from) * (readsKeys(option.first, through) ? 1 : ALONG_COST), 0);
      const options: Option[] = [];
      if (k > 1) options.push({ first: 1, ranges: [rangeFrom(1, lo[1]!, hi[1]!)] });
      if (!bySuffix[0]) options.push({ first: 0, ranges: [rangeFrom(0, lo[0]!, hi[0]!)] });
      else if (k === 1 || 2 * (hi[0]! - lo[0]!) * RANGE_COST < cost(options[0]!)) {
        // (Finding those ranges is most of what they cost, and their candidates are known only once
        // found: only when they would cost at most half the other option is it worth finding them.)
        options.push({ first: 0, ranges: Array.from(suffixOrder.subarray(lo[0], hi[0]), (rank) => rangeFrom(0, rank, rank + 1)) });
      }
      const { first, ranges } = options.reduce((best, candidate) => (cost(candidate) < cost(best) ? candidate : best));

      // With first = 1, which ranks word 0 may be (the no-word rank v never), marked in a table: a range
      // of ranks, or, for a word that only has to end with the needle's, the ranks in a range of the
      // suffix order. Marking costs the words that fit (and a zeroed table), not a test of each word
      // of the vocabulary (tens of thousands in real text). A table, not a range test in the loop
      // below: that loop runs per candidate, and the lookup measured faster there (bench/text-index.ts).
      const firstWord = new Uint8Array(first === 1 ? v + 1 : 0);
      if (first === 1 && bySuffix[0]) markRanks(firstWord, suffixOrder.subarray(lo[0], hi[0]));
      else if (first === 1) firstWord.fill(1, lo[0], Math.min(hi[0]!, v));
      const checks: PhraseChecks = { suffixArray, before, keys, gapBits, packed, offsetBits, reviewStart, reviewTable, lo, hi, bySuffix, suffixKey, inner, lead, trail, gap0: k > 1 ? inner[0]! : 0, firstWord };
      markRanges(checks, first, ranges, bits);
      return bits;
    },
  };
}

/** Where a phrase's candidates are looked up: from word `first`, in these ranges. */
interface Option {
  first: number;
  ranges: Range[];
}

/**
 * What finding one range costs (binary searches), in reads of a candidate's
 * words at random (~100–150 ns each, a cache miss at 100k reviews): measured
 * ~2 µs a range with the arrays in cache, 5–10 µs without.
 */
const RANGE_COST = 40;

/**
 * What a candidate settled by its range and `before` costs, in the same reads:
 * ~4–5 ns along two arrays (phrase-scan.ts, measured at 100k reviews). It was
 * 0.2, which made a first word matched by its end look up one range per word
 * it may be (tens) where reading along the second word's range cost less.
 */
const ALONG_COST = 0.04;

/** The range of `sorted` (by code unit) that starts with `part`, or with `exact`, equals it. */
function prefixRange(sorted: readonly string[], part: string, exact: boolean): [number, number] {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sorted[mid]! < part) lo = mid + 1;
    else hi = mid;
  }
  if (exact) return sorted[lo] === part ? [lo, lo + 1] : [lo, lo];
  let end = lo;
  hi = sorted.length;
  while (end < hi) {
    const mid = (end + hi) >>> 1;
    if (sorted[mid]!.startsWith(part)) end = mid + 1;
    else hi = mid;
  }
  return [lo, end];
}

/** The indexes of `strings`, ordered by their strings in code unit order (as `<` compares, not localeCompare). */
function sortedIds(strings: readonly string[]): number[] {
  return Array.from({ length: strings.length }, (_, id) => id).sort((a, b) => (strings[a]! < strings[b]! ? -1 : strings[a]! > strings[b]! ? 1 : 0));
}

/** The string's code units in reverse order (surrogate pairs included: only order matters here). */
function reverseUnits(text: string): string {
  let out = '';
  for (let i = text.length - 1; i >= 0; i--) out += text[i];
  return out;
}

/** Distinct strings (words, or gaps) by id in order of first sight, with the reviews holding each. */
class Terms {
  readonly #ids = new Map<string, number>();
  readonly values: string[] = [];
  readonly postings: PostingBuilder[] = [];

  constructor(...initial: string[]) {
    for (const value of initial) this.#add(value);
  }

  /** The term's id, after noting that review `position` (of n) holds it. */
  id(value: string, position: number, n: number): number {
    const id = this.#ids.get(value) ?? this.#add(value);
    this.postings[id]!.add(position, n);
    return id;
  }

  #add(value: string): number {
    this.#ids.set(value, this.values.length);
    this.values.push(value);
    this.postings.push(new PostingBuilder());
    return this.values.length - 1;
  }
}

/** A growing list of 32-bit numbers in chunks of 64K (no copying as it grows). */
class ChunkedUint32 {
  #chunks: Uint32Array[] = [];
  length = 0;

  push(value: number): void {
    if ((this.length & 0xffff) === 0) this.#chunks.push(new Uint32Array(0x10000));
    this.#chunks[this.length >>> 16]![this.length & 0xffff] = value;
    this.length++;
  }

  get(index: number): number {
    return this.#chunks[index >>> 16]![index & 0xffff]!;
  }

  set(index: number, value: number): void {
    this.#chunks[index >>> 16]![index & 0xffff] = value;
  }

  /** Lets the chunks go (the builder is done with them). */
  clear(): void {
    this.#chunks = [];
    this.length = 0;
  }
}

/**
 * The `query` index: which reviews' folded text (NFKC, lower case, title and
 * text; see fold in index.ts) contains a folded needle as a substring — exactly
 * the reviews `folded[p].includes(needle)` would find, without reading any
 * text at query time. Built once per process (index.ts: in the background at
 * start-up on the Node server, else by the first text query).
 *
 * Four paths, by the needle's shape (lengths in UTF-16 code units, which is
 * what `includes` compares; words and gaps as word-units.ts cuts them):
 *
 * 1. One or two code units: the exact postings of every 1- and 2-unit gram of
 *    the texts. The cost is bounded by one bitset (n/32 words).
 * 2. One word, nothing else: an occurrence of such a needle can never cross a
 *    gap, so it lies inside one word of the text. The answer is the union of
 *    the postings of the distinct words that contain the needle. The words
 *    come from a trigram index over the vocabulary (small next to the texts),
 *    each checked with `includes`.
 * 3. No word at all (`...`, ` - `): the needle lies inside one gap; the union
 *    of the postings of the distinct gaps that contain it.
 * 4. Anything else (several words, a word and punctuation): the word positions
 *    (word-positions.ts) — the occurrences of the needle's rarest word, each
 *    checked against its neighbouring words and gaps. The cost follows that
 *    word's occurrences, not the texts' length.
 *
 * Positions are the newest-first positions of the review index.
 */
import { setImmediate as nextTurn } from 'node:timers/promises';
import { emptyBits, orInto, PostingBuilder, toBits, type Bits, type PostingSet } from './postings.ts';
import { WordPositionsBuilder, wordPositionsFrom, type WordPositions, type WordPositionsParts } from './word-positions.ts';
import { isWordUnit, splitNeedle } from './word-units.ts';

export interface TextIndex {
  /** The reviews whose folded text contains `needle` (already folded, non-empty), as a bitset of positions. */
  match(needle: string): Bits;
  /** Bytes of the typed arrays held, for the benchmarks (0 for the scan). */
  readonly bytes: number;
}

/** For tests: `packEntries: false` builds the layout used when some review is too long to pack (word-positions.ts). */
export interface BuildOptions {
  packEntries?: boolean;
}

export function buildTextIndex(folded: readonly string[], options: BuildOptions = {}): TextIndex {
  const builder = new TextIndexBuilder(folded.length, options);
  for (const text of folded) builder.add(text);
  return builder.finish();
}

/**
 * The same index, built a slice of about `sliceMs` at a time with a turn of
 * the event loop between slices, so that requests keep being answered while
 * it is built (the whole build takes seconds at 100k reviews).
 */
export async function buildTextIndexInSlices(folded: readonly string[], sliceMs = 10): Promise<TextIndex> {
  const builder = new TextIndexBuilder(folded.length);
  let position = 0;
  while (position < folded.length) {
    const until = performance.now() + sliceMs;
    // The clock is read every 64 texts.
    do builder.add(folded[position++]!);
    while (position < folded.length && ((position & 63) !== 0 || performance.now() < until));
    await nextTurn();
  }
  return builder.finish();
}

/**
 * No index: every text read with `includes`. What a text query is answered
 * with while the index is being built in the background, rather than wait
 * seconds for it; its cost follows the total length of the texts.
 */
export function scanningTextIndex(folded: readonly string[]): TextIndex {
  return {
    bytes: 0,
    match(needle) {
      const bits = emptyBits(folded.length);
      for (let position = 0; position < folded.length; position++) if (folded[position]!.includes(needle)) bits[position >>> 5]! |= 1 << (position & 31);
      return bits;
    },
  };
}

/** Takes the folded texts one by one, in position order. */
class TextIndexBuilder {
  readonly #n: number;
  // Gram keys: a unit alone is its code (< 2^16); a pair is 2^16 + first * 2^16 + second. ASCII
  // units and pairs, nearly all of them, are collected in flat arrays (no hashing), the rest in a map.
  readonly #asciiUnits: (PostingBuilder | undefined)[] = new Array(0x80);
  readonly #asciiPairs: (PostingBuilder | undefined)[] = new Array(0x4000);
  readonly #grams = new Map<number, PostingBuilder>();
  readonly #positions: WordPositionsBuilder;
  #position = 0;

  constructor(n: number, options: BuildOptions = {}) {
    this.#n = n;
    this.#positions = new WordPositionsBuilder(n, options.packEntries ?? true);
  }

  add(text: string): void {
    const position = this.#position++;
    const n = this.#n;
    const grams = this.#grams;
    const positions = this.#positions;
    positions.review();
    let wordStart = -1;
    let gapStart = 0;
    let unit = text.length > 0 ? text.charCodeAt(0) : -1;
    for (let i = 0; i < text.length; i++) {
      const next = i + 1 < text.length ? text.charCodeAt(i + 1) : -1;
      if (unit < 0x80) (this.#asciiUnits[unit] ??= new PostingBuilder()).add(position, n);
      else gramBuilder(grams, unit).add(position, n);
      if (next >= 0) {
        if ((unit | next) < 0x80) (this.#asciiPairs[(unit << 7) | next] ??= new PostingBuilder()).add(position, n);
        else gramBuilder(grams, 0x10000 + unit * 0x10000 + next).add(position, n);
      }
      if (isWordUnit(unit)) {
        if (wordStart < 0) {
          if (i === gapStart + 1 && text.charCodeAt(gapStart) < 0x80) positions.asciiGap(text.charCodeAt(gapStart));
          else if (i > gapStart) positions.gap(text.slice(gapStart, i));
          wordStart = i;
        }
      } else if (wordStart >= 0) {
        positions.word(text.slice(wordStart, i));
        wordStart = -1;
        gapStart = i;
      }
      unit = next;
    }
    if (wordStart >= 0) positions.word(text.slice(wordStart));
    else if (text.length > gapStart) positions.gap(text.slice(gapStart));
  }

  finish(): TextIndex {
    return textIndexFromParts(this.finishParts());
  }

  finishParts(): TextIndexParts {
    const gramSets = new Map<number, PostingSet>();
    this.#asciiUnits.forEach((builder, unit) => gramSets.set(unit, builder!.finish()));
    this.#asciiPairs.forEach((builder, key) => gramSets.set(0x10000 + (key >>> 7) * 0x10000 + (key & 0x7f), builder!.finish()));
    for (const [key, builder] of this.#grams) gramSets.set(key, builder.finish());
    const positions = this.#positions.finishParts();
    return { n: this.#n, gramSets, positions, trigrams: vocabularyTrigrams(positions.words) };
  }
}

/**
 * The index as data: typed arrays, strings, maps and arrays of numbers, what
 * structured clone copies. A child process of the Node server builds these
 * (src/node/text-index-process.ts) and the server makes the index over them
 * with textIndexFromParts.
 */
export interface TextIndexParts {
  n: number;
  /** Posting sets by gram key: a unit alone is its code; a pair is 2^16 + first * 2^16 + second. */
  gramSets: Map<number, PostingSet>;
  positions: WordPositionsParts;
  /** Vocabulary ranks by trigram (see vocabularyIndex). */
  trigrams: Map<string, number[]>;
}

export function buildTextIndexParts(folded: readonly string[]): TextIndexParts {
  const builder = new TextIndexBuilder(folded.length);
  for (const text of folded) builder.add(text);
  return builder.finishParts();
}

/**
 * The parts with each typed array in a buffer of its own. Node deserialises a
 * message's typed arrays as views into the message's one buffer, which would
 * stay whole (strings and all) while any of them lives.
 */
export function ownedParts(parts: TextIndexParts): TextIndexParts {
  const own = <T extends PostingSet | Uint16Array>(array: T): T => array.slice() as T;
  const p = parts.positions;
  return {
    ...parts,
    gramSets: new Map([...parts.gramSets].map(([key, set]) => [key, own(set)])),
    positions: {
      ...p,
      suffixOrder: own(p.suffixOrder),
      suffixKey: own(p.suffixKey),
      keys: own(p.keys),
      suffixArray: own(p.suffixArray),
      before: own(p.before),
      rankStart: own(p.rankStart),
      reviewStart: own(p.reviewStart),
      reviewTable: own(p.reviewTable),
      wordSets: p.wordSets.map(own),
      gapSets: p.gapSets.map(own),
    },
  };
}

export function textIndexFromParts(parts: TextIndexParts): TextIndex {
  const { n, gramSets } = parts;
  const positions: WordPositions = wordPositionsFrom(parts.positions);
  const vocabularyIndex = vocabularyIndexOf(positions.words, parts.trigrams);
  let bytes = positions.bytes;
  for (const set of gramSets.values()) bytes += set.byteLength;

  /** Reviews with a word containing `word` (3 or more code units). */
  const wordsContaining = (word: string): Bits => {
    const bits = emptyBits(n);
    for (const rank of vocabularyIndex.containing(word)) orInto(bits, positions.wordSets[rank]!);
    return bits;
  };

  return {
    bytes,
    match(needle) {
      if (needle.length <= 2) {
        const key = needle.length === 1 ? needle.charCodeAt(0) : 0x10000 + needle.charCodeAt(0) * 0x10000 + needle.charCodeAt(1);
        return toBits(gramSets.get(key), n);
      }
      const { words, gaps } = splitNeedle(needle);
      if (words.length === 0) return positions.inGaps(needle);
      if (words.length === 1 && gaps[0] === '' && gaps[1] === '') return wordsContaining(needle);
      return positions.phrase(words, gaps);
    },
  };
}

function gramBuilder(grams: Map<number, PostingBuilder>, key: number): PostingBuilder {
  let builder = grams.get(key);
  if (!builder) grams.set(key, (builder = new PostingBuilder()));
  return builder;
}

/** The ranks of the vocabulary words holding each trigram, ascending (what vocabularyIndexOf looks up). */
function vocabularyTrigrams(vocabulary: readonly string[]): Map<string, number[]> {
  const trigrams = new Map<string, number[]>();
  vocabulary.forEach((word, id) => {
    const seen = new Set<string>();
    for (let i = 0; i + 3 <= word.length; i++) {
      const trigram = word.slice(i, i + 3);
      if (seen.has(trigram)) continue;
      seen.add(trigram);
      let ids = trigrams.get(trigram);
      if (!ids) trigrams.set(trigram, (ids = []));
      ids.push(id);
    }
  });
  return trigrams;
}

/** Finds the vocabulary words containing a string of 3+ code units: a trigram index over the words, then `includes`. */
function vocabularyIndexOf(vocabulary: readonly string[], trigrams: ReadonlyMap<string, number[]>): { containing(run: string): number[] } {
  return {
    containing(run) {
      // The rarest of the run's trigrams gives the candidates; includes decides.
      let fewest: number[] | undefined;
      for (let i = 0; i + 3 <= run.length; i++) {
        const ids = trigrams.get(run.slice(i, i + 3));
        if (!ids) return [];
        if (!fewest || ids.length < fewest.length) fewest = ids;
      }
      return (fewest ?? []).filter((id) => vocabulary[id]!.includes(run));
    },
  };
}

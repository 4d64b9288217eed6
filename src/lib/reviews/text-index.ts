/**
 * The `query` index: which reviews' folded text (NFKC, lower case, title and
 * text; see fold in index.ts) contains a folded needle as a substring — exactly
 * the reviews `folded[p].includes(needle)` would find, without reading every
 * text. Built once per process, on the first text query.
 *
 * Three paths, by the needle's shape (lengths in UTF-16 code units, which is
 * what `includes` compares):
 *
 * 1. One or two code units: the exact postings of every 1- and 2-unit gram of
 *    the texts. No text is read; the cost is bounded by one bitset (n/32 words).
 * 2. Word characters only (letters, digits, marks: one run): an occurrence of
 *    such a needle can never cross a non-word character, so it lies inside one
 *    word of the text. The answer is the union of the postings of the distinct
 *    words that contain the needle — exact, no text read. The words come from a
 *    trigram index over the vocabulary (small next to the texts), each checked
 *    with `includes`.
 * 3. Anything else (several words, punctuation): every word run of the needle
 *    lies inside a word of the text and every 2-unit gram of it occurs in the
 *    text, so the intersection of those sets holds every match; each candidate
 *    is then checked with `includes`. The cost grows with the candidates, i.e.
 *    with how common the phrase is (docs/performance.md has the figures).
 *
 * Positions are the newest-first positions of the review index.
 */
import { andInto, emptyBits, orInto, PostingBuilder, toBits, type Bits, type PostingSet } from './postings.ts';

export interface TextIndex {
  /** The reviews whose folded text contains `needle` (already folded, non-empty), as a bitset of positions. */
  match(needle: string): Bits;
}

/** Phrase candidates are narrowed by at most this many of the needle's rarest 2-unit grams. */
const MAX_GRAM_FILTERS = 6;

export function buildTextIndex(folded: readonly string[]): TextIndex {
  const n = folded.length;
  // Gram keys: a unit alone is its code (< 2^16); a pair is 2^16 + first * 2^16 + second. Pairs of
  // ASCII units, nearly all of them, are collected in a flat array (no hashing), the rest in a map.
  const asciiPairs: (PostingBuilder | undefined)[] = new Array(0x4000);
  const grams = new Map<number, PostingBuilder>();
  const words = new Map<string, number>();
  const wordPostings: PostingBuilder[] = [];

  for (let position = 0; position < n; position++) {
    const text = folded[position]!;
    let wordStart = -1;
    let unit = text.length > 0 ? text.charCodeAt(0) : -1;
    for (let i = 0; i <= text.length; i++) {
      const next = i + 1 < text.length ? text.charCodeAt(i + 1) : -1;
      if (unit >= 0) {
        gramBuilder(grams, unit).add(position, n);
        if (next >= 0) {
          if ((unit | next) < 0x80) (asciiPairs[(unit << 7) | next] ??= new PostingBuilder()).add(position, n);
          else gramBuilder(grams, 0x10000 + unit * 0x10000 + next).add(position, n);
        }
      }
      if (unit >= 0 && isWordUnit(unit)) {
        if (wordStart < 0) wordStart = i;
      } else if (wordStart >= 0) {
        const word = text.slice(wordStart, i);
        let id = words.get(word);
        if (id === undefined) {
          id = wordPostings.length;
          words.set(word, id);
          wordPostings.push(new PostingBuilder());
        }
        wordPostings[id]!.add(position, n);
        wordStart = -1;
      }
      unit = next;
    }
  }
  asciiPairs.forEach((builder, key) => {
    if (builder) grams.set(0x10000 + (key >>> 7) * 0x10000 + (key & 0x7f), builder);
  });

  const gramSets = new Map<number, PostingSet>();
  for (const [key, builder] of grams) gramSets.set(key, builder.finish());
  const vocabulary = [...words.keys()];
  const wordSets = wordPostings.map((builder) => builder.finish());
  const vocabularyIndex = buildVocabularyIndex(vocabulary);

  const gramSet = (text: string, at: number, length: 1 | 2): PostingSet | undefined =>
    gramSets.get(length === 1 ? text.charCodeAt(at) : 0x10000 + text.charCodeAt(at) * 0x10000 + text.charCodeAt(at + 1));

  /** Reviews with a word containing `run` (a word run of length >= 3). */
  const wordsContaining = (run: string): Bits => {
    const bits = emptyBits(n);
    for (const id of vocabularyIndex.containing(run)) orInto(bits, wordSets[id]!);
    return bits;
  };

  return {
    match(needle) {
      if (needle.length <= 2) return toBits(gramSet(needle, 0, needle.length as 1 | 2), n);
      const runs = wordRuns(needle);
      if (runs.length === 1 && runs[0]!.length === needle.length) return wordsContaining(needle);

      // A superset of the matches: each word run inside a word, each 2-unit gram present.
      let candidates: Bits | undefined;
      const narrow = (set: Bits | PostingSet | undefined) => {
        if (candidates === undefined) candidates = set instanceof Uint32Array ? Uint32Array.from(set) : toBits(set, n);
        else andInto(candidates, set, n);
      };
      for (const run of runs) if (run.length >= 3) narrow(wordsContaining(run));
      const distinctGrams = new Map<number, PostingSet | undefined>();
      for (let i = 0; i + 1 < needle.length; i++) distinctGrams.set(needle.charCodeAt(i) * 0x10000 + needle.charCodeAt(i + 1), gramSet(needle, i, 2));
      const rarest = [...distinctGrams.values()].sort((a, b) => sizeHint(a) - sizeHint(b)).slice(0, MAX_GRAM_FILTERS);
      for (const set of rarest) narrow(set);

      // Keep the candidates whose text really contains the needle.
      const bits = candidates!;
      for (let w = 0; w < bits.length; w++) {
        let word = bits[w]!;
        while (word !== 0) {
          const low = word & -word;
          const position = (w << 5) + (31 - Math.clz32(low));
          if (!folded[position]!.includes(needle)) bits[w]! &= ~low;
          word ^= low;
        }
      }
      return bits;
    },
  };
}

function gramBuilder(grams: Map<number, PostingBuilder>, key: number): PostingBuilder {
  let builder = grams.get(key);
  if (!builder) grams.set(key, (builder = new PostingBuilder()));
  return builder;
}

/** A set's size for ordering only: a bitset counts as larger than any list (it is common). */
function sizeHint(set: PostingSet | undefined): number {
  if (set === undefined) return -1;
  return set instanceof Uint32Array ? Number.MAX_SAFE_INTEGER : set.length;
}

/**
 * Word units: ASCII letters and digits, and any other code unit that is a
 * letter, number or mark (surrogates count as word units). Any fixed rule
 * would keep path 2 exact, as long as needle and texts share it; this one
 * makes words what a reader calls words.
 */
const wordUnitCache = new Uint8Array(0x10000); // 0 unknown, 1 word, 2 not
const WORD_UNIT = /^[\p{L}\p{N}\p{M}]$/u;

function isWordUnit(unit: number): boolean {
  if (unit < 0x80) return (unit >= 0x61 && unit <= 0x7a) || (unit >= 0x30 && unit <= 0x39) || (unit >= 0x41 && unit <= 0x5a);
  let known = wordUnitCache[unit]!;
  if (known === 0) {
    known = (unit >= 0xd800 && unit <= 0xdfff) || WORD_UNIT.test(String.fromCharCode(unit)) ? 1 : 2;
    wordUnitCache[unit] = known;
  }
  return known === 1;
}

/** The maximal runs of word units in `text`. */
function wordRuns(text: string): string[] {
  const runs: string[] = [];
  let start = -1;
  for (let i = 0; i <= text.length; i++) {
    if (i < text.length && isWordUnit(text.charCodeAt(i))) {
      if (start < 0) start = i;
    } else if (start >= 0) {
      runs.push(text.slice(start, i));
      start = -1;
    }
  }
  return runs;
}

/** Finds the vocabulary words containing a string of 3+ code units: a trigram index over the words, then `includes`. */
function buildVocabularyIndex(vocabulary: readonly string[]): { containing(run: string): number[] } {
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

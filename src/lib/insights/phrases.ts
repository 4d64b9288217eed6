/**
 * Multi-word phrase matching over tokens: a trie of lemma sequences, matched
 * longest first, where each phrase word matches a token's lemma or its
 * lowercase form or its written form ("showed up" and "show up" both match "showed up").
 */
import type { Token } from './sentences.ts';

interface Node<T> {
  next: Map<string, Node<T>>;
  value?: T;
}

export interface PhraseMatch<T> {
  start: number;
  /** Exclusive. */
  end: number;
  value: T;
}

/**
 * For each word, the tries (one bit each) that have a phrase starting with it. A sentence is
 * scanned by seven tries, at nearly every position, and nearly every position starts no phrase:
 * a token's bits are looked up once (`startsOf`) and each trie then rejects it with a bit test
 * instead of three or four map lookups of its own.
 */
const startBits = new Map<string, number>();
let trieCount = 0;
/** Bumped by every phrase added, so that bits a token got before are worked out again. */
let generation = 0;

function startsOf(token: Token): number {
  if (token.startsGeneration !== generation) {
    token.starts =
      (startBits.get(token.lemma) ?? 0) |
      (startBits.get(token.normal) ?? 0) |
      (startBits.get(token.lower) ?? 0) |
      (token.normal === "n't" ? (startBits.get('not') ?? 0) : 0);
    token.startsGeneration = generation;
  }
  return token.starts;
}

export class PhraseTrie<T> {
  private readonly root: Node<T> = { next: new Map() };
  /** This trie's bit in `startBits`; 0 past 31 tries (then every position is looked up). */
  private readonly bit = trieCount < 31 ? 1 << trieCount++ : 0;

  /** Adds a phrase; `merge` decides what happens when it is already present. */
  add(phrase: string, value: T, merge: (old: T, value: T) => T = (_old, v) => v): void {
    let node = this.root;
    const words = splitPhrase(phrase);
    if (words.length > 0) {
      startBits.set(words[0], (startBits.get(words[0]) ?? 0) | this.bit);
      generation += 1;
    }
    for (const word of words) {
      let child = node.next.get(word);
      if (!child) {
        child = { next: new Map() };
        node.next.set(word, child);
      }
      node = child;
    }
    node.value = node.value === undefined ? value : merge(node.value, value);
  }

  /** The longest phrase starting at `start`, or undefined. Punctuation never matches a word. */
  longestAt(tokens: readonly Token[], start: number, end = tokens.length): PhraseMatch<T> | undefined {
    // No phrase starts with this word (the loop below would find no child of the root).
    if (start < end && this.bit !== 0 && !tokens[start].punct && (startsOf(tokens[start]) & this.bit) === 0) return undefined;
    let node: Node<T> | undefined = this.root;
    let best: PhraseMatch<T> | undefined;
    for (let i = start; i < end && node; i += 1) {
      const token = tokens[i];
      if (token.normal === '-' && i > start) continue; // "clean-up" is "clean up"
      if (token.punct) break;
      node =
        node.next.get(token.lemma) ??
        node.next.get(token.normal) ??
        // wink normalises some spellings ("through" → "thru"): the word as written matches too.
        node.next.get(token.lower) ??
        (token.normal === "n't" ? node.next.get('not') : undefined);
      if (node?.value !== undefined) best = { start, end: i + 1, value: node.value };
    }
    return best;
  }

  /** Non-overlapping matches, left to right, longest at each position. */
  scan(tokens: readonly Token[], from = 0, to = tokens.length): PhraseMatch<T>[] {
    const out: PhraseMatch<T>[] = [];
    for (let i = from; i < to; ) {
      const match = this.longestAt(tokens, i, to);
      if (match) {
        out.push(match);
        i = match.end;
      } else i += 1;
    }
    return out;
  }
}

/** Phrases are split on spaces and hyphens, as the tokenizer splits "clean-up" into "clean", "-", "up". */
export function splitPhrase(phrase: string): string[] {
  return phrase.toLowerCase().split(/[\s-]+/).filter(Boolean);
}

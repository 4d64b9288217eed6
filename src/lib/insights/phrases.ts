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

export class PhraseTrie<T> {
  private readonly root: Node<T> = { next: new Map() };

  /** Adds a phrase; `merge` decides what happens when it is already present. */
  add(phrase: string, value: T, merge: (old: T, value: T) => T = (_old, v) => v): void {
    let node = this.root;
    // Split on spaces and hyphens, as the tokenizer splits "clean-up" into "clean", "-", "up".
    for (const word of phrase
      .toLowerCase()
      .split(/[\s-]+/)
      .filter(Boolean)) {
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
    for (let i = from; i < to;) {
      const match = this.longestAt(tokens, i, to);
      if (match) {
        out.push(match);
        i = match.end;
      } else i += 1;
    }
    return out;
  }
}

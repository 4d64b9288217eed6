/**
 * The rules of the polarity scorer that look around one word: resolvers,
 * purposes ("to fix"), comparisons, negations that intensify, conditions a
 * repair answers, and the clauses contrast markers cut.
 */
import {
  COMPARATIVES,
  NEGATION_WINDOW,
  PRAISE_ENOUGH_VALENCE,
  PRAISE_VERBS,
  PROBLEM_WORDS,
  REPAIR_CONDITION_WINDOW,
  REPAIR_SCOPE_STOPPERS,
  REPAIRED_CONDITION_VALENCE,
  RESOLVERS,
} from './lexicon.ts';
import type { Token } from './sentences.ts';
import {
  breaksScope,
  conditionTrie,
  either,
  isDiscovery,
  isEmphatic,
  isFirstPerson,
  isModal,
  repairTrie,
} from './word-facts.ts';

/** Flags by token position within one sentence (1 = set). */
export type Flags = Uint8Array;

export function isResolver(tokens: readonly Token[], i: number): boolean {
  return either(RESOLVERS, tokens[i]) && !foundByCustomer(tokens, i);
}

/** Is one of the words in [from, to) (within the sentence) emphatic ("so", "such", "worse")? */
export function emphaticWithin(tokens: readonly Token[], from: number, to: number): boolean {
  for (let j = from; j < Math.min(to, tokens.length); j += 1) if (isEmphatic(tokens[j])) return true;
  return false;
}

/** "to fix", "to repair": an infinitive resolver states a purpose. */
export function isInfinitive(tokens: readonly Token[], i: number): boolean {
  return i > 0 && tokens[i - 1].normal === 'to';
}

/** "than I'd hoped", "than we expected": the expectation verb is the reference of a comparison. */
export function thanBefore(tokens: readonly Token[], i: number): boolean {
  for (let j = i - 1; j >= Math.max(0, i - 4); j -= 1) {
    if (tokens[j].normal === 'than') return true;
    if (tokens[j].punct || !tokens[j].stop) return false;
  }
  return false;
}

/**
 * Negations that intensify: "can't stress/say/recommend/thank … enough" (the
 * negator's scope holds a praise verb, then "enough") and "couldn't be
 * happier", "couldn't ask for better", "could not have been worse" (a negated
 * can/could before a comparative). Neither flips anything; the first makes the
 * next opinion stronger, or is praise itself when none follows.
 */
export function intensifyingNegation(
  tokens: readonly Token[],
  i: number,
  valences: number[],
  markerAt: Flags,
): boolean {
  const n = tokens.length;
  const modal = (i > 0 && isModal(tokens[i - 1])) || tokens[i].normal === 'cannot';
  if (!modal) return false;
  let praise = -1;
  for (let j = i + 1; j < Math.min(n, i + 1 + NEGATION_WINDOW + 2); j += 1) {
    if (markerAt[j] || breaksScope(tokens[j])) break;
    if (either(PRAISE_VERBS, tokens[j])) praise = j;
    if (tokens[j].normal === 'enough' && praise >= 0) {
      for (let k = praise; k <= j; k += 1) valences[k] = 0;
      let opinion = -1;
      for (let k = j + 1; k < n; k += 1) {
        if (markerAt[k] || breaksScope(tokens[k])) break;
        if (valences[k] !== 0) {
          opinion = k;
          break;
        }
      }
      if (opinion >= 0) valences[opinion] *= 1.5;
      else valences[i] = PRAISE_ENOUGH_VALENCE;
      return true;
    }
    if (COMPARATIVES.has(tokens[j].normal) && j <= i + 4) return true;
  }
  return false;
}

/**
 * Condition words ("rotted", "loose", "cracked", "pulling away") within
 * REPAIR_CONDITION_WINDOW words after a repair or diagnosis verb in the same
 * segment describe the roof as the company found it: after a repair verb a
 * found-and-fixed problem (+1, or the problem word's own flipped value when it
 * is a resolvable problem and is not already flipped), after a diagnosis verb
 * nothing. "still", "again", "now" end the scope: "replaced it and it's still loose".
 */
export function repairedConditions(
  tokens: readonly Token[],
  valences: number[],
  negated: Flags,
  problem: Flags,
  markerAt: Flags,
): boolean {
  const n = tokens.length;
  let changed = false;
  for (const verb of repairTrie.scan(tokens)) {
    if (negated[verb.start] || isInfinitive(tokens, verb.start)) continue;
    if (verb.value === 'repair' && foundByCustomer(tokens, verb.start)) continue;
    let words = 0;
    // A repair reaches the next few words of its segment; a diagnosis the rest of its clause (what was found, listed).
    const window = verb.value === 'repair' ? REPAIR_CONDITION_WINDOW : Infinity;
    for (let j = verb.end; j < n && words < window; j += 1) {
      if (markerAt[j]) break;
      if (verb.value === 'repair' && breaksScope(tokens[j])) break;
      if (tokens[j].punct) continue;
      words += 1;
      if (REPAIR_SCOPE_STOPPERS.has(tokens[j].normal)) break;
      const m = conditionTrie.longestAt(tokens, j);
      if (!m) continue;
      // "the crew cracked a skylight": a damage verb after its subject is an act, not a condition.
      const before = tokens[m.start - 1];
      if (
        tokens[m.start].pos === 'VERB' &&
        before &&
        (before.pos === 'PRON' || before.pos === 'NOUN' || before.pos === 'PROPN')
      )
        continue;
      for (let k = m.start; k < m.end; k += 1) {
        if (valences[k] >= 0 || negated[k]) continue;
        // Resolvable problems keep the resolver rule (step 4); the rest become a found-and-fixed problem or a finding.
        if (verb.value === 'repair' && problem[k]) continue;
        valences[k] = verb.value === 'repair' ? REPAIRED_CONDITION_VALENCE : 0;
        problem[k] = 0;
        changed = true;
      }
      j = m.end - 1;
    }
  }
  return changed;
}

function foundByCustomer(tokens: readonly Token[], i: number): boolean {
  return isDiscovery(tokens[i]) && tokens.slice(Math.max(0, i - 2), i).some(isFirstPerson);
}

/** A problem word flipped to positive by a resolver is not flipped back by a negator that only reached the problem. */
export function resolvedIn(
  boundaries: Array<[number, number]>,
  index: number,
  tokens: readonly Token[],
  negated: Flags,
): boolean {
  const [start, end] = boundaries.find(([s, e]) => index >= s && index < e) ?? [0, 0];
  for (let i = start; i < end; i += 1) {
    if (!negated[i] && !PROBLEM_WORDS.has(tokens[i].lemma) && isResolver(tokens, i)) return true;
  }
  return false;
}

export function rangeConsumed(consumed: Flags, start: number, end: number): boolean {
  for (let i = start; i < end; i += 1) if (consumed[i]) return true;
  return false;
}

/** Clause [start, end) ranges; the marker words belong to the clause they open. */
export function clauseBoundaries(
  markers: ReadonlyArray<{ start: number; end: number }>,
  n: number,
): Array<[number, number]> {
  const cuts = [0, ...markers.map((m) => m.start).filter((s) => s > 0), n];
  const out: Array<[number, number]> = [];
  for (let i = 0; i + 1 < cuts.length; i += 1) if (cuts[i + 1] > cuts[i]) out.push([cuts[i], cuts[i + 1]]);
  return out;
}

export function clauseWeight(
  markers: ReadonlyArray<{ start: number; end: number; value: 'after' | 'before' }>,
  start: number,
  end: number,
  index: number,
  count: number,
): number {
  if (count === 1) return 1;
  const opening = markers.find((m) => m.start === start);
  if (opening?.value === 'before') return 0.5;
  if (opening?.value === 'after') return 1.5;
  // A clause followed by "but" is the weaker one; one followed by "although" stays.
  const closing = markers.find((m) => m.start === end);
  if (closing?.value === 'after') return 0.5;
  return index === count - 1 ? 1.5 : 1;
}

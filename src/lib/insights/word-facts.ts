/**
 * What the polarity scorer knows of each word and phrase before it reads a
 * sentence: the lexicon's phrase tries, a word's facts (one bit per question
 * scoreSentence asks of it) and its general valence, both kept on the Token.
 */
import {
  COMPARATIVES,
  CONDITION_WORDS,
  CONTRAST_MARKERS,
  DIAGNOSIS_VERBS,
  EXPECTATION_VERBS,
  DOMAIN_VALENCE,
  FIXED_EXPRESSIONS,
  INTENSIFIERS,
  NEGATION_EXTENDERS,
  NEGATION_STOPPERS,
  NEGATORS,
  PRAISE_VERBS,
  PROBLEM_WORDS,
  REPAIR_SCOPE_STOPPERS,
  REPAIR_VERBS,
  RESOLVERS,
} from './lexicon.ts';
import { PhraseTrie } from './phrases.ts';
import { winkValence, type Token } from './sentences.ts';

/** Flags by token position within one sentence (1 = set). */
export type Flags = Uint8Array;

export const fixedTrie = new PhraseTrie<number>();
for (const [phrase, value] of Object.entries(FIXED_EXPRESSIONS)) fixedTrie.add(phrase, value);
export const domainTrie = new PhraseTrie<number>();
for (const [phrase, value] of Object.entries(DOMAIN_VALENCE)) domainTrie.add(phrase, value);
export const contrastTrie = new PhraseTrie<'after' | 'before'>();
for (const [phrase, kind] of Object.entries(CONTRAST_MARKERS)) contrastTrie.add(phrase, kind);
export const repairTrie = new PhraseTrie<'repair' | 'diagnosis'>();
for (const verb of REPAIR_VERBS) repairTrie.add(verb, 'repair');
for (const verb of DIAGNOSIS_VERBS) repairTrie.add(verb, 'diagnosis');
export const conditionTrie = new PhraseTrie<true>();
for (const word of CONDITION_WORDS) conditionTrie.add(word, true);
export const intensifierTrie = new PhraseTrie<number>();
for (const [phrase, factor] of Object.entries(INTENSIFIERS)) intensifierTrie.add(phrase, factor);

const EMPHATIC = new Set(['so', 'such', 'more', 'worse', 'better']);
const COMMON_VERBS = new Set(['go', 'get', 'do', 'make', 'have', 'be', 'take', 'come', 'give', 'put', 'say', 'see', 'know', 'let', 'keep', 'set', 'run', 'leave']);

export function isWord(token: Token): boolean {
  return !token.punct;
}

/*
 * What scoreSentence asks of a word, one bit each. Each is a pure function of the token's
 * fields (text, normal, lemma, pos, punct, stop), so it is worked out once per Token and kept on
 * it (`facts`): splitSentences shares one Token between every occurrence of a word, and the
 * dozen Set lookups and two regular expressions a word costs are then paid once per distinct
 * word instead of at every occurrence. An unshared Token works the same, only without the reuse.
 */
export const NEGATOR = 1 << 0; // NEGATORS has its lemma or normal
export const NEGATOR_NORMAL = 1 << 1; // NEGATORS has its normal
export const COMMON_VERB = 1 << 2; // a form of one of COMMON_VERBS, tagged VERB
export const PROPER_NAME = 1 << 3; // PROPN, capitalised, not all capitals ("Charcoal")
export const EXPECTATION = 1 << 4;
export const PROBLEM = 1 << 5; // PROBLEM_WORDS has its lemma or normal
export const PROBLEM_LEMMA = 1 << 6;
export const RESOLVER = 1 << 7;
export const DISCOVERY_WORD = 1 << 8;
export const FIRST_PERSON_WORD = 1 << 9;
export const EMPHATIC_WORD = 1 << 10;
export const NEGATION_STOPPER = 1 << 11;
export const NEGATION_EXTENDER = 1 << 12;
export const CONTENT = 1 << 13; // a content verb, noun or adjective
export const PRAISE = 1 << 14;
export const COMPARATIVE = 1 << 15;
export const BANG = 1 << 16; // "!" or a word with one
export const SCOPE_STOPPER = 1 << 17; // REPAIR_SCOPE_STOPPERS has its normal
export const PUNCT_BREAK = 1 << 18; // punctuation other than "-": ends negation and repair scopes
export const SEGMENT_BREAK = 1 << 19; // punctuation other than "-" and "'": ends a segment
export const THAN = 1 << 20;
export const TO = 1 << 21;
export const ENOUGH = 1 << 22;
export const MODAL = 1 << 23; // "can" (lemma), "could", "ca" (of "can't")
export const CANNOT = 1 << 24;
export const NEVER = 1 << 25; // lemma "never"
export const PROBLEM_START = 1 << 26; // PROBLEM_WORDS has its lemma, or a phrase that starts with it

/** PROBLEM_WORDS entries of more than one word. */
const PROBLEM_PHRASES = [...PROBLEM_WORDS].filter((entry) => entry.includes(' '));

/** Discovery verbs resolve only when the company is the one finding: "they found the leak", not "I found nails in the yard". */
const DISCOVERY = new Set(['find', 'found', 'spot', 'spotted', 'catch', 'caught']);
const FIRST_PERSON = new Set(['i', 'we']);

export function factsOf(t: Token): number {
  if (t.facts >= 0) return t.facts;
  const { lemma, normal, pos } = t;
  const either = (set: ReadonlySet<string>, bit: number) => (set.has(lemma) || set.has(normal) ? bit : 0);
  const facts =
    either(NEGATORS, NEGATOR) |
    (NEGATORS.has(normal) ? NEGATOR_NORMAL : 0) |
    (COMMON_VERBS.has(lemma) && pos === 'VERB' ? COMMON_VERB : 0) |
    (pos === 'PROPN' && /^\p{Lu}/u.test(t.text) && !/^\p{Lu}+$/u.test(t.text) ? PROPER_NAME : 0) |
    either(EXPECTATION_VERBS, EXPECTATION) |
    either(PROBLEM_WORDS, PROBLEM) |
    (PROBLEM_WORDS.has(lemma) ? PROBLEM_LEMMA : 0) |
    either(RESOLVERS, RESOLVER) |
    either(DISCOVERY, DISCOVERY_WORD) |
    (FIRST_PERSON.has(normal) ? FIRST_PERSON_WORD : 0) |
    (EMPHATIC.has(lemma) ? EMPHATIC_WORD : 0) |
    (NEGATION_STOPPERS.has(normal) ? NEGATION_STOPPER : 0) |
    (NEGATION_EXTENDERS.has(normal) ? NEGATION_EXTENDER : 0) |
    (!t.stop && (pos === 'VERB' || pos === 'NOUN' || pos === 'ADJ') ? CONTENT : 0) |
    either(PRAISE_VERBS, PRAISE) |
    (COMPARATIVES.has(normal) ? COMPARATIVE : 0) |
    (normal === '!' || t.text.includes('!') ? BANG : 0) |
    (REPAIR_SCOPE_STOPPERS.has(normal) ? SCOPE_STOPPER : 0) |
    (t.punct && normal !== '-' ? PUNCT_BREAK : 0) |
    (t.punct && normal !== '-' && normal !== "'" ? SEGMENT_BREAK : 0) |
    (normal === 'than' ? THAN : 0) |
    (normal === 'to' ? TO : 0) |
    (normal === 'enough' ? ENOUGH : 0) |
    (lemma === 'can' || normal === 'could' || normal === 'ca' ? MODAL : 0) |
    (normal === 'cannot' ? CANNOT : 0) |
    (lemma === 'never' ? NEVER : 0) |
    (PROBLEM_WORDS.has(lemma) || PROBLEM_PHRASES.some((entry) => entry.startsWith(`${lemma} `)) ? PROBLEM_START : 0);
  t.facts = facts;
  return facts;
}

/**
 * A word's valence from wink's general lexicon, kept on its Token like `facts`. The lemma is
 * probed only for inflected adjectives and verbs ("loved" → "love"): common base verbs ("go",
 * "get") carry spurious single-word scores in wink's pattern lexicon.
 */
export function generalValence(t: Token): number {
  if (!Number.isNaN(t.valence)) return t.valence;
  const inflected = t.lemma !== t.normal && (t.pos === 'ADJ' || t.pos === 'VERB') && !COMMON_VERBS.has(t.lemma);
  t.valence = winkValence(t.normal) || (inflected ? winkValence(t.lemma) : 0);
  return t.valence;
}

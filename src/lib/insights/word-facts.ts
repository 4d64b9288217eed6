/**
 * What the polarity scorer knows of words and phrases before it reads a
 * sentence: the lexicon's phrase tries, and the tests of one word it asks.
 */
import {
  CONDITION_WORDS,
  CONTRAST_MARKERS,
  DIAGNOSIS_VERBS,
  DOMAIN_VALENCE,
  FIXED_EXPRESSIONS,
  INTENSIFIERS,
  NEGATORS,
  REPAIR_VERBS,
} from './lexicon.ts';
import { PhraseTrie } from './phrases.ts';
import { winkValence, type Token } from './sentences.ts';

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
const COMMON_VERBS = new Set([
  'go',
  'get',
  'do',
  'make',
  'have',
  'be',
  'take',
  'come',
  'give',
  'put',
  'say',
  'see',
  'know',
  'let',
  'keep',
  'set',
  'run',
  'leave',
]);
/** Discovery verbs resolve only when the company is the one finding: "they found the leak", not "I found nails in the yard". */
const DISCOVERY = new Set(['find', 'found', 'spot', 'spotted', 'catch', 'caught']);
const FIRST_PERSON = new Set(['i', 'we']);

/** The word's lemma or normal form is in `set`. */
export const either = (set: ReadonlySet<string>, t: Token): boolean => set.has(t.lemma) || set.has(t.normal);

export const isNegator = (t: Token): boolean => either(NEGATORS, t);
/** A form of one of the commonest verbs ("went", "got"). */
export const isCommonVerb = (t: Token): boolean => COMMON_VERBS.has(t.lemma) && t.pos === 'VERB';
/** A capitalised name, not all capitals ("Charcoal", a shingle colour). */
export const isProperName = (t: Token): boolean =>
  t.pos === 'PROPN' && /^\p{Lu}/u.test(t.text) && !/^\p{Lu}+$/u.test(t.text);
export const isDiscovery = (t: Token): boolean => either(DISCOVERY, t);
export const isFirstPerson = (t: Token): boolean => FIRST_PERSON.has(t.normal);
export const isEmphatic = (t: Token): boolean => EMPHATIC.has(t.lemma);
/** A content verb, noun or adjective. */
export const isContent = (t: Token): boolean => !t.stop && (t.pos === 'VERB' || t.pos === 'NOUN' || t.pos === 'ADJ');
export const hasBang = (t: Token): boolean => t.normal === '!' || t.text.includes('!');
/** Punctuation other than "-": ends negation and repair scopes. */
export const breaksScope = (t: Token): boolean => t.punct && t.normal !== '-';
/** Punctuation other than "-" and "'": ends a segment. */
export const breaksSegment = (t: Token): boolean => breaksScope(t) && t.normal !== "'";
/** "can" (lemma), "could", "ca" (of "can't"). */
export const isModal = (t: Token): boolean => t.lemma === 'can' || t.normal === 'could' || t.normal === 'ca';

/**
 * A word's valence from wink's general lexicon. The lemma is probed only for inflected adjectives
 * and verbs ("loved" → "love"): common base verbs ("go", "get") carry spurious single-word scores
 * in wink's pattern lexicon.
 */
export function generalValence(t: Token): number {
  const inflected = t.lemma !== t.normal && (t.pos === 'ADJ' || t.pos === 'VERB') && !COMMON_VERBS.has(t.lemma);
  return winkValence(t.normal) || (inflected ? winkValence(t.lemma) : 0);
}

/**
 * Sentence polarity that an editor can follow word by word.
 *
 * 1. Every word gets a valence (AFINN scale, -5..5): a fixed expression ("no
 *    complaints", "couldn't be happier") as written; else the roofing lexicon
 *    ("leak" -3, "sloppy" -3, "on time" +2); else wink-nlp's general English
 *    lexicon, probed once per distinct word.
 * 2. Negation: "not", "n't", "never", "no", "nobody", "without", ... flip the
 *    next NEGATION_WINDOW words of the same clause ("didn't clean up" < 0),
 *    except negations that intensify ("can't stress enough how good",
 *    "couldn't be happier").
 * 3. Intensifiers and downtoners scale the next sentiment word ("very late",
 *    "a bit pricey").
 * 4. Resolvers turn a problem into good news in the same clause ("the leak is
 *    finally gone", "fixed the drip") unless they are negated themselves or
 *    in the infinitive ("to fix a leak": a purpose, the problem counts 0).
 *    Condition words after a repair verb ("replaced a rotted section") are a
 *    found-and-fixed problem (+1); after a diagnosis verb, findings (0).
 * 5. Contrast markers split the sentence into clauses: the clause after "but"
 *    counts 1.5×, the one before 0.5×; a clause opened by "although" 0.5×.
 *    Commas and semicolons split clauses further into segments, so "great roof,
 *    terrible communication" keeps two opinions apart.
 * 6. Raw sums are normalised to -1..1 with x / √(x² + 15) (as VADER does).
 */
import {
  BARE_NEGATION_VALENCE,
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
  NEGATION_WINDOW,
  NEGATORS,
  PRAISE_ENOUGH_VALENCE,
  PRAISE_VERBS,
  PROBLEM_WORDS,
  REPAIR_CONDITION_WINDOW,
  REPAIR_SCOPE_STOPPERS,
  REPAIR_VERBS,
  REPAIRED_CONDITION_VALENCE,
  RESOLVERS,
} from './lexicon.ts';
import { PhraseTrie } from './phrases.ts';
import { winkValence, type Sentence, type Token } from './sentences.ts';

export type Polarity = 'positive' | 'neutral' | 'negative';

/** A normalised score at or beyond this (in absolute value) is an opinion; below it, neutral. */
export const POLARITY_THRESHOLD = 0.1;
/** Two segments at least this strong and of opposite sign make a sentence mixed. */
export const MIXED_THRESHOLD = 0.2;

export interface Segment {
  start: number;
  /** Exclusive. */
  end: number;
  /** Normalised, -1..1. */
  score: number;
}

export interface Clause {
  start: number;
  end: number;
  weight: number;
  score: number;
  segments: Segment[];
}

export interface ScoredSentence {
  sentence: Sentence;
  /** Final valence of each token after negation, intensifiers and resolvers (0 for most). */
  valences: number[];
  clauses: Clause[];
  /** Contrast-weighted score of the whole sentence, -1..1. */
  score: number;
  /** Holds clear positive and clear negative opinions at once. */
  mixed: boolean;
  /** Mixed sentences are neutral overall; their aspects keep their own polarity. */
  polarity: Polarity;
}

const fixedTrie = new PhraseTrie<number>();
for (const [phrase, value] of Object.entries(FIXED_EXPRESSIONS)) fixedTrie.add(phrase, value);
const domainTrie = new PhraseTrie<number>();
for (const [phrase, value] of Object.entries(DOMAIN_VALENCE)) domainTrie.add(phrase, value);
const contrastTrie = new PhraseTrie<'after' | 'before'>();
for (const [phrase, kind] of Object.entries(CONTRAST_MARKERS)) contrastTrie.add(phrase, kind);
const repairTrie = new PhraseTrie<'repair' | 'diagnosis'>();
for (const verb of REPAIR_VERBS) repairTrie.add(verb, 'repair');
for (const verb of DIAGNOSIS_VERBS) repairTrie.add(verb, 'diagnosis');
const conditionTrie = new PhraseTrie<true>();
for (const word of CONDITION_WORDS) conditionTrie.add(word, true);
const intensifierTrie = new PhraseTrie<number>();
for (const [phrase, factor] of Object.entries(INTENSIFIERS)) intensifierTrie.add(phrase, factor);

const EMPHATIC = new Set(['so', 'such', 'more', 'worse', 'better']);
const COMMON_VERBS = new Set(['go', 'get', 'do', 'make', 'have', 'be', 'take', 'come', 'give', 'put', 'say', 'see', 'know', 'let', 'keep', 'set', 'run', 'leave']);

export function normalise(raw: number): number {
  return raw === 0 ? 0 : raw / Math.sqrt(raw * raw + 15);
}

export function polarityOf(score: number, threshold = POLARITY_THRESHOLD): Polarity {
  return score >= threshold ? 'positive' : score <= -threshold ? 'negative' : 'neutral';
}

function isWord(token: Token): boolean {
  return !token.punct;
}

/*
 * What scoreSentence asks of a word, one bit each. Each is a pure function of the token's
 * fields (text, normal, lemma, pos, punct, stop), so it is worked out once per Token and kept on
 * it (`facts`): splitSentences shares one Token between every occurrence of a word, and the
 * dozen Set lookups and two regular expressions a word costs are then paid once per distinct
 * word instead of at every occurrence. An unshared Token works the same, only without the reuse.
 */
const NEGATOR = 1 << 0; // NEGATORS has its lemma or normal
const NEGATOR_NORMAL = 1 << 1; // NEGATORS has its normal
const COMMON_VERB = 1 << 2; // a form of one of COMMON_VERBS, tagged VERB
const PROPER_NAME = 1 << 3; // PROPN, capitalised, not all capitals ("Charcoal")
const EXPECTATION = 1 << 4;
const PROBLEM = 1 << 5; // PROBLEM_WORDS has its lemma or normal
const PROBLEM_LEMMA = 1 << 6;
const RESOLVER = 1 << 7;
const DISCOVERY_WORD = 1 << 8;
const FIRST_PERSON_WORD = 1 << 9;
const EMPHATIC_WORD = 1 << 10;
const NEGATION_STOPPER = 1 << 11;
const NEGATION_EXTENDER = 1 << 12;
const CONTENT = 1 << 13; // a content verb, noun or adjective
const PRAISE = 1 << 14;
const COMPARATIVE = 1 << 15;
const BANG = 1 << 16; // "!" or a word with one
const SCOPE_STOPPER = 1 << 17; // REPAIR_SCOPE_STOPPERS has its normal
const PUNCT_BREAK = 1 << 18; // punctuation other than "-": ends negation and repair scopes
const SEGMENT_BREAK = 1 << 19; // punctuation other than "-" and "'": ends a segment
const THAN = 1 << 20;
const TO = 1 << 21;
const ENOUGH = 1 << 22;
const MODAL = 1 << 23; // "can" (lemma), "could", "ca" (of "can't")
const CANNOT = 1 << 24;
const NEVER = 1 << 25; // lemma "never"
const PROBLEM_START = 1 << 26; // PROBLEM_WORDS has its lemma, or a phrase that starts with it

/** PROBLEM_WORDS entries of more than one word. */
const PROBLEM_PHRASES = [...PROBLEM_WORDS].filter((entry) => entry.includes(' '));

function factsOf(t: Token): number {
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
function generalValence(t: Token): number {
  if (!Number.isNaN(t.valence)) return t.valence;
  const inflected = t.lemma !== t.normal && (t.pos === 'ADJ' || t.pos === 'VERB') && !COMMON_VERBS.has(t.lemma);
  t.valence = winkValence(t.normal) || (inflected ? winkValence(t.lemma) : 0);
  return t.valence;
}

/**
 * scoreSentence's flags by token position (1 = set), reused from one sentence to the next
 * (scoreSentence is never re-entered, and reads no position past its sentence): six arrays
 * made and filled per sentence were over a quarter of its own time in a CPU profile at 10k
 * reviews. Longer than the sentence, once grown.
 */
type Flags = Uint8Array;
const flagArrays: Flags[] = [];
function clearedFlags(slot: number, n: number): Flags {
  let flags = flagArrays[slot];
  if (!flags || flags.length < n) flagArrays[slot] = flags = new Uint8Array(Math.max(64, 2 * n));
  flags.fill(0, 0, n);
  return flags;
}

export function scoreSentence(sentence: Sentence): ScoredSentence {
  const tokens = sentence.tokens;
  const n = tokens.length;
  const valences: number[] = [];
  for (let i = 0; i < n; i += 1) valences.push(0);
  const consumed = clearedFlags(0, n);
  const fixed = clearedFlags(1, n);
  const problem = clearedFlags(2, n);
  const problemPart = clearedFlags(3, n);

  // Contrast markers → clause boundaries ("but" inside a fixed expression such as "nothing but praise" is none).
  const fixedMatches = fixedTrie.scan(tokens);
  const markers = contrastTrie.scan(tokens).filter((m) => !fixedMatches.some((f) => m.start < f.end && f.start < m.end));
  const markerAt = clearedFlags(4, n);
  for (const m of markers) for (let i = m.start; i < m.end; i += 1) markerAt[i] = 1;

  // 1. Valences: fixed expressions, then the domain lexicon, then wink's general lexicon.
  for (const m of fixedMatches) {
    valences[m.start] = m.value;
    for (let i = m.start; i < m.end; i += 1) {
      fixed[i] = 1;
      consumed[i] = 1;
    }
  }
  for (let i = 0; i < n; ) {
    if (consumed[i]) {
      i += 1;
      continue;
    }
    const m = domainTrie.longestAt(tokens, i);
    if (m && !rangeConsumed(consumed, m.start, m.end)) {
      valences[m.start] = m.value;
      // A one-word match (most) is its lemma: its PROBLEM fact is this test, made once per word. A
      // longer one's phrase starts with its first word's lemma (a match never starts with punctuation),
      // and is joined only when some problem word or phrase starts so.
      const first = factsOf(tokens[m.start]);
      const isProblem =
        m.end - m.start === 1
          ? (first & PROBLEM) !== 0
          : ((first & PROBLEM_START) !== 0 && PROBLEM_WORDS.has(tokens.slice(m.start, m.end).filter(isWord).map((t) => t.lemma).join(' '))) ||
            PROBLEM_WORDS.has(tokens[m.start].normal);
      if (isProblem) {
        problem[m.start] = 1;
        for (let j = m.start; j < m.end; j += 1) problemPart[j] = 1;
      }
      for (let j = m.start; j < m.end; j += 1) consumed[j] = 1;
      i = m.end;
    } else i += 1;
  }
  for (let i = 0; i < n; i += 1) {
    const token = tokens[i];
    if (consumed[i] || token.punct || token.stop || markerAt[i]) continue;
    const facts = factsOf(token);
    if (facts & NEGATOR) continue;
    // Forms of the commonest verbs ("went", "got") and capitalised names mid-sentence ("Charcoal", a shingle colour) carry no opinion.
    if (facts & COMMON_VERB) continue;
    if (i > 0 && facts & PROPER_NAME) continue;
    // "slower than I'd hoped": the expectation is the yardstick, not an opinion.
    if (facts & EXPECTATION && thanBefore(tokens, i)) continue;
    const v = generalValence(token);
    valences[i] = v;
    if (v < 0 && facts & PROBLEM) problem[i] = 1;
  }

  // 2. Negation within the clause and segment: the next NEGATION_WINDOW words.
  const negated = clearedFlags(5, n);
  for (let i = 0; i < n; i += 1) {
    const token = tokens[i];
    if (fixed[i] || consumed[i] || !(factsOf(token) & NEGATOR)) continue;
    // "never been so rude", "never seen such a mess": an emphatic "never" strengthens instead.
    if (factsOf(token) & NEVER && emphaticWithin(tokens, i + 1, i + 4)) continue;
    if (intensifyingNegation(tokens, i, valences, markerAt)) continue;
    let words = 0;
    let window = NEGATION_WINDOW;
    let opinion = false;
    let content = false;
    for (let j = i + 1; j < n && words < window; j += 1) {
      const facts = factsOf(tokens[j]);
      if (facts & PUNCT_BREAK) break;
      if (markerAt[j] || facts & NEGATION_STOPPER) break;
      if (tokens[j].punct) continue;
      words += 1;
      if (facts & NEGATION_EXTENDER) window += 3;
      if (fixed[j] || facts & NEGATOR_NORMAL) continue;
      negated[j] = 1;
      if (valences[j] !== 0) opinion = true;
      if (facts & CONTENT) content = true;
    }
    // "they didn't call", "no one told us": a negation with nothing to flip still reports something not done.
    if (!opinion && content && valences[i] === 0) valences[i] = BARE_NEGATION_VALENCE;
  }

  // 3. Intensifiers scale the next sentiment-bearing word (within three words).
  for (const m of intensifierTrie.scan(tokens)) {
    if (fixed[m.start]) continue;
    for (let j = m.end; j < Math.min(n, m.end + 3); j += 1) {
      if (tokens[j].punct) break;
      if (valences[j] !== 0) {
        valences[j] *= m.value;
        break;
      }
    }
  }

  // 4. Resolvers: a non-negated "fixed", "gone", "stopped" in the clause turns its problems into good news.
  const boundaries = clauseBoundaries(markers, n);
  // Set when a rule above found an opinion word and judged it no opinion: wink's sentence score must not bring it back.
  let neutralised = false;
  const resolverAt = (i: number) => isResolver(tokens, i) && !negated[i] && !problemPart[i] && !isInfinitive(tokens, i);
  // "to fix a leak", "came out to repair the flashing": a purpose, not a result; the problem is neither praise nor complaint.
  for (let i = 0; i < n; i += 1) {
    if (!isResolver(tokens, i) || !isInfinitive(tokens, i) || negated[i]) continue;
    for (let j = i + 1; j < Math.min(n, i + 1 + REPAIR_CONDITION_WINDOW); j += 1) {
      if (tokens[j].punct || markerAt[j]) break;
      if (problem[j] && valences[j] < 0) {
        valences[j] = 0;
        problem[j] = 0;
        neutralised = true;
      }
    }
  }
  // "replaced a rotted section", "found a loose boot", "inspected … two cracked pipe boots": the condition before the company came.
  if (repairedConditions(tokens, valences, negated, problem, markerAt)) neutralised = true;
  let problemBefore = false;
  for (const [start, end] of boundaries) {
    let resolved = -1;
    let problemHere = false;
    for (let i = start; i < end; i += 1) {
      if (resolverAt(i) && resolved < 0) resolved = i;
      if (problem[i] && valences[i] < 0) problemHere = true;
    }
    if (resolved >= 0 && problemHere) {
      for (let i = start; i < end; i += 1) if (problem[i] && valences[i] < 0) valences[i] = -valences[i];
    } else if (resolved >= 0 && problemBefore && valences[resolved] === 0) {
      // "The skylight failed, but they replaced it under warranty": the fix answers the earlier clause's problem.
      valences[resolved] = RESOLVED_ELSEWHERE;
    }
    for (let i = start; i < end; i += 1) if (valences[i] < 0) problemBefore = true;
  }
  for (let i = 0; i < n; i += 1) if (negated[i] && !(problem[i] && valences[i] > 0 && resolvedIn(boundaries, i, tokens, negated))) valences[i] = -valences[i];

  // "!" strengthens the sentence's opinion (VADER's rule), up to three of them; it never creates one.
  let bangs = 0;
  for (let i = 0; i < n && bangs < 3; i += 1) if (factsOf(tokens[i]) & BANG) bangs += 1;

  // 5. Clauses, segments and the weighted sentence score.
  const clauses: Clause[] = [];
  let weighted = 0;
  boundaries.forEach(([start, end], index) => {
    const weight = clauseWeight(markers, start, end, index, boundaries.length);
    const segments: Segment[] = [];
    let segmentStart = start;
    let clauseRaw = 0;
    let segmentRaw = 0;
    for (let i = start; i <= end; i += 1) {
      const boundary = i === end || (factsOf(tokens[i]) & SEGMENT_BREAK) !== 0;
      if (boundary) {
        if (i > segmentStart) segments.push({ start: segmentStart, end: i, score: normalise(segmentRaw) });
        segmentStart = i + 1;
        segmentRaw = 0;
        continue;
      }
      const v = valences[i] * (1 + 0.15 * bangs);
      segmentRaw += v;
      clauseRaw += v;
    }
    clauses.push({ start, end, weight, score: normalise(clauseRaw), segments });
    weighted += clauseRaw * weight;
  });

  // No lexicon word fired: fall back on wink's own sentence score, which knows
  // multi-word patterns ("would not go back") the word-by-word pass does not.
  if (weighted === 0 && !neutralised && sentence.winkScore !== 0) weighted = sentence.winkScore * 2.5;
  const score = normalise(weighted);
  // Mixed: some segment or clause at least MIXED_THRESHOLD each way.
  let strongPositive = false;
  let strongNegative = false;
  for (const c of clauses) {
    for (const s of c.segments) {
      if (s.score >= MIXED_THRESHOLD) strongPositive = true;
      if (s.score <= -MIXED_THRESHOLD) strongNegative = true;
    }
    if (c.score >= MIXED_THRESHOLD) strongPositive = true;
    if (c.score <= -MIXED_THRESHOLD) strongNegative = true;
  }
  const mixed = strongPositive && strongNegative;
  return { sentence, valences, clauses, score, mixed, polarity: mixed ? 'neutral' : polarityOf(score) };
}

/** The valence of a resolver in a later clause than the problem it answers. */
const RESOLVED_ELSEWHERE = 2;
/** Discovery verbs resolve only when the company is the one finding: "they found the leak", not "I found nails in the yard". */
const DISCOVERY = new Set(['find', 'found', 'spot', 'spotted', 'catch', 'caught']);
const FIRST_PERSON = new Set(['i', 'we']);

function isResolver(tokens: readonly Token[], i: number): boolean {
  const facts = factsOf(tokens[i]);
  if (!(facts & RESOLVER)) return false;
  if (facts & DISCOVERY_WORD) {
    for (let j = Math.max(0, i - 2); j < i; j += 1) if (factsOf(tokens[j]) & FIRST_PERSON_WORD) return false;
  }
  return true;
}

/** Is one of the words in [from, to) (within the sentence) emphatic ("so", "such", "worse")? */
function emphaticWithin(tokens: readonly Token[], from: number, to: number): boolean {
  for (let j = from; j < Math.min(to, tokens.length); j += 1) if (factsOf(tokens[j]) & EMPHATIC_WORD) return true;
  return false;
}

/** "to fix", "to repair": an infinitive resolver states a purpose. */
function isInfinitive(tokens: readonly Token[], i: number): boolean {
  return i > 0 && (factsOf(tokens[i - 1]) & TO) !== 0;
}

/** "than I'd hoped", "than we expected": the expectation verb is the reference of a comparison. */
function thanBefore(tokens: readonly Token[], i: number): boolean {
  for (let j = i - 1; j >= Math.max(0, i - 4); j -= 1) {
    if (factsOf(tokens[j]) & THAN) return true;
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
function intensifyingNegation(tokens: readonly Token[], i: number, valences: number[], markerAt: Flags): boolean {
  const n = tokens.length;
  const modal = (i > 0 && (factsOf(tokens[i - 1]) & MODAL) !== 0) || (factsOf(tokens[i]) & CANNOT) !== 0;
  if (!modal) return false;
  let praise = -1;
  for (let j = i + 1; j < Math.min(n, i + 1 + NEGATION_WINDOW + 2); j += 1) {
    const facts = factsOf(tokens[j]);
    if (markerAt[j] || facts & PUNCT_BREAK) break;
    if (facts & PRAISE) praise = j;
    if (facts & ENOUGH && praise >= 0) {
      for (let k = praise; k <= j; k += 1) valences[k] = 0;
      let opinion = -1;
      for (let k = j + 1; k < n; k += 1) {
        if (markerAt[k] || factsOf(tokens[k]) & PUNCT_BREAK) break;
        if (valences[k] !== 0) {
          opinion = k;
          break;
        }
      }
      if (opinion >= 0) valences[opinion] *= 1.5;
      else valences[i] = PRAISE_ENOUGH_VALENCE;
      return true;
    }
    if (facts & COMPARATIVE && j <= i + 4) return true;
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
function repairedConditions(tokens: readonly Token[], valences: number[], negated: Flags, problem: Flags, markerAt: Flags): boolean {
  const n = tokens.length;
  let changed = false;
  for (const verb of repairTrie.scan(tokens)) {
    if (negated[verb.start] || isInfinitive(tokens, verb.start)) continue;
    if (verb.value === 'repair' && (foundByCustomer(tokens, verb.start))) continue;
    let words = 0;
    // A repair reaches the next few words of its segment; a diagnosis the rest of its clause (what was found, listed).
    const window = verb.value === 'repair' ? REPAIR_CONDITION_WINDOW : Infinity;
    for (let j = verb.end; j < n && words < window; j += 1) {
      if (markerAt[j]) break;
      const facts = factsOf(tokens[j]);
      if (verb.value === 'repair' && facts & PUNCT_BREAK) break;
      if (tokens[j].punct) continue;
      words += 1;
      if (facts & SCOPE_STOPPER) break;
      const m = conditionTrie.longestAt(tokens, j);
      if (!m) continue;
      // "the crew cracked a skylight": a damage verb after its subject is an act, not a condition.
      const before = tokens[m.start - 1];
      if (tokens[m.start].pos === 'VERB' && before && (before.pos === 'PRON' || before.pos === 'NOUN' || before.pos === 'PROPN')) continue;
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
  if (!(factsOf(tokens[i]) & DISCOVERY_WORD)) return false;
  for (let j = Math.max(0, i - 2); j < i; j += 1) if (factsOf(tokens[j]) & FIRST_PERSON_WORD) return true;
  return false;
}

/** A problem word flipped to positive by a resolver is not flipped back by a negator that only reached the problem. */
function resolvedIn(boundaries: Array<[number, number]>, index: number, tokens: readonly Token[], negated: Flags): boolean {
  const [start, end] = boundaries.find(([s, e]) => index >= s && index < e) ?? [0, 0];
  for (let i = start; i < end; i += 1) {
    if (!negated[i] && !(factsOf(tokens[i]) & PROBLEM_LEMMA) && isResolver(tokens, i)) return true;
  }
  return false;
}

function rangeConsumed(consumed: Flags, start: number, end: number): boolean {
  for (let i = start; i < end; i += 1) if (consumed[i]) return true;
  return false;
}

/** Clause [start, end) ranges; the marker words belong to the clause they open. */
function clauseBoundaries(markers: ReadonlyArray<{ start: number; end: number }>, n: number): Array<[number, number]> {
  const cuts = [0, ...markers.map((m) => m.start).filter((s) => s > 0), n];
  const out: Array<[number, number]> = [];
  for (let i = 0; i + 1 < cuts.length; i += 1) if (cuts[i + 1] > cuts[i]) out.push([cuts[i], cuts[i + 1]]);
  return out;
}

function clauseWeight(
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

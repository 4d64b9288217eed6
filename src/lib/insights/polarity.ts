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
  EXPECTATION_VERBS,
  NEGATION_EXTENDERS,
  NEGATION_STOPPERS,
  NEGATION_WINDOW,
  NEGATORS,
  PROBLEM_WORDS,
  REPAIR_CONDITION_WINDOW,
} from './lexicon.ts';
import {
  clauseBoundaries,
  clauseWeight,
  emphaticWithin,
  intensifyingNegation,
  isInfinitive,
  isResolver,
  rangeConsumed,
  repairedConditions,
  resolvedIn,
  thanBefore,
} from './polarity-rules.ts';
import type { Sentence } from './sentences.ts';
import {
  breaksScope,
  breaksSegment,
  contrastTrie,
  domainTrie,
  either,
  fixedTrie,
  generalValence,
  hasBang,
  intensifierTrie,
  isCommonVerb,
  isContent,
  isNegator,
  isProperName,
} from './word-facts.ts';

export type Polarity = 'positive' | 'neutral' | 'negative';

/** A normalised score at or beyond this (in absolute value) is an opinion; below it, neutral. */
const POLARITY_THRESHOLD = 0.1;
/** Two segments at least this strong and of opposite sign make a sentence mixed. */
const MIXED_THRESHOLD = 0.2;

interface Segment {
  start: number;
  /** Exclusive. */
  end: number;
  /** Normalised, -1..1. */
  score: number;
}

interface Clause {
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

function normalise(raw: number): number {
  return raw === 0 ? 0 : raw / Math.sqrt(raw * raw + 15);
}

export function polarityOf(score: number, threshold = POLARITY_THRESHOLD): Polarity {
  return score >= threshold ? 'positive' : score <= -threshold ? 'negative' : 'neutral';
}

export function scoreSentence(sentence: Sentence): ScoredSentence {
  const tokens = sentence.tokens;
  const n = tokens.length;
  // Flags by token position (1 = set).
  const valences = new Array<number>(n).fill(0);
  const consumed = new Uint8Array(n);
  const fixed = new Uint8Array(n);
  const problem = new Uint8Array(n);
  const problemPart = new Uint8Array(n);

  // Contrast markers → clause boundaries ("but" inside a fixed expression such as "nothing but praise" is none).
  const fixedMatches = fixedTrie.scan(tokens);
  const markers = contrastTrie
    .scan(tokens)
    .filter((m) => !fixedMatches.some((f) => m.start < f.end && f.start < m.end));
  const markerAt = new Uint8Array(n);
  for (const m of markers) for (let i = m.start; i < m.end; i += 1) markerAt[i] = 1;

  // 1. Valences: fixed expressions, then the domain lexicon, then wink's general lexicon.
  for (const m of fixedMatches) {
    valences[m.start] = m.value;
    for (let i = m.start; i < m.end; i += 1) {
      fixed[i] = 1;
      consumed[i] = 1;
    }
  }
  for (let i = 0; i < n;) {
    if (consumed[i]) {
      i += 1;
      continue;
    }
    const m = domainTrie.longestAt(tokens, i);
    if (m && !rangeConsumed(consumed, m.start, m.end)) {
      valences[m.start] = m.value;
      const lemmas = tokens
        .slice(m.start, m.end)
        .filter((t) => !t.punct)
        .map((t) => t.lemma);
      const isProblem = PROBLEM_WORDS.has(lemmas.join(' ')) || PROBLEM_WORDS.has(tokens[m.start].normal);
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
    if (isNegator(token)) continue;
    // Forms of the commonest verbs ("went", "got") and capitalised names mid-sentence ("Charcoal", a shingle colour) carry no opinion.
    if (isCommonVerb(token)) continue;
    if (i > 0 && isProperName(token)) continue;
    // "slower than I'd hoped": the expectation is the yardstick, not an opinion.
    if (either(EXPECTATION_VERBS, token) && thanBefore(tokens, i)) continue;
    const v = generalValence(token);
    valences[i] = v;
    if (v < 0 && either(PROBLEM_WORDS, token)) problem[i] = 1;
  }

  // 2. Negation within the clause and segment: the next NEGATION_WINDOW words.
  const negated = new Uint8Array(n);
  for (let i = 0; i < n; i += 1) {
    const token = tokens[i];
    if (fixed[i] || consumed[i] || !isNegator(token)) continue;
    // "never been so rude", "never seen such a mess": an emphatic "never" strengthens instead.
    if (token.lemma === 'never' && emphaticWithin(tokens, i + 1, i + 4)) continue;
    if (intensifyingNegation(tokens, i, valences, markerAt)) continue;
    let words = 0;
    let window = NEGATION_WINDOW;
    let opinion = false;
    let content = false;
    for (let j = i + 1; j < n && words < window; j += 1) {
      const word = tokens[j];
      if (breaksScope(word) || markerAt[j] || NEGATION_STOPPERS.has(word.normal)) break;
      if (word.punct) continue;
      words += 1;
      if (NEGATION_EXTENDERS.has(word.normal)) window += 3;
      if (fixed[j] || NEGATORS.has(word.normal)) continue;
      negated[j] = 1;
      if (valences[j] !== 0) opinion = true;
      if (isContent(word)) content = true;
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
  for (let i = 0; i < n; i += 1)
    if (negated[i] && !(problem[i] && valences[i] > 0 && resolvedIn(boundaries, i, tokens, negated)))
      valences[i] = -valences[i];

  // "!" strengthens the sentence's opinion (VADER's rule), up to three of them; it never creates one.
  let bangs = 0;
  for (let i = 0; i < n && bangs < 3; i += 1) if (hasBang(tokens[i])) bangs += 1;

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
      const boundary = i === end || breaksSegment(tokens[i]);
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

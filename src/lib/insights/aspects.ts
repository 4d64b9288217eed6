/**
 * Aspect detection and attribution, sentence by sentence. An aspect is named
 * by a lexicon term (lexicon.ts); its polarity is the score of the smallest
 * piece of the sentence that holds an opinion: the term's segment (between
 * commas), else its clause (between contrast markers), else the whole sentence
 * (only when the sentence has no contrast and is not mixed). Each result keeps the terms that matched and
 * the sentence, so an editor can see why "cleanup" came out negative.
 */
import { ASPECTS, CONTEXT_CUES, NOT_ASPECT_TERMS, type AspectId } from './lexicon.ts';
import { PhraseTrie } from './phrases.ts';
import { polarityOf, scoreSentence, type Polarity, type ScoredSentence } from './polarity.ts';
import { round3 } from './round.ts';
import { splitSentences, type Sentence, type Token } from './sentences.ts';

interface AspectMention {
  aspect: AspectId;
  /** -1..1, the mean of the scores of the pieces that carried the aspect's terms. */
  score: number;
  polarity: Polarity;
  /** The words of the text that named the aspect, as written. */
  terms: string[];
}

export interface SentenceAnalysis {
  text: string;
  score: number;
  polarity: Polarity;
  mixed: boolean;
  aspects: AspectMention[];
}

interface TermEntry {
  aspects: AspectId[];
  weak: boolean;
  /** Aspects this term names only next to one of the aspect's CONTEXT_CUES. */
  contextual: AspectId[];
  /** Matches only when its last word is a noun ("can/n"). */
  noun: boolean;
}

const termTrie = new PhraseTrie<TermEntry>();
for (const definition of ASPECTS) {
  for (const raw of definition.terms) {
    const weak = raw.startsWith('~');
    const contextual = raw.startsWith('?');
    const noun = raw.endsWith('/n');
    const term = raw.slice(weak || contextual ? 1 : 0, noun ? -2 : undefined);
    termTrie.add(
      term,
      { aspects: [definition.id], weak, contextual: contextual ? [definition.id] : [], noun },
      (old, value) => ({
        aspects: old.aspects.includes(definition.id) ? old.aspects : [...old.aspects, ...value.aspects],
        weak: old.weak && value.weak,
        contextual: [...old.contextual, ...value.contextual],
        noun: old.noun && value.noun,
      }),
    );
  }
}
for (const phrase of NOT_ASPECT_TERMS)
  termTrie.add(phrase, { aspects: [], weak: false, contextual: [], noun: false }, (_old, value) => value);

const cueSets = new Map<AspectId, Set<string>>(
  Object.entries(CONTEXT_CUES).map(([id, cues]) => [id as AspectId, new Set(cues)]),
);

const ASPECT_ORDER = new Map(ASPECTS.map((a, i) => [a.id, i]));

/** Analyses one scored sentence: which aspects it names and with what polarity. */
function detectAspects(scored: ScoredSentence): AspectMention[] {
  const tokens = scored.sentence.tokens;
  const found = new Map<AspectId, { scores: number[]; terms: string[] }>();
  for (const clause of scored.clauses) {
    const matches = termTrie
      .scan(tokens, clause.start, clause.end)
      .filter((m) => m.value.aspects.length > 0 && (!m.value.noun || tokens[m.end - 1].pos === 'NOUN'));
    if (matches.length === 0) continue;
    const segmentOf = (start: number) => clause.segments.find((s) => start >= s.start && start < s.end);
    // A weak term counts only when no strong term shares its segment.
    const strongSegments = new Set(matches.filter((m) => !m.value.weak).map((m) => segmentOf(m.start)));
    const chosen = matches.filter((m) => !m.value.weak || !strongSegments.has(segmentOf(m.start)));
    for (const match of chosen) {
      const segment = segmentOf(match.start);
      let score = segment?.score ?? 0;
      if (polarityOf(score) === 'neutral') score = clause.score;
      // A weak term with no opinion anywhere near it names nothing ("the roof was original").
      if (
        match.value.weak &&
        polarityOf(score) === 'neutral' &&
        polarityOf(scored.score) === 'neutral' &&
        !scored.mixed
      )
        continue;
      // Without a contrast the sentence's opinion is the term's; with one, the other clause's opinion is by
      // definition not this clause's ("a bit slower than I'd hoped, but very detailed": timeliness is negative).
      if (polarityOf(score) === 'neutral' && !scored.mixed && scored.clauses.length === 1) score = scored.score;
      const aspects = match.value.aspects.filter(
        (aspect) =>
          !match.value.contextual.includes(aspect) ||
          hasCue(tokens, clause.start, clause.end, match.start, match.end, cueSets.get(aspect)),
      );
      if (aspects.length === 0) continue;
      const written = writtenTerm(tokens, match.start, match.end);
      for (const aspect of aspects) {
        const entry = found.get(aspect) ?? { scores: [], terms: [] };
        entry.scores.push(score);
        if (!entry.terms.includes(written)) entry.terms.push(written);
        found.set(aspect, entry);
      }
    }
  }
  if (found.size === 0) return [];
  return [...found.entries()]
    .sort((a, b) => (ASPECT_ORDER.get(a[0]) ?? 0) - (ASPECT_ORDER.get(b[0]) ?? 0))
    .map(([aspect, { scores, terms }]) => {
      const score = round3(scores.reduce((s, x) => s + x, 0) / scores.length);
      return { aspect, score, polarity: polarityOf(score), terms };
    });
}

/** The term's words as written ("clean-up" as one word). */
function writtenTerm(tokens: readonly Token[], start: number, end: number): string {
  return tokens
    .slice(start, end)
    .map((t) => t.text)
    .join(' ')
    .replace(/ - /g, '-');
}

/** Is a cue word (lemma or lowercase form) in [start, end), outside the term's own words? */
function hasCue(
  tokens: readonly Token[],
  start: number,
  end: number,
  termStart: number,
  termEnd: number,
  cues: Set<string> | undefined,
): boolean {
  if (!cues) return false;
  for (let i = start; i < end; i += 1) {
    if (i >= termStart && i < termEnd) continue;
    if (cues.has(tokens[i].lemma) || cues.has(tokens[i].normal)) return true;
  }
  return false;
}

export function analyseSentence(sentence: Sentence): SentenceAnalysis {
  const scored = scoreSentence(sentence);
  return {
    text: sentence.text,
    score: round3(scored.score),
    polarity: scored.polarity,
    mixed: scored.mixed,
    aspects: detectAspects(scored),
  };
}

/** Every sentence of a review text, in order, with its aspects. */
export function analyseText(text: string): SentenceAnalysis[] {
  return splitSentences(text).map(analyseSentence);
}

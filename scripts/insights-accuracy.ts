/**
 * The accuracy harness behind scripts/evaluate-insights.ts: the aspect
 * detector and the polarity scorer against hand-labelled sentences
 * (test/fixtures/insights-eval/labelled.jsonl) and against the UCI
 * "Sentiment Labelled Sentences" Yelp set. Pure: the caller reads the files
 * and may pass another polarity function (a baseline library) to compare.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { analyseText } from '../src/lib/insights/aspects.ts';
import { ASPECT_IDS, type AspectId } from '../src/lib/insights/lexicon.ts';
import type { Polarity } from '../src/lib/insights/polarity.ts';
import { round3 } from '../src/lib/insights/round.ts';

export interface LabelledSentence {
  id: string;
  text: string;
  aspects: Partial<Record<AspectId, Polarity>>;
  sentiment: Polarity;
}

export interface BinarySentence {
  text: string;
  /** 1 positive, 0 negative. */
  class: 0 | 1;
}

export interface AspectCounts {
  tp: number;
  fp: number;
  fn: number;
  precision: number;
  recall: number;
  f1: number;
}

export interface LabelledReport {
  sentences: number;
  aspect: AspectCounts;
  perAspect: Record<AspectId, AspectCounts>;
  /** Aspect polarity accuracy over the aspects both the gold labels and the detector found. */
  aspectPolarity: { correct: number; total: number; accuracy: number };
  /** Sentence polarity accuracy, three classes (a mixed sentence is neutral). */
  sentencePolarity: { correct: number; total: number; accuracy: number };
  /**
   * False positives by the aspects the labels gave the sentence instead:
   * confusion.safety.cleanup = 3 means safety was detected in three sentences
   * labelled cleanup (and not safety); `none` when the label has no aspect.
   */
  confusion: Record<AspectId, Record<string, number>>;
  errors: Array<{ id: string; text: string; expected: unknown; got: unknown }>;
}

/** An alternative sentence scorer: returns a score whose sign is the polarity (0 neutral). */
export type SentenceScorer = (text: string) => number;

export function readLabelled(path: string): LabelledSentence[] {
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as LabelledSentence);
}

export function readBinary(path: string): BinarySentence[] {
  return JSON.parse(readFileSync(path, 'utf8')) as BinarySentence[];
}

export type Half = 'dev' | 'heldout';

/**
 * The deterministic half a labelled sentence belongs to: the first byte of the
 * SHA-256 of its text, even → development (the lexicon and rules are tuned
 * while looking at these errors only), odd → held out (never looked at while
 * tuning; its figures are the honest estimate). Depends on the text alone, so
 * adding sentences never moves an existing one to the other half.
 */
export function halfOf(text: string): Half {
  return createHash('sha256').update(text, 'utf8').digest()[0] % 2 === 0 ? 'dev' : 'heldout';
}

/** The sentences of one half. */
export function splitHalves(set: readonly LabelledSentence[]): Record<Half, LabelledSentence[]> {
  const out: Record<Half, LabelledSentence[]> = { dev: [], heldout: [] };
  for (const item of set) out[halfOf(item.text)].push(item);
  return out;
}

function counts(tp: number, fp: number, fn: number): AspectCounts {
  const precision = tp + fp === 0 ? 1 : tp / (tp + fp);
  const recall = tp + fn === 0 ? 1 : tp / (tp + fn);
  const f1 = precision + recall === 0 ? 0 : (2 * precision * recall) / (precision + recall);
  return { tp, fp, fn, precision: round3(precision), recall: round3(recall), f1: round3(f1) };
}

function signPolarity(score: number, threshold: number): Polarity {
  return score > threshold ? 'positive' : score < -threshold ? 'negative' : 'neutral';
}

/**
 * Scores the detector on the labelled set. With `scorer`, aspect and sentence
 * polarity come from that scorer's sentence score instead of ours (the aspect
 * detection stays ours), which is how the libraries are compared.
 */
export function evaluateLabelled(
  set: readonly LabelledSentence[],
  scorer?: SentenceScorer,
  threshold = 0,
): LabelledReport {
  let tp = 0;
  let fp = 0;
  let fn = 0;
  const per = Object.fromEntries(ASPECT_IDS.map((id) => [id, { tp: 0, fp: 0, fn: 0 }])) as Record<
    AspectId,
    { tp: number; fp: number; fn: number }
  >;
  let polarityCorrect = 0;
  let polarityTotal = 0;
  let sentenceCorrect = 0;
  const errors: LabelledReport['errors'] = [];
  const confusion = Object.fromEntries(ASPECT_IDS.map((id) => [id, {}])) as Record<AspectId, Record<string, number>>;
  for (const item of set) {
    const analyses = analyseText(item.text);
    const predicted = new Map<AspectId, Polarity>();
    for (const sentence of analyses)
      for (const mention of sentence.aspects) predicted.set(mention.aspect, mention.polarity);
    const external = scorer ? signPolarity(scorer(item.text), threshold) : undefined;
    const ourSentence =
      analyses.length === 0
        ? 'neutral'
        : combineSentences(analyses.map((a) => ({ score: a.score, polarity: a.polarity })));
    const sentencePolarity = external ?? ourSentence;
    if (sentencePolarity === item.sentiment) sentenceCorrect += 1;
    else
      errors.push({
        id: item.id,
        text: item.text,
        expected: { sentiment: item.sentiment },
        got: { sentiment: sentencePolarity },
      });

    const gold = item.aspects;
    for (const id of ASPECT_IDS) {
      const g = gold[id];
      const p = predicted.get(id);
      if (g && p) {
        tp += 1;
        per[id].tp += 1;
        polarityTotal += 1;
        const got = external ?? p;
        if (got === g) polarityCorrect += 1;
        else errors.push({ id: item.id, text: item.text, expected: { [id]: g }, got: { [id]: got } });
      } else if (p) {
        fp += 1;
        per[id].fp += 1;
        const instead = Object.keys(gold).filter((g) => !predicted.has(g as AspectId));
        for (const other of instead.length > 0 ? instead : ['none'])
          confusion[id][other] = (confusion[id][other] ?? 0) + 1;
        errors.push({ id: item.id, text: item.text, expected: { [id]: null }, got: { [id]: p } });
      } else if (g) {
        fn += 1;
        per[id].fn += 1;
        errors.push({ id: item.id, text: item.text, expected: { [id]: g }, got: { [id]: null } });
      }
    }
  }
  return {
    sentences: set.length,
    aspect: counts(tp, fp, fn),
    perAspect: Object.fromEntries(ASPECT_IDS.map((id) => [id, counts(per[id].tp, per[id].fp, per[id].fn)])) as Record<
      AspectId,
      AspectCounts
    >,
    aspectPolarity: {
      correct: polarityCorrect,
      total: polarityTotal,
      accuracy: round3(polarityTotal === 0 ? 0 : polarityCorrect / polarityTotal),
    },
    sentencePolarity: {
      correct: sentenceCorrect,
      total: set.length,
      accuracy: round3(set.length === 0 ? 0 : sentenceCorrect / set.length),
    },
    confusion,
    errors,
  };
}

/** A labelled "sentence" may be split in two by the sentence splitter: mixed pieces make it neutral. */
function combineSentences(parts: Array<{ score: number; polarity: Polarity }>): Polarity {
  if (parts.length === 1) return parts[0].polarity;
  const polarities = new Set(parts.map((p) => p.polarity).filter((p) => p !== 'neutral'));
  if (polarities.size !== 1) return 'neutral';
  return [...polarities][0];
}

export interface BinaryReport {
  total: number;
  correct: number;
  /** Sentences the scorer called neutral (score 0): counted as wrong, a binary set has no neutral. */
  undecided: number;
  accuracy: number;
}

/** Binary sentence polarity (positive/negative) on a set like Yelp's. */
export function evaluateBinary(set: readonly BinarySentence[], scorer: SentenceScorer): BinaryReport {
  let correct = 0;
  let undecided = 0;
  for (const item of set) {
    const score = scorer(item.text);
    if (score === 0) undecided += 1;
    else if ((score > 0 ? 1 : 0) === item.class) correct += 1;
  }
  return { total: set.length, correct, undecided, accuracy: round3(set.length === 0 ? 0 : correct / set.length) };
}

/** Our scorer as a SentenceScorer: the contrast-weighted score, averaged over the text's sentences. */
export function oursScore(text: string): number {
  const analyses = analyseText(text);
  if (analyses.length === 0) return 0;
  return analyses.reduce((s, a) => s + a.score, 0) / analyses.length;
}

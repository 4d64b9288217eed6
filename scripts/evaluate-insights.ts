/**
 * Prints the accuracy of the insights pipeline (docs/insights.md, "Accuracy"):
 * aspect precision/recall/F1 and polarity accuracy on our hand-labelled roofing
 * sentences, binary sentence polarity on the UCI Yelp set, and the same figures
 * for the candidate libraries used alone (wink-nlp's sentence sentiment, the
 * AFINN-165 `sentiment` package).
 *
 *   node scripts/evaluate-insights.ts            # summary
 *   node scripts/evaluate-insights.ts --errors   # also every disagreement
 *   node scripts/evaluate-insights.ts --json     # machine-readable
 */
import { createRequire } from 'node:module';
import { resolve } from 'node:path';
import {
  evaluateBinary,
  evaluateLabelled,
  oursScore,
  readBinary,
  readLabelled,
  type SentenceScorer,
} from '../src/lib/insights/evaluate.ts';
import { getNlp } from '../src/lib/insights/sentences.ts';

const ROOT = resolve(import.meta.dirname, '..');
export const LABELLED = resolve(ROOT, 'test/fixtures/insights-eval/labelled.jsonl');
export const YELP = resolve(ROOT, 'node_modules/sentiment/test/fixtures/yelp.json');

export function winkScore(text: string): number {
  const nlp = getNlp();
  return nlp.readDoc(text).out(nlp.its.sentiment) as unknown as number;
}

export function afinnScorer(): SentenceScorer {
  const require = createRequire(import.meta.url);
  const Sentiment = require('sentiment') as new () => { analyze(text: string): { score: number } };
  const engine = new Sentiment();
  return (text) => engine.analyze(text).score;
}

export function runEvaluation() {
  const labelled = readLabelled(LABELLED);
  const yelp = readBinary(YELP);
  const afinn = afinnScorer();
  return {
    ours: { labelled: evaluateLabelled(labelled), yelp: evaluateBinary(yelp, oursScore) },
    wink: { labelled: evaluateLabelled(labelled, winkScore), yelp: evaluateBinary(yelp, winkScore) },
    afinn: { labelled: evaluateLabelled(labelled, afinn), yelp: evaluateBinary(yelp, afinn) },
  };
}

const pct = (x: number) => `${(x * 100).toFixed(1)}%`;

if (import.meta.main) {
  const started = performance.now();
  const report = runEvaluation();
  const ms = Math.round(performance.now() - started);
  if (process.argv.includes('--json')) {
    const strip = ({ errors: _errors, ...rest }: { errors: unknown }) => rest;
    console.log(JSON.stringify({ ours: { labelled: strip(report.ours.labelled), yelp: report.ours.yelp }, wink: { labelled: strip(report.wink.labelled), yelp: report.wink.yelp }, afinn: { labelled: strip(report.afinn.labelled), yelp: report.afinn.yelp } }, null, 2));
  } else {
    const { labelled, yelp } = report.ours;
    console.log(`Labelled roofing sentences: ${labelled.sentences} (test/fixtures/insights-eval/labelled.jsonl)`);
    console.log(`  aspects    P ${pct(labelled.aspect.precision)}  R ${pct(labelled.aspect.recall)}  F1 ${pct(labelled.aspect.f1)}  (tp ${labelled.aspect.tp}, fp ${labelled.aspect.fp}, fn ${labelled.aspect.fn})`);
    for (const [id, c] of Object.entries(labelled.perAspect)) {
      console.log(`    ${id.padEnd(19)} P ${pct(c.precision).padStart(6)}  R ${pct(c.recall).padStart(6)}  F1 ${pct(c.f1).padStart(6)}`);
    }
    console.log(`  aspect polarity accuracy   ${pct(labelled.aspectPolarity.accuracy)} (${labelled.aspectPolarity.correct}/${labelled.aspectPolarity.total})`);
    console.log(`  sentence polarity accuracy ${pct(labelled.sentencePolarity.accuracy)} (${labelled.sentencePolarity.correct}/${labelled.sentencePolarity.total}, 3 classes)`);
    console.log(`Yelp (UCI Sentiment Labelled Sentences): ${yelp.total} sentences, binary`);
    console.log(`  ours  ${pct(yelp.accuracy)} (undecided ${yelp.undecided})`);
    console.log(`  wink  ${pct(report.wink.yelp.accuracy)} (undecided ${report.wink.yelp.undecided})`);
    console.log(`  afinn ${pct(report.afinn.yelp.accuracy)} (undecided ${report.afinn.yelp.undecided})`);
    console.log('Libraries alone as the polarity source on the labelled set (aspect detection ours):');
    for (const name of ['ours', 'wink', 'afinn'] as const) {
      const r = report[name].labelled;
      console.log(`  ${name.padEnd(5)} aspect polarity ${pct(r.aspectPolarity.accuracy)}  sentence polarity ${pct(r.sentencePolarity.accuracy)}`);
    }
    if (process.argv.includes('--errors')) {
      for (const e of labelled.errors) console.log(`${e.id} ${JSON.stringify(e.expected)} got ${JSON.stringify(e.got)}  ${e.text}`);
    }
    console.log(`(${ms} ms)`);
  }
}

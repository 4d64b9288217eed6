/**
 * Prints the accuracy of the insights pipeline (docs/insights.md, "Accuracy"):
 * aspect precision/recall/F1 (overall and per aspect) and polarity accuracy on
 * our hand-labelled roofing sentences, split deterministically into a
 * development half (tuned on) and a held-out half (never tuned on); binary
 * sentence polarity on the UCI Yelp set; and the same figures for the
 * candidate libraries used alone (wink-nlp's sentence sentiment, the AFINN-165
 * `sentiment` package).
 *
 *   node scripts/evaluate-insights.ts               # summary
 *   node scripts/evaluate-insights.ts --errors      # also every disagreement on the development half
 *   node scripts/evaluate-insights.ts --errors=all  # every disagreement, held-out half included (do not tune on it)
 *   node scripts/evaluate-insights.ts --json        # machine-readable
 */
import { createRequire } from 'node:module';
import { resolve } from 'node:path';
import {
  evaluateBinary,
  evaluateLabelled,
  oursScore,
  readBinary,
  readLabelled,
  splitHalves,
  type LabelledReport,
  type SentenceScorer,
} from './insights-accuracy.ts';
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
  const { dev, heldout } = splitHalves(labelled);
  const yelp = readBinary(YELP);
  const afinn = afinnScorer();
  return {
    ours: {
      labelled: evaluateLabelled(labelled),
      dev: evaluateLabelled(dev),
      heldout: evaluateLabelled(heldout),
      yelp: evaluateBinary(yelp, oursScore),
    },
    wink: { labelled: evaluateLabelled(labelled, winkScore), yelp: evaluateBinary(yelp, winkScore) },
    afinn: { labelled: evaluateLabelled(labelled, afinn), yelp: evaluateBinary(yelp, afinn) },
  };
}

const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
const num = (x: number) => x.toFixed(3);

function row(name: string, r: LabelledReport): string {
  const a = r.aspect;
  return `  ${name.padEnd(9)} ${String(r.sentences).padStart(4)}  ${num(a.precision)}  ${num(a.recall)}  ${num(a.f1)}   ${num(r.aspectPolarity.accuracy)} (${r.aspectPolarity.correct}/${r.aspectPolarity.total})   ${num(r.sentencePolarity.accuracy)} (${r.sentencePolarity.correct}/${r.sentencePolarity.total})`;
}

function perAspectTable(r: LabelledReport): string[] {
  const lines = ['  aspect               tp  fp  fn      P      R     F1'];
  for (const [id, c] of Object.entries(r.perAspect)) {
    lines.push(
      `  ${id.padEnd(19)} ${String(c.tp).padStart(3)} ${String(c.fp).padStart(3)} ${String(c.fn).padStart(3)}  ${num(c.precision)}  ${num(c.recall)}  ${num(c.f1)}`,
    );
  }
  return lines;
}

if (import.meta.main) {
  const started = performance.now();
  const report = runEvaluation();
  const ms = Math.round(performance.now() - started);
  const strip = ({ errors: _errors, ...rest }: { errors: unknown }) => rest;
  if (process.argv.includes('--json')) {
    console.log(
      JSON.stringify(
        {
          ours: {
            labelled: strip(report.ours.labelled),
            dev: strip(report.ours.dev),
            heldout: strip(report.ours.heldout),
            yelp: report.ours.yelp,
          },
          wink: { labelled: strip(report.wink.labelled), yelp: report.wink.yelp },
          afinn: { labelled: strip(report.afinn.labelled), yelp: report.afinn.yelp },
        },
        null,
        2,
      ),
    );
  } else {
    const { labelled, dev, heldout, yelp } = report.ours;
    console.log(
      `Labelled roofing sentences: ${labelled.sentences} (test/fixtures/insights-eval/labelled.jsonl), split by SHA-256 of the text`,
    );
    console.log('  half      sent.  aspect P      R     F1   aspect polarity       sentence polarity (3 classes)');
    console.log(row('dev', dev));
    console.log(row('held-out', heldout));
    console.log(row('all', labelled));
    console.log('Per aspect, development half:');
    for (const line of perAspectTable(dev)) console.log(line);
    console.log(
      'False positives on the development half, by the labelled aspect missed instead (none: no aspect labelled):',
    );
    for (const [id, row] of Object.entries(dev.confusion)) {
      const cells = Object.entries(row).sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
      if (cells.length > 0) console.log(`  ${id.padEnd(19)} ${cells.map(([k, v]) => `${k} ${v}`).join(', ')}`);
    }
    console.log('Per aspect, held-out half:');
    for (const line of perAspectTable(heldout)) console.log(line);
    console.log('Per aspect, all:');
    for (const line of perAspectTable(labelled)) console.log(line);
    console.log(
      `Yelp (UCI Sentiment Labelled Sentences): ${yelp.total} sentences, binary, a score of 0 counts as wrong`,
    );
    console.log(`  ours  ${pct(yelp.accuracy)} (undecided ${yelp.undecided})`);
    console.log(`  wink  ${pct(report.wink.yelp.accuracy)} (undecided ${report.wink.yelp.undecided})`);
    console.log(`  afinn ${pct(report.afinn.yelp.accuracy)} (undecided ${report.afinn.yelp.undecided})`);
    console.log('Libraries alone as the polarity source on all labelled sentences (aspect detection ours):');
    for (const name of ['ours', 'wink', 'afinn'] as const) {
      const r = report[name].labelled;
      console.log(
        `  ${name.padEnd(5)} aspect polarity ${pct(r.aspectPolarity.accuracy)}  sentence polarity ${pct(r.sentencePolarity.accuracy)}`,
      );
    }
    const errorsArg = process.argv.find((a) => a.startsWith('--errors'));
    if (errorsArg) {
      const source = errorsArg === '--errors=all' ? labelled : dev;
      console.log(
        `Disagreements (${errorsArg === '--errors=all' ? 'all sentences: do not tune on the held-out half' : 'development half'}):`,
      );
      for (const e of source.errors)
        console.log(`${e.id} ${JSON.stringify(e.expected)} got ${JSON.stringify(e.got)}  ${e.text}`);
    }
    console.log(`(${ms} ms)`);
  }
}

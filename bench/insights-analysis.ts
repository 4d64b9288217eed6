/**
 * The insights' per-review analysis of a content folder, in this thread, without Astro: where a
 * build's content sync spends most of its CPU. Prints the CPU time of each part, and a SHA-256 of
 * the insights document and its warnings, to compare two trees' outputs (`--root`, e.g. a
 * `git archive` of the commit before a change with node_modules linked).
 *
 *   node bench/insights-analysis.ts --content /tmp/hscale/c10k
 *   node bench/insights-analysis.ts --content /tmp/hscale/c10k --root /tmp/before --rounds 3
 *
 * Parts, per round (the first round pays JIT warm-up and wink's cache of new words):
 *   analysis  createReviewAnalyser over every review (what the worker threads do)
 *   wink      readDoc and the token arrays alone (`out` of text, normal, lemma, pos, type, spaces)
 *   ours      the analysis less wink: sentence scoring, aspects, keyphrases, entity linking
 *   document  analyseInsights from the analyses (the main thread, after the workers)
 */
import { createHash } from 'node:crypto';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';

const { values } = parseArgs({
  options: {
    content: { type: 'string' },
    root: { type: 'string', default: resolve(import.meta.dirname, '..') },
    rounds: { type: 'string', default: '2' },
    limit: { type: 'string' },
  },
});
if (!values.content) throw new Error('pass --content DIR (a content folder: business.yaml and reviews/)');
const root = resolve(values.root);
const contentDir = resolve(values.content);

const { loadContent } = await import(`${root}/src/lib/content/load.ts`);
const { createReviewAnalyser, analyseInsights } = await import(`${root}/src/lib/insights/build.ts`);
const { loadEditorial } = await import(`${root}/src/lib/insights/index.ts`);
const { getNlp } = await import(`${root}/src/lib/insights/sentences.ts`);
const { buildDataset } = await import(`${root}/src/lib/reviews/published-dataset.ts`);

const content = loadContent(contentDir);
const reviews = values.limit ? content.reviews.slice(0, Number(values.limit)) : content.reviews;
const texts: string[] = reviews.map((r: { title?: string; text: string }) => (r.title ? `${r.title}.\n${r.text}` : r.text));
const dataset = buildDataset(content.business, reviews);
const editorial = loadEditorial(contentDir);
const cpuSeconds = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1e6;
};
const timed = <T>(run: () => T): [T, number] => {
  const started = cpuSeconds();
  const result = run();
  return [result, cpuSeconds() - started];
};

console.log(`${reviews.length} reviews of ${contentDir}, tree ${root}`);
for (let round = 1; round <= Number(values.rounds); round += 1) {
  const analyse = createReviewAnalyser(content.business);
  const [insights, analysis] = timed(() => new Map(reviews.map((r: { id: string }) => [r.id, analyse(r)])));
  const nlp = getNlp();
  const its = nlp.its;
  const [, wink] = timed(() => {
    for (const text of texts) {
      const doc = nlp.readDoc(text);
      const tokens = doc.tokens();
      for (const f of [undefined, its.normal, its.lemma, its.pos, its.type, its.precedingSpaces]) tokens.out(f as typeof its.normal);
      doc.sentences().out(its.span);
      doc.sentences().out(its.sentiment);
    }
  });
  const [result, document] = timed(() => analyseInsights(dataset, editorial, (id: string) => insights.get(id)));
  const hash = createHash('sha256').update(JSON.stringify(result.document)).update(JSON.stringify(result.warnings)).digest('hex').slice(0, 16);
  const s = (x: number) => `${x.toFixed(2)} s`;
  console.log(`round ${round}: analysis ${s(analysis)} (wink ${s(wink)}, ours ${s(analysis - wink)}), document ${s(document)} CPU; document sha256 ${hash}`);
}

/**
 * The build's single-threaded parts around the content workers and the prerender, this tree
 * against another (`--before`, e.g. a `git archive` with node_modules linked), interleaved in
 * one process on the same worker output: the insights document (main thread, after the
 * workers), the store's packing (how long it holds the main thread, and until it is done) and
 * reviews.json's body as the prerender reads it (Response → arrayBuffer). Prints each round's
 * milliseconds and a SHA-256 of the document and of the body, which must match.
 *
 *   node bench/serial-parts.ts --content /tmp/hscale/c10k --before /tmp/base-checkout --rounds 5
 *
 * CPU is the process's (every thread: GC helpers and the thread pool too); wall is this thread's.
 */
import { createHash } from 'node:crypto';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';

const { values } = parseArgs({ options: { content: { type: 'string' }, before: { type: 'string' }, rounds: { type: 'string', default: '3' } } });
if (!values.content || !values.before) throw new Error('pass --content DIR and --before DIR');
const contentDir = resolve(values.content);
const roots = { before: resolve(values.before), after: resolve(import.meta.dirname, '..') };

const { loadContentWithInsights } = await import(`${roots.after}/src/lib/build/parallel-load.ts`);
const { content, insightOf } = await loadContentWithInsights(contentDir);
const trees = await Promise.all(
  Object.entries(roots).map(async ([name, root]) => ({
    name,
    insights: await import(`${root}/src/lib/insights/index.ts`),
    dataset: await import(`${root}/src/lib/reviews/published-dataset.ts`),
    stored: await import(`${root}/src/lib/content/stored-reviews.ts`),
    answer: await import(`${root}/src/lib/http/answer.ts`),
  })),
);

const cpuMs = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};
const sha = (data: string | Uint8Array) => createHash('sha256').update(data).digest('hex').slice(0, 16);
const rows = new Map<string, string[]>();
const note = (key: string, value: string) => rows.set(key, [...(rows.get(key) ?? []), value]);

for (let round = 0; round < Number(values.rounds); round += 1) {
  for (const tree of trees) {
    const dataset = tree.dataset.buildDataset(content.business, content.reviews);
    let cpu = cpuMs();
    let wall = performance.now();
    const document = tree.insights.buildInsights(dataset, tree.insights.loadEditorial(contentDir), () => {}, insightOf);
    note(`${tree.name} insights, CPU ms`, (cpuMs() - cpu).toFixed(0));

    // Before: packReviews(file order) was synchronous; after: dataset order, a promise.
    cpu = cpuMs();
    wall = performance.now();
    const pending = tree.stored.packReviews(tree.name === 'before' ? content.reviews : dataset.reviews);
    note(`${tree.name} pack, main thread ms`, (performance.now() - wall).toFixed(0));
    const packed = await pending;
    note(`${tree.name} pack, until done ms`, (performance.now() - wall).toFixed(0));

    const read = tree.dataset.buildDataset(content.business, tree.stored.unpackReviews(packed));
    cpu = cpuMs();
    wall = performance.now();
    const body = tree.stored.reviewsJsonParts
      ? new Response(tree.answer.bytesBody(tree.dataset.datasetBytes(read, tree.stored.reviewsJsonParts(packed))))
      : new Response(`${JSON.stringify(read)}\n`);
    const bytes = new Uint8Array(await body.arrayBuffer());
    note(`${tree.name} reviews.json, CPU/wall ms`, `${(cpuMs() - cpu).toFixed(0)}/${(performance.now() - wall).toFixed(0)}`);
    if (round === 0) console.log(`${tree.name}: document ${sha(JSON.stringify(document))}, reviews.json ${sha(bytes)}`);
  }
}
for (const [key, list] of rows) console.log(`${key.padEnd(34)} ${list.join('  ')}`);

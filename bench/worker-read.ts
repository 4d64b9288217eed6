/**
 * What one content worker thread does per review file, in this thread, without Astro: read,
 * validate and analyse (parallel-load.ts `createFileReader`, batches of 250 as the workers get
 * them) over a content folder. Prints the CPU time per round and tree, and a SHA-256 of all the
 * results (problems, review records, insights analyses) to compare trees' outputs. Trees given
 * with `--roots` (e.g. this checkout and a `git archive` of the commit before a change with
 * node_modules linked) run interleaved in one process, so a slow spell of a shared machine
 * falls on each; the first round pays JIT warm-up.
 *
 *   node bench/worker-read.ts --content /tmp/hscale/c10k --roots /tmp/before,. --rounds 4
 *   node bench/worker-read.ts --content /tmp/hscale/c10k --roots /tmp/before,. --rounds 6 --limit 4000
 */
import { createHash } from 'node:crypto';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';

const { values } = parseArgs({
  options: {
    content: { type: 'string' },
    roots: { type: 'string', default: resolve(import.meta.dirname, '..') },
    rounds: { type: 'string', default: '3' },
    limit: { type: 'string' },
  },
});
if (!values.content) throw new Error('pass --content DIR (a content folder: business.yaml and reviews/)');
const contentDir = resolve(values.content);
const BATCH = 250;

const trees = [];
for (const root of values.roots.split(',').map((r) => resolve(r))) {
  const { createFileReader } = await import(`${root}/src/lib/build/parallel-load.ts`);
  trees.push({ root, createFileReader });
}
const { listReviewFiles, loadBusiness } = await import(`${trees[0].root}/src/lib/content/load.ts`);
const business = loadBusiness(contentDir, []);
const all = listReviewFiles(contentDir);
const files = values.limit ? all.slice(0, Number(values.limit)) : all;
const cpuSeconds = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1e6;
};

console.log(`${files.length} review files of ${contentDir}`);
for (let round = 1; round <= Number(values.rounds); round += 1) {
  for (const { root, createFileReader } of trees) {
    const read = createFileReader(business);
    const started = cpuSeconds();
    const results = [];
    for (let i = 0; i < files.length; i += BATCH) results.push(...read(files.slice(i, i + BATCH)));
    const cpu = cpuSeconds() - started;
    const hash = createHash('sha256').update(JSON.stringify(results)).digest('hex').slice(0, 16);
    console.log(`round ${round} ${root}: ${cpu.toFixed(2)} s CPU, ${((cpu / files.length) * 1e6).toFixed(0)} µs a file, results sha256 ${hash}`);
  }
}

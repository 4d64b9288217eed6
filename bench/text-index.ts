/**
 * The text index alone, in process: its build (wall and CPU time, bytes held
 * in typed arrays) over a build's reviews.json, and each kind of text query
 * (bench/lib/text-queries.ts) run once per distinct needle, `match` alone
 * (no search filters, no JSON), wall and CPU time percentiles. With --before,
 * the same over another checkout's src/lib/reviews (e.g. the tree before a
 * change), run after this one in the same process, one after the other.
 *
 *   node bench/text-index.ts /tmp/bench-builds/100000/dist/client/reviews.json [--before DIR] [--per-kind 400]
 *
 * CPU time per query (process.cpuUsage around each call) is the steadier
 * figure on a shared machine: it leaves out the time other processes held the
 * core, not the cache misses they cause. But it counts the whole process:
 * while V8 compiles in the background, a query's CPU time exceeds its wall
 * time by milliseconds (19 of 400 phrase queries at 100k by over 0.5 ms, in
 * one run), which is what CPU p99s of a few ms are; read the wall p99 then.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { TEXT_QUERY_KINDS, textQueries } from './lib/text-queries.ts';

const { values: args, positionals } = parseArgs({
  allowPositionals: true,
  options: { before: { type: 'string' }, 'per-kind': { type: 'string', default: '400' } },
});
const file = positionals[0];
if (!file) throw new Error('usage: node bench/text-index.ts REVIEWS_JSON [--before DIR] [--per-kind N]');
const perKind = Number(args['per-kind']);

interface Index {
  match(needle: string): Uint32Array;
  bytes?: number;
}

const dataset = JSON.parse(readFileSync(file, 'utf8')) as { reviews: Array<{ title?: string; text: string }> };
const queries = textQueries(dataset.reviews, perKind * TEXT_QUERY_KINDS.length);

async function run(label: string, root: string) {
  const lib = (path: string) => import(pathToFileURL(resolve(root, 'src/lib/reviews', path)).href);
  const { fold } = (await lib('index.ts')) as { fold: (text: string) => string };
  const { buildTextIndex } = (await lib('text-index.ts')) as { buildTextIndex: (folded: string[]) => Index };
  const folded = dataset.reviews.map((r) => fold(r.title ? `${r.title}\n${r.text}` : r.text));
  const cpu = process.cpuUsage();
  const started = performance.now();
  const index = buildTextIndex(folded);
  const wallMs = performance.now() - started;
  const used = process.cpuUsage(cpu);
  console.log(`${label}: build ${wallMs.toFixed(0)} ms wall, ${((used.user + used.system) / 1000).toFixed(0)} ms CPU; typed arrays ${index.bytes === undefined ? '(not reported)' : `${(index.bytes / 1e6).toFixed(1)} MB`}`);
  console.log('| kind | queries | wall µs mean | wall µs p50 / p90 / p99 / max | CPU µs p50 / p90 / p99 |');
  console.log('| --- | ---: | ---: | ---: | ---: |');
  const allWall: number[] = [];
  for (const kind of TEXT_QUERY_KINDS) {
    const needles = queries.filter((q) => q.kind === kind).map((q) => fold(q.query));
    for (const needle of needles.slice(0, 20)) index.match(needle); // warm the code paths
    const wall: number[] = [];
    const cpuUs: number[] = [];
    for (const needle of needles) {
      const c = process.cpuUsage();
      const t = performance.now();
      index.match(needle);
      wall.push((performance.now() - t) * 1000);
      const u = process.cpuUsage(c);
      cpuUs.push(u.user + u.system);
    }
    const p = (values: number[], max = false) => {
      const sorted = [...values].sort((a, b) => a - b);
      const percentiles = [50, 90, 99].map((q) => sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * q) / 100))]!.toFixed(0));
      return (max ? [...percentiles, sorted.at(-1)!.toFixed(0)] : percentiles).join(' / ');
    };
    allWall.push(...wall);
    console.log(`| ${kind} | ${needles.length} | ${mean(wall)} | ${p(wall, true)} | ${p(cpuUs)} |`);
  }
  console.log(`| every kind | ${allWall.length} | ${mean(allWall)} | | |`);
}

const mean = (values: number[]) => (values.reduce((sum, value) => sum + value, 0) / values.length).toFixed(0);

await run('this tree', resolve(import.meta.dirname, '..'));
if (args.before) await run(`before (${args.before})`, resolve(args.before));

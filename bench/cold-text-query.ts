/**
 * The first text query after a cold start of a built Netlify or Vercel
 * function, against the ones after it: the floor is at most 100 ms more.
 * Each run is a fresh Node process (a cold instance): it imports the built
 * function, as the host would, and calls it in process with search URLs it
 * has never answered, one after another:
 *
 * - cold:   the instance's first request is a text query (it also loads the
 *           dataset from the function's data store and folds the texts);
 * - warm-up: the first request has no text (`?limit=1`, the dataset loaded),
 *           then the first text query (it folds the texts).
 *
 * Then 20 more text queries; "after" is their median. Wall time, and CPU
 * time of the process (steadier on a shared machine).
 *
 *   node bench/cold-text-query.ts --host netlify --dir .test-builds/netlify-10k [--runs 5]
 *
 * DIR is a host build: DIR/output holds the adapter's output (what
 * scripts/build-test-sites.ts moves there), DIR/dist the build's static files.
 * Exits 1 when the floor is missed.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { textQueries } from './lib/text-queries.ts';

const { values: args } = parseArgs({
  options: {
    host: { type: 'string', default: 'netlify' },
    dir: { type: 'string' },
    runs: { type: 'string', default: '5' },
    child: { type: 'string' },
    'first-text': { type: 'boolean', default: false },
  },
});
if (!args.dir || (args.host !== 'netlify' && args.host !== 'vercel'))
  throw new Error('usage: node bench/cold-text-query.ts --host netlify|vercel --dir BUILD_DIR [--runs N]');
const dir = resolve(args.dir);
const FLOOR_MS = 100;
const AFTER = 20;

type Call = (request: Request) => Promise<Response>;

async function loadFunction(): Promise<Call> {
  if (args.host === 'netlify') {
    const handler = (await import(pathToFileURL(join(dir, 'output/v1/functions/ssr/ssr.mjs')).href)).default as (
      request: Request,
      context: unknown,
    ) => Promise<Response>;
    const context = {
      waitUntil: () => {},
      ip: '203.0.113.7',
      deploy: { context: 'production', id: 'bench', published: true },
      site: { id: 'bench', name: 'bench', url: 'https://reviews-netlify.example' },
      requestId: 'bench',
      params: {},
    };
    return (request) => handler(request, context);
  }
  const functionDir = join(dir, 'output/functions/_render.func');
  const { handler: entry } = JSON.parse(readFileSync(join(functionDir, '.vc-config.json'), 'utf8')) as {
    handler: string;
  };
  const fn = (await import(pathToFileURL(join(functionDir, entry)).href)).default as {
    fetch(request: Request): Promise<Response>;
  };
  (globalThis as Record<symbol, unknown>)[Symbol.for('@vercel/request-context')] = {
    get: () => ({ waitUntil: () => {}, headers: {} }),
  };
  return (request) => fn.fetch(request);
}

function reviewsJson(): string {
  for (const path of ['dist/reviews.json', 'dist/client/reviews.json', 'output/static/reviews.json'])
    if (existsSync(join(dir, path))) return join(dir, path);
  throw new Error(`no reviews.json under ${dir}`);
}

if (args.child !== undefined) {
  const site = args.host === 'netlify' ? 'https://reviews-netlify.example' : 'https://reviews-vercel.example';
  const reviews = (JSON.parse(readFileSync(reviewsJson(), 'utf8')) as { reviews: Array<{ text: string }> }).reviews;
  // Distinct needles per run (the seed), words and phrases: what a person types.
  const needles = textQueries(reviews, 4 * (AFTER + 1), Number(args.child) + 1).filter(
    (q) => q.kind === 'word' || q.kind === 'phrase',
  );
  const started = performance.now();
  const call = await loadFunction();
  const importMs = performance.now() - started;
  const cpu: number[] = [];
  const time = async (path: string) => {
    const cpuBefore = process.cpuUsage();
    const begun = performance.now();
    const response = await call(new Request(`${site}${path}`));
    const body = await response.text();
    if (response.status !== 200) throw new Error(`${path}: ${response.status} ${body.slice(0, 200)}`);
    const { user, system } = process.cpuUsage(cpuBefore);
    cpu.push((user + system) / 1000);
    return performance.now() - begun;
  };
  let noText: number | null = null;
  if (!args['first-text']) noText = await time('/api/reviews/search?limit=1');
  const first = await time(needles[0]!.path);
  const after: number[] = [];
  for (const needle of needles.slice(1, AFTER + 1)) after.push(await time(needle.path));
  after.sort((a, b) => a - b);
  const firstCpu = cpu[noText === null ? 0 : 1]!;
  const afterCpu = cpu.slice(-AFTER).sort((a, b) => a - b);
  console.log(
    JSON.stringify({
      importMs,
      noText,
      first,
      after: after[after.length >> 1]!,
      firstCpu,
      afterCpu: afterCpu[afterCpu.length >> 1]!,
    }),
  );
} else {
  const rows: string[] = [];
  let missed = false;
  for (const firstText of [true, false]) {
    for (let run = 0; run < Number(args.runs); run++) {
      const child = spawnSync(
        process.execPath,
        [
          import.meta.filename,
          '--host',
          args.host,
          '--dir',
          dir,
          '--child',
          String(run),
          ...(firstText ? ['--first-text'] : []),
        ],
        { encoding: 'utf8', env: { ...process.env, SITE_URL: '' } },
      );
      if (child.status !== 0) throw new Error(child.stderr);
      const { importMs, noText, first, after, firstCpu, afterCpu } = JSON.parse(
        child.stdout.trim().split('\n').at(-1)!,
      ) as Record<string, number> & { noText: number | null };
      const extra = first - after;
      missed ||= extra > FLOOR_MS;
      rows.push(
        `| ${args.host} | ${firstText ? 'cold' : 'warm-up'} | ${run + 1} | ${importMs.toFixed(0)} | ${noText === null ? '–' : noText.toFixed(0)} | ${first.toFixed(1)} | ${after.toFixed(1)} | ${extra.toFixed(1)} | ${firstCpu.toFixed(1)} / ${afterCpu.toFixed(1)} |`,
      );
    }
  }
  console.log(
    '| host | first request | run | import (ms) | no-text request | first text query | median of the next 20 | first − after (floor 100) | CPU ms: first / median after |',
  );
  console.log('|---|---|---|---|---|---|---|---|---|');
  for (const row of rows) console.log(row);
  process.exitCode = missed ? 1 : 0;
}

/**
 * A client floods search with valid queries padded to ~15 KB (`limit=` +
 * 5,000 × `%20` + `5`, a never-seen `query` each time). The answers' cache
 * must stay within its byte budget whatever the client sends, so the server's
 * resident memory may grow only by a bounded amount.
 *
 *   node_modules/.bin/node bench/reliability/search-cache-flood.ts [--duration 25] [--build content] [--max-growth-mb 200]
 *
 * Needs a test build (`node scripts/build-test-sites.ts`): `content` by
 * default, or `large` (10k reviews). The load comes from bench/lib/load.ts in
 * its own process, cycling QUERIES distinct padded URLs: more than the cache
 * holds, so every request misses it.
 *
 * Must hold: RSS after the flood − RSS before it ≤ --max-growth-mb (200 MB) and
 * every answer a 200 (the padded query is valid). The bound is not the
 * cache's budget: each request is a new text query, and that garbage alone
 * makes V8 keep a heap well above the one at rest. Exits 1 on too much
 * growth, 2 on an error answer.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { BUILDS, type BuildName } from '../../test/helpers/builds.ts';
import { runLoadInChild } from '../lib/load.ts';
import { get, memoryOf, ROOT, startRealServer } from '../lib/processes.ts';

const { values } = parseArgs({
  options: {
    duration: { type: 'string', default: '25' },
    build: { type: 'string', default: 'content' },
    'max-growth-mb': { type: 'string', default: '200' },
    connections: { type: 'string', default: '32' },
  },
});
const duration = Number(values.duration);
const maxGrowthMb = Number(values['max-growth-mb']);
const build = BUILDS[values.build as BuildName];
if (!build) throw new Error(`--build must be one of ${Object.keys(BUILDS).join(', ')}`);

const PADDING = '%20'.repeat(5000);
/** Distinct URLs cycled by the flood: ~15 KB each, together several times the cache's budget. */
const QUERIES = 4000;
const work = mkdtempSync(join(tmpdir(), 'search-flood-'));
const pathsFile = join(work, 'paths.json');
const letters = 'abcdefghijklmnopqrstuvwxyz';
const randomWord = () => Array.from({ length: 8 }, () => letters[Math.floor(Math.random() * letters.length)]).join('');
writeFileSync(
  pathsFile,
  JSON.stringify(
    Array.from({ length: QUERIES }, (_, i) => `/api/reviews/search?limit=${PADDING}5&query=${randomWord()}${i}`),
  ),
);

// As production starts it (package.json's serve script: its V8 flags shape the RSS measured here).
// Every request a new search from one address: past the per-client limit they would be cheap 429s, not the misses measured here.
const server = await startRealServer(build.outDir, ROOT, {
  STORE_DIR: join(work, 'store'),
  SEARCH_MISS_RATE_LIMIT: 'off',
});
const mb = (bytes: number) => Math.round(bytes / 1024 / 1024);
let failed = 0;
try {
  // Warm up as a normal client would: the review index and the JIT, so "before" is a running server.
  for (const path of [
    '/api/reviews/search',
    '/api/reviews/search?query=roof',
    `/api/reviews/search?limit=${PADDING}5&query=warm`,
  ]) {
    const answer = await get(server.origin, path);
    if (answer.status !== 200)
      throw new Error(`${path.slice(0, 60)}… answered ${answer.status}: ${answer.body.toString().slice(0, 200)}`);
  }
  const pid = server.process.pid!;
  const before = memoryOf(pid);
  console.error(
    `flooding ${server.origin} for ${duration} s (${values.connections} connections, ~${Math.round(PADDING.length / 1024)} KB queries)…`,
  );
  // RSS every 5 s of the flood: a bounded cache levels off, a leak keeps climbing.
  const samples: number[] = [];
  const sampler = setInterval(() => samples.push(memoryOf(pid).rss), 5000);
  const flood = await runLoadInChild({
    origin: server.origin,
    paths: [],
    pathsFile,
    connections: Number(values.connections),
    duration,
    warmup: 0,
  });
  clearInterval(sampler);
  const after = memoryOf(pid);
  const requests = flood.requests;
  const perSecond = flood.requests / flood.seconds;
  const non200 = flood.non200 + flood.errors;
  const growth = after.rss - before.rss;
  console.log(`RSS every 5 s, MB: ${samples.map(mb).join(' ')}`);
  console.log(`| build | requests | req/s | RSS before MB | RSS after MB | growth MB | peak MB | non-200 |`);
  console.log(`| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |`);
  console.log(
    `| ${values.build} | ${requests} | ${Math.round(perSecond)} | ${mb(before.rss)} | ${mb(after.rss)} | ${mb(growth)} | ${mb(after.peak)} | ${non200} |`,
  );
  if (non200 !== 0) {
    console.error(`FAIL: ${non200} answers were not 200`);
    failed = 2;
  } else if (growth > maxGrowthMb * 1024 * 1024) {
    console.error(`FAIL: RSS grew by ${mb(growth)} MB, more than ${maxGrowthMb} MB`);
    failed = 1;
  } else {
    console.error(`ok: RSS grew by ${mb(growth)} MB (bound ${maxGrowthMb} MB)`);
  }
} finally {
  await server.stop();
  rmSync(work, { recursive: true, force: true });
}
process.exit(failed);

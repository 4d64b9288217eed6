/**
 * Issue 14 item 1: a client floods search with valid queries padded to ~15 KB
 * (`limit=` + 5,000 × `%20` + `5`, a random `query` each time) under wrk. The
 * search cache must stay within its byte budget whatever the client sends, so
 * the server's resident memory may grow only by a bounded amount.
 *
 *   node_modules/.bin/node bench/reliability/search-cache-flood.ts [--duration 25] [--build content] [--server-root DIR] [--max-growth-mb 200]
 *
 * Needs wrk and a test build (`node scripts/build-test-sites.ts`): `content` by
 * default, or `large` (10k reviews). `--server-root` runs another checkout's
 * src/server.ts over the same build (e.g. the code before the fix).
 *
 * Must hold: RSS after the flood − RSS before it ≤ --max-growth-mb (200 MB) and
 * every answer a 200 (the padded query is valid). The bound is not the
 * cache's budget (16 MiB): each request is a new text query, and that garbage alone
 * makes V8 keep a heap of ~150–190 MB more than at rest, whatever the cache
 * budget (docs/reliability.md, item 1). Before the fix the same 25 s grew RSS
 * by ~290–440 MB. Exits 1 on too much growth, 2 on an error answer (4xx/5xx).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { BUILDS, type BuildName } from '../../test/helpers/builds.ts';
import { serveArgs } from '../../test/helpers/serve-command.ts';
import { get, memoryOf, ROOT, startProcess } from '../lib/processes.ts';

const { values } = parseArgs({
  options: {
    duration: { type: 'string', default: '25' },
    build: { type: 'string', default: 'content' },
    'server-root': { type: 'string', default: ROOT },
    'max-growth-mb': { type: 'string', default: '200' },
    connections: { type: 'string', default: '32' },
  },
});
const duration = Number(values.duration);
const maxGrowthMb = Number(values['max-growth-mb']);
const build = BUILDS[values.build as BuildName];
if (!build) throw new Error(`--build must be one of ${Object.keys(BUILDS).join(', ')}`);

const PADDING = '%20'.repeat(5000);
const work = mkdtempSync(join(tmpdir(), 'search-flood-'));
// Each request: a fresh random 8-letter query (math.random in each wrk thread), the padded limit.
const script = join(work, 'flood.lua');
writeFileSync(
  script,
  `local padding = "${PADDING}"
local letters = "abcdefghijklmnopqrstuvwxyz"
math.randomseed(os.time())
request = function()
  local q = {}
  for i = 1, 8 do local n = math.random(1, 26); q[i] = letters:sub(n, n) end
  return wrk.format("GET", "/api/reviews/search?limit=" .. padding .. "5&query=" .. table.concat(q))
end
`,
);

// As production starts it (package.json's serve script of that checkout: its V8 flags shape the RSS measured here).
const server = await startProcess(serveArgs(values['server-root']), {
  ASTRO_OUT_DIR: build.outDir,
  PORT: '0',
  HOST: '127.0.0.1',
  ASTRO_NODE_LOGGING: 'disabled',
  STORE_DIR: join(work, 'store'),
});
const mb = (bytes: number) => Math.round(bytes / 1024 / 1024);
let failed = 0;
try {
  // Warm up as a normal client would: the index, the text index and the JIT, so "before" is a running server.
  for (const path of ['/api/reviews/search', '/api/reviews/search?query=roof', `/api/reviews/search?limit=${PADDING}5&query=warm`]) {
    const answer = await get(server.origin, path);
    if (answer.status !== 200) throw new Error(`${path.slice(0, 60)}… answered ${answer.status}: ${answer.body.toString().slice(0, 200)}`);
  }
  const pid = server.process.pid!;
  const before = memoryOf(pid);
  console.error(`flooding ${server.origin} for ${duration} s (${values.connections} connections, ~${Math.round(PADDING.length / 1024)} KB queries)…`);
  // RSS every 5 s of the flood: a bounded cache levels off, a leak keeps climbing.
  const samples: number[] = [];
  const sampler = setInterval(() => samples.push(memoryOf(pid).rss), 5000);
  const wrk = await run('wrk', ['-t1', `-c${values.connections}`, `-d${duration}s`, '-s', script, `${server.origin}/`]);
  clearInterval(sampler);
  const after = memoryOf(pid);
  const requests = Number(/(\d+) requests in/.exec(wrk.stdout)?.[1] ?? NaN);
  const perSecond = Number(/Requests\/sec:\s+([\d.]+)/.exec(wrk.stdout)?.[1] ?? NaN);
  // wrk counts answers of status 400 and above (and prints nothing when there are none).
  const non200 = Number(/Non-2xx or 3xx responses: (\d+)/.exec(wrk.stdout)?.[1] ?? 0);
  const growth = after.rss - before.rss;
  console.log(`RSS every 5 s, MB: ${samples.map(mb).join(' ')}`);
  console.log(`| build | requests | req/s | RSS before MB | RSS after MB | growth MB | peak MB | non-200 |`);
  console.log(`| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |`);
  console.log(`| ${values.build} | ${requests} | ${Math.round(perSecond)} | ${mb(before.rss)} | ${mb(after.rss)} | ${mb(growth)} | ${mb(after.peak)} | ${non200} |`);
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

function run(command: string, args: string[]): Promise<{ stdout: string }> {
  return new Promise((resolveRun, reject) => {
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.once('error', reject);
    child.once('exit', (code) => (code === 0 ? resolveRun({ stdout }) : reject(new Error(`${command} exited with ${code}: ${stderr}`))));
  });
}

/**
 * The REST floor: search, since, the datasets, one review and the feeds on
 * the real Node server (src/server.ts over a real build) keep at least 0.85x
 * the rate of a bare node:http server answering the same URLs with the same
 * status, headers and bytes, in the same run, for what clients send: no
 * Accept-Encoding (API clients, curl) and `br, gzip` (browsers, feed readers),
 * each measured against a bare server holding that encoding's answers; and the
 * real server's RSS after that load stays within 300 MB at 100k reviews.
 *
 *   node_modules/.bin/node bench/rest.ts                        # 10k and 100k generated reviews
 *   node_modules/.bin/node bench/rest.ts --sizes 10000 --duration 4
 *   node_modules/.bin/node bench/rest.ts --content test/fixtures/content-small
 *
 * Options:
 *   --sizes N,N,...    generated review counts (scripts/generate-reviews.ts, seed 42)   [10000,100000]
 *   --content DIR      this content folder instead of generated sizes
 *   --duration S       measured seconds per server and group, split over the rounds      [8]
 *   --warmup S         seconds of load before the first measurement                     [2]
 *   --connections N    concurrent keep-alive connections                               [32]
 *   --rounds N         real and bare alternate in N rounds                             [2]
 *   --builds-dir DIR   where builds live; reused unless --rebuild                      [/tmp/bench-builds]
 *   --rebuild          generate and build again even if a build exists
 *
 * Exits 1 when a floor is missed, 2 when an answer is wrong.
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { NODE_OWN_HEADERS, type Capture } from './lib/bare-server.ts';
import { ensureBuild, type BuildInfo } from './lib/builds.ts';
import { runLoadInChild, summarize, type LoadRun, type LoadSummary } from './lib/load.ts';
import { get, memoryOf, startBareServer, startRealServer, type Running } from './lib/processes.ts';

const RATE_FLOOR = 0.85;
const RSS_FLOOR_MB = 300;
/** The RSS floor is stated for this size; smaller builds must stay under it too. */
const RSS_FLOOR_REVIEWS = 100_000;

const { values: args } = parseArgs({
  options: {
    sizes: { type: 'string', default: '10000,100000' },
    content: { type: 'string' },
    duration: { type: 'string', default: '8' },
    warmup: { type: 'string', default: '2' },
    connections: { type: 'string', default: '32' },
    rounds: { type: 'string', default: '2' },
    'builds-dir': { type: 'string', default: '/tmp/bench-builds' },
    rebuild: { type: 'boolean', default: false },
  },
});
const duration = Number(args.duration);
const warmup = Number(args.warmup);
const connections = Number(args.connections);
const rounds = Math.max(1, Number(args.rounds));
const buildsRoot = resolve(args['builds-dir']);
/** What clients send: API clients and curl nothing, browsers and feed readers br and gzip (answered in br). */
const ENCODINGS: Array<{ name: string; headers: Record<string, string> }> = [
  { name: 'identity', headers: {} },
  { name: 'br', headers: { 'accept-encoding': 'br, gzip' } },
];

const SEARCH = '/api/reviews/search';
const SEARCH_PATHS = [
  SEARCH,
  `${SEARCH}?rating=5`,
  `${SEARCH}?min_rating=4&mentions_service=gutters`,
  `${SEARCH}?query=leak`,
  `${SEARCH}?mentions_technician=Dave%20Kowalski&since=2024-01-01`,
  `${SEARCH}?since=2024-01-01&until=2024-06-30`,
  `${SEARCH}?since=2025-01-01&until=2025-12-31&min_rating=3`,
  `${SEARCH}?limit=100`,
];

interface Group {
  name: string;
  encoding: string;
  paths: string[];
  real: LoadSummary;
  bare: LoadSummary;
}

interface SizeResult {
  build: BuildInfo;
  groups: Group[];
  rssMb: number;
}

const targets: Array<{ count?: number; contentDir?: string }> = args.content
  ? [{ contentDir: resolve(args.content) }]
  : args.sizes.split(',').map((size) => ({ count: Number(size.trim()) }));

log(
  `REST floor: ${connections} connections, ${duration} s per server and group in ${rounds} rounds, Node ${process.version}, ${availableParallelism()} CPUs`,
);
mkdirSync(buildsRoot, { recursive: true });
const results: SizeResult[] = [];
try {
  for (const target of targets) {
    log(`\n== ${target.count ?? target.contentDir}`);
    const build = ensureBuild({ buildsRoot, ...target, rebuild: args.rebuild, log });
    results.push(await benchmarkSize(build));
  }
} catch (error) {
  log(String(error instanceof Error ? (error.stack ?? error.message) : error));
  process.exit(2);
}

const missed = report(results);
process.exitCode = missed.length === 0 ? 0 : 1;
if (missed.length > 0) log(`\nbelow the floor: ${missed.join('; ')}`);

async function benchmarkSize(build: BuildInfo): Promise<SizeResult> {
  const real = await startRealServer(build.distDir);
  let bare: Running | undefined;
  const captureFile = resolve(tmpdir(), `bench-rest-capture-${process.pid}-${build.label}.json`);
  try {
    // since: the 10th newest review's date, so it returns about 10 reviews at every size.
    const newest = JSON.parse((await get(real.origin, `${SEARCH}?limit=10`)).body.toString('utf8')) as {
      reviews: Array<{ id: string; date: string }>;
    };
    const since = `/api/reviews/since/${newest.reviews.at(-1)?.date ?? '2000-01-01'}`;
    // Small and large bodies apart: a per-request cost shows on the small ones, a per-byte cost on the large.
    const groups: Array<{ name: string; paths: string[] }> = [
      { name: 'search (mix of 8)', paths: SEARCH_PATHS },
      { name: 'since', paths: [since] },
      { name: 'datasets (large)', paths: ['/reviews.json', '/insights.json'] },
      { name: 'one review (small)', paths: [`/reviews/${newest.reviews[0]!.id}.json`] },
      { name: 'feeds', paths: ['/feed.xml', '/api/feed.json'] },
    ];

    const measured: Group[] = [];
    for (const encoding of ENCODINGS) {
      // The bare server answers each URL with exactly the status, headers and body the real one gave to these request headers.
      const capture: Capture = {};
      for (const path of groups.flatMap((group) => group.paths)) {
        const answer = await get(real.origin, path, encoding.headers);
        if (answer.status !== 200)
          throw new Error(`${path} answered ${answer.status}: ${answer.body.toString('utf8').slice(0, 500)}`);
        const headers: Record<string, string> = {};
        for (let i = 0; i < answer.rawHeaders.length; i += 2) {
          const name = (answer.rawHeaders[i] as string).toLowerCase();
          if (!NODE_OWN_HEADERS.has(name)) headers[name] = answer.rawHeaders[i + 1] as string;
        }
        capture[path] = { status: answer.status, headers, bodyBase64: answer.body.toString('base64') };
      }
      writeFileSync(captureFile, JSON.stringify(capture));
      bare = await startBareServer(captureFile);
      for (const path of Object.keys(capture)) {
        const echo = await get(bare.origin, path, encoding.headers);
        if (echo.status !== 200 || echo.body.toString('base64') !== capture[path]!.bodyBase64)
          throw new Error(`bare server differs on ${path}`);
      }
      for (const group of groups) {
        const label = `${group.name}, ${encoding.name}`;
        const run = await pair(label, real, bare, group.paths, encoding.headers);
        measured.push({ ...group, encoding: encoding.name, ...run });
      }
      await bare.stop();
      bare = undefined;
    }
    const rssMb = memoryOf(real.process.pid!).rss / 1024 / 1024;
    log(`  RSS after the load: ${rssMb.toFixed(0)} MB`);
    return { build, groups: measured, rssMb };
  } finally {
    await real.stop();
    await bare?.stop();
    rmSync(captureFile, { force: true });
  }
}

/**
 * Real and bare under the same load, interleaved (real, bare, then bare,
 * real, ...) so a slow spell of the shared machine falls on both.
 */
async function pair(
  name: string,
  real: Running,
  bare: Running,
  paths: string[],
  headers: Record<string, string>,
): Promise<{ real: LoadSummary; bare: LoadSummary }> {
  const runs: Record<'real' | 'bare', LoadRun[]> = { real: [], bare: [] };
  for (let round = 0; round < rounds; round++) {
    for (const which of round % 2 === 0 ? (['real', 'bare'] as const) : (['bare', 'real'] as const)) {
      const server = which === 'real' ? real : bare;
      const run = await runLoadInChild({
        origin: server.origin,
        paths,
        headers,
        connections,
        duration: duration / rounds,
        warmup: runs[which].length === 0 ? warmup : Math.min(warmup, 0.5),
        serverPid: server.process.pid,
      });
      if (run.non200 || run.errors)
        throw new Error(`${name} ${which}: ${JSON.stringify(run.statuses)}, ${run.errors} errors`);
      runs[which].push(run);
    }
  }
  const out = {
    real: summarize(runs.real, availableParallelism()),
    bare: summarize(runs.bare, availableParallelism()),
  };
  log(
    `  ${name}: real ${Math.round(out.real.rps)} req/s, bare ${Math.round(out.bare.rps)} req/s (${(out.real.rps / out.bare.rps).toFixed(2)}x)`,
  );
  return out;
}

/** Prints the Markdown tables; returns the floors missed. */
function report(sizes: SizeResult[]): string[] {
  const missed: string[] = [];
  const lines = [
    `${connections} keep-alive connections (bench/lib/load.ts, its own process), ${duration} s per server and group in ${rounds} interleaved rounds, each group with no \`accept-encoding\` (identity) and with \`accept-encoding: br, gzip\` (br). CPU: the server process's CPU µs per answer; bare / real CPU is the capacity ratio, not swayed by which process ran out of CPU first. Other CPU: the share of the machine used by other processes meanwhile.`,
    '',
    '| reviews | group | encoding | real req/s | bare req/s | real / bare | floor | p99 ms real / bare | CPU µs real / bare | bare / real CPU | other CPU |',
    '| ---: | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
  ];
  for (const size of sizes) {
    for (const group of size.groups) {
      const ratio = group.real.rps / group.bare.rps;
      if (ratio < RATE_FLOOR) missed.push(`${size.build.reviews} ${group.name} ${group.encoding} ${ratio.toFixed(2)}x`);
      const cpu = (s: LoadSummary) => (s.serverCpuUsPerRequest === null ? '–' : s.serverCpuUsPerRequest.toFixed(0));
      const other = Math.max(group.real.foreignCpuShare ?? 0, group.bare.foreignCpuShare ?? 0);
      const cpuRatio =
        group.real.serverCpuUsPerRequest && group.bare.serverCpuUsPerRequest
          ? (group.bare.serverCpuUsPerRequest / group.real.serverCpuUsPerRequest).toFixed(2)
          : '–';
      lines.push(
        `| ${size.build.reviews} | ${group.name} | ${group.encoding} | ${Math.round(group.real.rps)} | ${Math.round(group.bare.rps)} | ${ratio.toFixed(2)} | ${ratio >= RATE_FLOOR ? 'ok' : 'MISSED'} | ${group.real.p99.toFixed(1)} / ${group.bare.p99.toFixed(1)} | ${cpu(group.real)} / ${cpu(group.bare)} | ${cpuRatio} | ${Math.round(other * 100)} % |`,
      );
    }
  }
  lines.push(
    '',
    `| reviews | RSS after the load, MB | floor (${RSS_FLOOR_MB} MB at ${RSS_FLOOR_REVIEWS / 1000}k) |`,
    '| ---: | ---: | ---: |',
  );
  for (const size of sizes) {
    const within = size.rssMb <= RSS_FLOOR_MB;
    if (!within && size.build.reviews <= RSS_FLOOR_REVIEWS)
      missed.push(`${size.build.reviews} RSS ${size.rssMb.toFixed(0)} MB`);
    lines.push(
      `| ${size.build.reviews} | ${size.rssMb.toFixed(0)} | ${within ? 'ok' : size.build.reviews <= RSS_FLOOR_REVIEWS ? 'MISSED' : "over (larger than the floor's size)"} |`,
    );
  }
  console.log(`\n${lines.join('\n')}`);
  return missed;
}

function log(line: string) {
  process.stderr.write(`${line}\n`);
}

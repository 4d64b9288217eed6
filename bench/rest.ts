/**
 * The REST floor: search, since, the datasets, the feeds and one review (its
 * JSON and its page) on the real Node server (src/server.ts over a real build)
 * keep at least 0.85x the rate of a bare node:http server answering the same
 * URLs with the same status, headers and bytes, in the same run, for what
 * clients send: no Accept-Encoding (API clients, curl) and `br, gzip`
 * (browsers, feed readers), each measured against a bare server holding that
 * encoding's answers; and the real server's RSS after that load stays within
 * 300 MB at 100k reviews. The review page, which Astro renders on request, is
 * measured last, after the RSS is read (and the RSS again after it).
 *
 * Load comes from wrk (`apt-get install wrk`), one thread and 16 keep-alive
 * connections: it costs a few µs per request, so the server runs out of CPU
 * first and the rate shows what our code adds to each request. Real and bare
 * alternate in rounds (real first, then bare first, ...); the ratio of each
 * round's pair is taken and the floor holds on the median of those ratios.
 *
 *   node_modules/.bin/node bench/rest.ts                            # the sample content, 10k and 100k generated reviews
 *   node_modules/.bin/node bench/rest.ts --sizes sample --rounds 5  # the sample content only (165 reviews)
 *   node_modules/.bin/node bench/rest.ts --groups search,since --encodings identity
 *
 * Options:
 *   --sizes S,S,...    `sample` (content/) and generated review counts (seed 42)       [sample,10000,100000]
 *   --content DIR      this content folder instead of --sizes
 *   --groups G,G,...   search, since, reviews.json, insights.json, feed.json, feed.xml,
 *                      review.json, review-page                                        [all]
 *   --encodings E,E    identity, br                                                     [identity,br]
 *   --duration S       seconds per server and round                                    [3]
 *   --rounds N         rounds per group and encoding (real and bare each once a round) [5]
 *   --warmup S         seconds of load on each server before a group's first round     [1]
 *   --connections N    keep-alive connections                                          [16]
 *   --builds-dir DIR   where builds live; reused unless --rebuild                      [/tmp/bench-builds]
 *   --rebuild          generate and build again even if a build exists
 *   --pin SERVER/LOAD  taskset CPU lists: both servers on SERVER, wrk on LOAD (e.g. 1/0), so
 *                      neither moves between CPUs nor shares one with the other     [not pinned]
 *
 * Exits 1 when a floor is missed, 2 when an answer is wrong.
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { NODE_OWN_HEADERS, type Capture } from './lib/bare-server.ts';
import { ensureBuild, type BuildInfo } from './lib/builds.ts';
import { get, memoryOf, ROOT, startBareServer, startRealServer, type Running } from './lib/processes.ts';
import { checkWrk, runWrk, type WrkRun } from './lib/wrk.ts';

const RATE_FLOOR = 0.85;
const RSS_FLOOR_MB = 300;
/** The RSS floor is stated for this size; smaller builds must stay under it too. */
const RSS_FLOOR_REVIEWS = 100_000;
const THREADS = 1;

const { values: args } = parseArgs({
  options: {
    sizes: { type: 'string', default: 'sample,10000,100000' },
    content: { type: 'string' },
    groups: { type: 'string' },
    encodings: { type: 'string', default: 'identity,br' },
    duration: { type: 'string', default: '3' },
    rounds: { type: 'string', default: '5' },
    warmup: { type: 'string', default: '1' },
    connections: { type: 'string', default: '16' },
    'builds-dir': { type: 'string', default: '/tmp/bench-builds' },
    rebuild: { type: 'boolean', default: false },
    pin: { type: 'string' },
  },
});
const duration = Number(args.duration);
const warmup = Number(args.warmup);
const connections = Number(args.connections);
const rounds = Math.max(1, Number(args.rounds));
const buildsRoot = resolve(args['builds-dir']);
const [serverCpus, loadCpus] = args.pin ? args.pin.split('/') : [];
if (args.pin && (!serverCpus || !loadCpus)) throw new Error(`--pin takes SERVER/LOAD CPU lists, e.g. 1/0: ${args.pin}`);

/** What clients send: API clients and curl nothing, browsers and feed readers br and gzip (answered in br). */
const ENCODINGS: Record<string, Record<string, string>> = {
  identity: {},
  br: { 'accept-encoding': 'br, gzip' },
};
const encodings = args.encodings.split(',').map((name) => {
  const headers = ENCODINGS[name.trim()];
  if (!headers) throw new Error(`unknown encoding ${name}: ${Object.keys(ENCODINGS).join(', ')}`);
  return { name: name.trim(), headers };
});

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

/** The groups, small and large bodies apart: a cost per request shows on the small ones, a cost per byte on the large. */
const GROUPS: Record<string, (newest: { id: string; date: string }[]) => string[]> = {
  search: () => SEARCH_PATHS,
  // The 10th newest review's date, so it returns about 10 reviews at every size.
  since: (newest) => [`/api/reviews/since/${newest.at(-1)?.date ?? '2000-01-01'}`],
  'reviews.json': () => ['/reviews.json'],
  'insights.json': () => ['/insights.json'],
  'feed.json': () => ['/api/feed.json'],
  'feed.xml': () => ['/feed.xml'],
  'review.json': (newest) => [`/reviews/${newest[0]!.id}.json`],
  'review-page': (newest) => [`/reviews/${newest[0]!.id}`],
};
/** Pages rendered by Astro on request: measured after the rest (see benchmarkSize). */
const PAGE_GROUPS = new Set(['review-page']);
const groupNames = args.groups ? args.groups.split(',').map((name) => name.trim()) : Object.keys(GROUPS);
for (const name of groupNames)
  if (!GROUPS[name]) throw new Error(`unknown group ${name}: ${Object.keys(GROUPS).join(', ')}`);

interface Measured {
  group: string;
  encoding: string;
  paths: string[];
  /** Body bytes of the group's first path. */
  bytes: number;
  real: WrkRun[];
  bare: WrkRun[];
  /** Real / bare req/s of each round's pair. */
  ratios: number[];
  /** The 1-minute load average at each round. */
  load: number[];
}

interface SizeResult {
  build: BuildInfo;
  groups: Measured[];
  /** After the REST groups: the floor's figure. */
  rssMb: number;
  /** After the pages too, when they were measured. */
  rssAfterPagesMb?: number;
}

const targets: Array<{ count?: number; contentDir?: string }> = args.content
  ? [{ contentDir: resolve(args.content) }]
  : args.sizes
      .split(',')
      .map((size) => size.trim())
      .map((size) => (size === 'sample' ? { contentDir: resolve(ROOT, 'content') } : { count: Number(size) }));

log(
  `REST floor: wrk -t${THREADS} -c${connections}${args.pin ? `, servers on CPU ${serverCpus} and wrk on CPU ${loadCpus}` : ''}, ${rounds} rounds of ${duration} s per server, group and encoding, Node ${process.version}, ${availableParallelism()} CPUs, load average ${loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')}`,
);
mkdirSync(buildsRoot, { recursive: true });
const results: SizeResult[] = [];
try {
  await checkWrk();
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
  const real = await startRealServer(build.distDir, ROOT, {}, serverCpus);
  const captureFile = resolve(tmpdir(), `bench-rest-capture-${process.pid}-${build.label}.json`);
  try {
    const newest = JSON.parse((await get(real.origin, `${SEARCH}?limit=10`)).body.toString('utf8')) as {
      reviews: Array<{ id: string; date: string }>;
    };
    const groups = groupNames.map((name) => ({ name, paths: GROUPS[name]!(newest.reviews) }));
    // The pages last: rendering them under load grows V8's heap with garbage until its next full
    // collection, which would weigh on the groups after them and on the RSS floor's figure.
    const measured = await measureGroups(
      real,
      groups.filter((group) => !PAGE_GROUPS.has(group.name)),
      captureFile,
    );
    const rssMb = memoryOf(real.process.pid!).rss / 1024 / 1024;
    log(`  RSS after the load: ${rssMb.toFixed(0)} MB`);
    const pages = groups.filter((group) => PAGE_GROUPS.has(group.name));
    if (pages.length === 0) return { build, groups: measured, rssMb };
    measured.push(...(await measureGroups(real, pages, captureFile)));
    const rssAfterPagesMb = memoryOf(real.process.pid!).rss / 1024 / 1024;
    log(`  RSS after the pages too: ${rssAfterPagesMb.toFixed(0)} MB`);
    return { build, groups: measured, rssMb, rssAfterPagesMb };
  } finally {
    await real.stop();
    rmSync(captureFile, { force: true });
  }
}

/** Each group in each encoding, against a bare server holding that encoding's answers. */
async function measureGroups(
  real: Running,
  groups: Array<{ name: string; paths: string[] }>,
  captureFile: string,
): Promise<Measured[]> {
  const measured: Measured[] = [];
  for (const encoding of encodings) {
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
    const bare = await startBareServer(captureFile, serverCpus);
    try {
      for (const path of Object.keys(capture)) {
        const echo = await get(bare.origin, path, encoding.headers);
        if (echo.status !== 200 || echo.body.toString('base64') !== capture[path]!.bodyBase64)
          throw new Error(`bare server differs on ${path}`);
      }
      for (const group of groups) {
        const bytes = Buffer.from(capture[group.paths[0]!]!.bodyBase64, 'base64').length;
        measured.push({
          group: group.name,
          encoding: encoding.name,
          paths: group.paths,
          bytes,
          ...(await pair(`${group.name}, ${encoding.name}`, real, bare, group.paths, encoding.headers)),
        });
      }
    } finally {
      await bare.stop();
    }
  }
  return measured;
}

/**
 * Real and bare under the same load, alternating (real then bare, then bare
 * then real, ...), so a slow spell of the shared machine falls on both of a
 * round's pair; each round gives one ratio.
 */
async function pair(
  name: string,
  real: Running,
  bare: Running,
  paths: string[],
  headers: Record<string, string>,
): Promise<Pick<Measured, 'real' | 'bare' | 'ratios' | 'load'>> {
  const load = (server: Running, seconds: number) =>
    runWrk({
      origin: server.origin,
      paths,
      headers,
      connections,
      threads: THREADS,
      duration: seconds,
      serverPid: server.process.pid,
      cpus: loadCpus,
    }).then((run) => {
      if (run.badStatus || run.errors)
        throw new Error(`${name} on ${server.origin}: ${run.badStatus} answers >= 400, ${run.errors} socket errors`);
      return run;
    });
  if (warmup > 0) {
    await load(real, warmup);
    await load(bare, warmup);
  }
  const out: Pick<Measured, 'real' | 'bare' | 'ratios' | 'load'> = { real: [], bare: [], ratios: [], load: [] };
  for (let round = 0; round < rounds; round++) {
    out.load.push(loadavg()[0]!);
    const order = round % 2 === 0 ? (['real', 'bare'] as const) : (['bare', 'real'] as const);
    const runs: Partial<Record<'real' | 'bare', WrkRun>> = {};
    for (const which of order) runs[which] = await load(which === 'real' ? real : bare, duration);
    out.real.push(runs.real!);
    out.bare.push(runs.bare!);
    out.ratios.push(runs.real!.rps / runs.bare!.rps);
  }
  log(
    `  ${name}: real ${Math.round(median(out.real.map((r) => r.rps)))} req/s, bare ${Math.round(median(out.bare.map((r) => r.rps)))} req/s, ${median(out.ratios).toFixed(2)}x (rounds ${out.ratios.map((r) => r.toFixed(2)).join(' ')}), load ${median(out.load).toFixed(1)}`,
  );
  return out;
}

/** Prints the Markdown tables; returns the floors missed. */
function report(sizes: SizeResult[]): string[] {
  const missed: string[] = [];
  const lines = [
    `wrk -t${THREADS} -c${connections} (keep-alive), ${rounds} rounds of ${duration} s per server, real and bare alternating; medians over the rounds. Identity: no \`accept-encoding\`; br: \`accept-encoding: br, gzip\`. real / bare: the median of the rounds' ratios. CPU: the server process's CPU µs per answer. Load: the 1-minute load average during the rounds (2 CPUs: above 2, other processes took CPU).`,
    '',
    '| reviews | group | encoding | body bytes | real req/s | bare req/s | real / bare | floor | p99 ms real / bare | CPU µs real / bare | load |',
    '| ---: | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
  ];
  for (const size of sizes) {
    for (const group of size.groups) {
      const ratio = median(group.ratios);
      if (ratio < RATE_FLOOR)
        missed.push(`${size.build.reviews} ${group.group} ${group.encoding} ${ratio.toFixed(2)}x`);
      const med = (runs: WrkRun[], pick: (run: WrkRun) => number | null) => {
        const values = runs.map(pick).filter((value): value is number => value !== null);
        return values.length === 0 ? null : median(values);
      };
      const cpu = (runs: WrkRun[]) => med(runs, (run) => run.serverCpuUsPerRequest)?.toFixed(0) ?? '–';
      lines.push(
        `| ${size.build.reviews} | ${group.group} | ${group.encoding} | ${group.bytes} | ${Math.round(median(group.real.map((r) => r.rps)))} | ${Math.round(median(group.bare.map((r) => r.rps)))} | ${ratio.toFixed(2)} | ${ratio >= RATE_FLOOR ? 'ok' : 'MISSED'} | ${med(group.real, (r) => r.p99)!.toFixed(1)} / ${med(group.bare, (r) => r.p99)!.toFixed(1)} | ${cpu(group.real)} / ${cpu(group.bare)} | ${median(group.load).toFixed(1)} |`,
      );
    }
  }
  lines.push(
    '',
    `| reviews | RSS after the load, MB | floor (${RSS_FLOOR_MB} MB at ${RSS_FLOOR_REVIEWS / 1000}k) | RSS after the pages too, MB |`,
    '| ---: | ---: | ---: | ---: |',
  );
  for (const size of sizes) {
    const within = size.rssMb <= RSS_FLOOR_MB;
    if (!within && size.build.reviews <= RSS_FLOOR_REVIEWS)
      missed.push(`${size.build.reviews} RSS ${size.rssMb.toFixed(0)} MB`);
    lines.push(
      `| ${size.build.reviews} | ${size.rssMb.toFixed(0)} | ${within ? 'ok' : size.build.reviews <= RSS_FLOOR_REVIEWS ? 'MISSED' : "over (larger than the floor's size)"} | ${size.rssAfterPagesMb?.toFixed(0) ?? '–'} |`,
    );
  }
  console.log(`\n${lines.join('\n')}`);
  return missed;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

function log(line: string) {
  process.stderr.write(`${line}\n`);
}

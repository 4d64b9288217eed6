/**
 * REST API benchmark: /api/reviews/search and /api/reviews/since/{date} on the
 * real Node server (src/server.ts over a real build) against a bare node:http
 * server that returns the same bytes, in the same run, per dataset size.
 *
 *   node bench/rest.ts                                   # 1k, 10k, 100k reviews; 10 s per measurement; 32 connections
 *   node bench/rest.ts --sizes 1000,10000 --duration 5 --connections 32 --rebuild --wrk
 *   node bench/rest.ts --content test/fixtures/content-small   # an existing content folder instead of generated ones
 *
 * (`node` is Node 24: node_modules/.bin/node, or npm's PATH.) Options:
 *   --sizes N,N,...    generated review counts (scripts/generate-reviews.ts, seed 42)   [1000,10000,100000]
 *   --content DIR      benchmark this content folder instead of generated sizes
 *   --duration S       measured seconds per load run                                   [10]
 *   --warmup S         seconds of load before each measurement                         [2]
 *   --connections N    concurrent keep-alive connections                              [32]
 *   --rounds N         real and bare alternate in N rounds of duration/N each         [2]
 *   --cold-starts N    server starts timed per size (median reported)                 [3]
 *   --builds-dir DIR   where builds live; reused unless --rebuild                      [/tmp/bench-builds]
 *   --rebuild          generate and build again even if a build exists
 *   --wrk              also run wrk (if installed) on the same URLs, for comparison
 *   --json FILE        also write every figure as JSON
 *
 * Per size it: makes (or reuses) the build and reports its time; times cold
 * starts (process spawn to the first 200 on /api/reviews/search); starts the
 * real server, picks a recent date for since (the 10th newest review's date,
 * so k is about 10 at every size), captures the real answer of every URL;
 * starts the bare server on those captures; runs the load generator (its own
 * process, bench/lib/load.ts) against real then bare for the search mix and
 * for since; reads the real server's RSS after that load; and times the
 * handlers in-process without HTTP (bench/lib/handler-costs.ts), since the
 * LRU of bodies hides their cost under load. The load generator and the
 * server under test share the machine's cores: see bench/README.md.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, cpus, tmpdir } from 'node:os';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { NODE_OWN_HEADERS, type Capture } from './lib/bare-server.ts';
import { ensureBuild, type BuildInfo } from './lib/builds.ts';
import { measureHandlerCostsInChild, type HandlerCosts } from './lib/handler-costs.ts';
import { runLoadInChild, summarize, type LoadRun, type LoadSummary } from './lib/load.ts';
import { get, memoryOf, startBareServer, startRealServer, type Running } from './lib/processes.ts';
import { SEARCH, SEARCH_PATHS } from './lib/search-mix.ts';
import { textQueries, TEXT_QUERY_KINDS } from './lib/text-queries.ts';


const { values: args } = parseArgs({
  options: {
    sizes: { type: 'string', default: '1000,10000,100000' },
    content: { type: 'string' },
    duration: { type: 'string', default: '10' },
    warmup: { type: 'string', default: '2' },
    connections: { type: 'string', default: '32' },
    rounds: { type: 'string', default: '2' },
    'cold-starts': { type: 'string', default: '3' },
    'builds-dir': { type: 'string', default: '/tmp/bench-builds' },
    rebuild: { type: 'boolean', default: false },
    wrk: { type: 'boolean', default: false },
    json: { type: 'string' },
    'text-queries': { type: 'string', default: '60000' },
    'server-root': { type: 'string' },
  },
});
const duration = Number(args.duration);
const warmup = Number(args.warmup);
const connections = Number(args.connections);
const rounds = Math.max(1, Number(args.rounds));
const coldStarts = Math.max(1, Number(args['cold-starts']));
const cpuCount = availableParallelism();
const buildsRoot = resolve(args['builds-dir']);
const hasWrk = args.wrk && spawnSync('wrk', ['--version']).error === undefined;
const textQueryCount = Number(args['text-queries']);
// Another checkout's src/server.ts (e.g. a copy of the code before a change), over the same builds.
const serverRoot = args['server-root'] ? resolve(args['server-root']) : undefined;
if (args.wrk && !hasWrk) log('--wrk: wrk is not installed; skipping it');

interface LoadPair {
  real: LoadSummary;
  bare: LoadSummary;
  wrk?: { real: WrkResult; bare: WrkResult };
}

interface SizeResult {
  build: BuildInfo;
  coldStartMs: number[];
  listeningMs: number[];
  memory: { rss: number; peak: number };
  bareMemory: { rss: number; peak: number };
  sincePath: string;
  sinceK: number;
  search: LoadPair;
  since: LoadPair;
  /** A new text query on every request (uncached) against a few text queries repeated (cached), same server. */
  text: { uncached: LoadSummary; cached: LoadSummary; wrk?: { uncached: WrkResult; cached: WrkResult } };
  sinceWalk: SinceWalk;
  costs: HandlerCosts;
}

interface SinceWalk {
  pages: number;
  reviews: number;
  largestBytes: number;
  largestCount: number;
  ms: number;
}

const results: SizeResult[] = [];
const targets: Array<{ count?: number; contentDir?: string }> = args.content
  ? [{ contentDir: resolve(args.content) }]
  : args.sizes.split(',').map((size) => ({ count: Number(size.trim()) }));

log(`REST benchmark: ${connections} connections, ${warmup} s warm-up + ${duration} s per run, Node ${process.version}, ${availableParallelism()} CPUs (${cpus()[0]?.model ?? '?'})`);
mkdirSync(buildsRoot, { recursive: true });
for (const target of targets) {
  log(`\n== ${target.count ?? target.contentDir}`);
  const build = ensureBuild({ buildsRoot, ...target, rebuild: args.rebuild, log });
  log(`  ${build.reviews} reviews; build ${seconds(build.buildMs)} s${build.generateMs === null ? '' : `, generate ${seconds(build.generateMs)} s`}${build.reused ? ' (recorded when made)' : ''}`);
  results.push(await benchmarkSize(build));
}

rmSync(resolve(tmpdir(), `bench-rest-${process.pid}.lua`), { force: true });
const report = markdown(results);
console.log(`\n${report}`);
if (args.json) writeFileSync(resolve(args.json), `${JSON.stringify({ options: { duration, warmup, connections, rounds, coldStarts }, node: process.version, results }, null, 2)}\n`);

async function benchmarkSize(build: BuildInfo): Promise<SizeResult> {
  const coldStartMs: number[] = [];
  const listeningMs: number[] = [];
  for (let i = 0; i < coldStarts; i++) {
    const cold = await coldStart(build.distDir);
    coldStartMs.push(cold.firstOkMs);
    listeningMs.push(cold.listeningMs);
  }
  log(`  cold start (spawn → first 200 on ${SEARCH}): ${coldStartMs.map((ms) => Math.round(ms)).join(', ')} ms`);

  const real = await startRealServer(build.distDir, serverRoot);
  let bare: Running | undefined;
  try {
    // A recent date: the 10th newest review's, so since returns about 10 reviews at every size.
    const newest = JSON.parse((await get(real.origin, `${SEARCH}?limit=10`)).body.toString('utf8')) as { reviews: Array<{ date: string }> };
    const recent = newest.reviews.at(-1)?.date ?? '2000-01-01';
    const sincePath = `/api/reviews/since/${recent}`;

    const capture: Capture = {};
    for (const path of [...SEARCH_PATHS, sincePath]) {
      const answer = await get(real.origin, path);
      if (answer.status !== 200) throw new Error(`${path} answered ${answer.status}: ${answer.body.toString('utf8').slice(0, 500)}`);
      const headers: Record<string, string> = {};
      for (let i = 0; i < answer.rawHeaders.length; i += 2) {
        const name = (answer.rawHeaders[i] as string).toLowerCase();
        if (!NODE_OWN_HEADERS.has(name)) headers[name] = answer.rawHeaders[i + 1] as string;
      }
      capture[path] = { status: answer.status, headers, bodyBase64: answer.body.toString('base64') };
    }
    const sinceK = (JSON.parse(Buffer.from(capture[sincePath]!.bodyBase64, 'base64').toString('utf8')) as { count: number }).count;
    const captureFile = resolve(tmpdir(), `bench-rest-capture-${process.pid}-${build.label}.json`);
    writeFileSync(captureFile, JSON.stringify(capture));
    bare = await startBareServer(captureFile);
    // Same bytes: the bare server answers every URL exactly as captured.
    for (const path of Object.keys(capture)) {
      const echo = await get(bare.origin, path);
      if (echo.status !== 200 || echo.body.toString('base64') !== capture[path]!.bodyBase64) throw new Error(`bare server differs on ${path}`);
    }

    const costs = await measureHandlerCostsInChild(build.distDir, [...SEARCH_PATHS, sincePath], 400);
    log(`  handlers in-process: index ${costs.buildIndexMs.toFixed(0)} ms; since k=${sinceK} uncached ${costs.paths.at(-1)!.uncachedUs.toFixed(0)} µs`);

    const search = await pair('search', real, bare, SEARCH_PATHS);
    const since = await pair('since', real, bare, [sincePath]);
    const text = await textPair(real, build);
    const sinceWalk = await walkSince(real);
    log(`  since walk from 1970-01-01: ${sinceWalk.pages} pages, ${sinceWalk.reviews} reviews, largest ${sinceWalk.largestCount} reviews / ${(sinceWalk.largestBytes / 1024).toFixed(0)} KiB, ${sinceWalk.ms.toFixed(0)} ms`);
    const memory = memoryOf(real.process.pid!);
    const bareMemory = memoryOf(bare.process.pid!);
    log(`  RSS after load: real ${mb(memory.rss)} MB (peak ${mb(memory.peak)}), bare ${mb(bareMemory.rss)} MB`);
    return { build, coldStartMs, listeningMs, memory, bareMemory, sincePath, sinceK, search, since, text, sinceWalk, costs };
  } finally {
    await real.stop();
    await bare?.stop();
    rmSync(resolve(tmpdir(), `bench-rest-capture-${process.pid}-${build.label}.json`), { force: true });
  }
}

/**
 * Real and bare under the same load, interleaved in `rounds` rounds (real,
 * bare, then bare, real, ...) so that a slow spell of the machine (other
 * processes, CPU steal) falls on both; each summary merges its server's runs.
 */
async function pair(name: string, real: Running, bare: Running, paths: string[]): Promise<LoadPair> {
  const runs: Record<'real' | 'bare', LoadRun[]> = { real: [], bare: [] };
  const once = async (which: 'real' | 'bare') => {
    const server = which === 'real' ? real : bare;
    const run = await runLoadInChild({
      origin: server.origin,
      paths,
      connections,
      duration: duration / rounds,
      warmup: runs[which].length === 0 ? warmup : Math.min(warmup, 0.5),
      serverPid: server.process.pid,
    });
    if (run.non200 || run.errors) throw new Error(`${name} ${which}: ${JSON.stringify(run.statuses)}, ${run.errors} errors`);
    runs[which].push(run);
  };
  for (let round = 0; round < rounds; round++) {
    for (const which of round % 2 === 0 ? (['real', 'bare'] as const) : (['bare', 'real'] as const)) await once(which);
  }
  const out: LoadPair = { real: summarize(runs.real, cpuCount), bare: summarize(runs.bare, cpuCount) };
  for (const which of ['real', 'bare'] as const) {
    const r = out[which];
    log(`  ${name} ${which}: ${Math.round(r.rps)} req/s, p50 ${r.p50.toFixed(2)} ms, p99 ${r.p99.toFixed(2)} ms, server ${cpuUs(r)} µs CPU/req, other processes ${pct(r.foreignCpuShare)} of the CPU`);
  }
  if (hasWrk) {
    const wrkRuns: Record<'real' | 'bare', WrkResult[]> = { real: [], bare: [] };
    for (let round = 0; round < rounds; round++) {
      for (const which of round % 2 === 0 ? (['real', 'bare'] as const) : (['bare', 'real'] as const)) {
        wrkRuns[which].push(runWrk(which === 'real' ? real : bare, paths, Math.max(1, Math.round(duration / rounds))));
      }
    }
    out.wrk = { real: mergeWrk(wrkRuns.real), bare: mergeWrk(wrkRuns.bare) };
    log(`  ${name} wrk: real ${Math.round(out.wrk.real.rps)} req/s (${cpuUs(out.wrk.real)} µs CPU/req), bare ${Math.round(out.wrk.bare.rps)} req/s (${cpuUs(out.wrk.bare)} µs CPU/req)`);
  }
  return out;
}

/**
 * Text search with no help from the body LRU: a list of distinct queries
 * (bench/lib/text-queries.ts, far longer than the LRU) cycled, so every request
 * is a query the server has not answered recently, against the first 64 of
 * them repeated (all LRU hits), on the same server, interleaved.
 */
async function textPair(real: Running, build: BuildInfo): Promise<SizeResult['text']> {
  const reviews = (JSON.parse(readFileSync(resolve(build.distDir, 'client/reviews.json'), 'utf8')) as { reviews: Array<{ text: string }> }).reviews;
  const queries = textQueries(reviews, textQueryCount).map((q) => q.path);
  const cachedPaths = queries.slice(0, 64);
  const file = resolve(tmpdir(), `bench-rest-text-${process.pid}.json`);
  writeFileSync(file, JSON.stringify(queries));
  try {
    const runs: Record<'uncached' | 'cached', LoadRun[]> = { uncached: [], cached: [] };
    const wrkRuns: Record<'uncached' | 'cached', WrkResult[]> = { uncached: [], cached: [] };
    for (let round = 0; round < rounds; round++) {
      for (const which of round % 2 === 0 ? (['uncached', 'cached'] as const) : (['cached', 'uncached'] as const)) {
        const run = await runLoadInChild({
          origin: real.origin,
          ...(which === 'uncached' ? { paths: [], pathsFile: file } : { paths: cachedPaths }),
          connections,
          duration: duration / rounds,
          warmup: runs[which].length === 0 ? warmup : Math.min(warmup, 0.5),
          serverPid: real.process.pid,
        });
        if (run.non200 || run.errors) throw new Error(`text ${which}: ${JSON.stringify(run.statuses)}, ${run.errors} errors`);
        runs[which].push(run);
        if (hasWrk) wrkRuns[which].push(runWrk(real, which === 'uncached' ? queries : cachedPaths, Math.max(1, Math.round(duration / rounds))));
      }
    }
    const out: SizeResult['text'] = { uncached: summarize(runs.uncached, cpuCount), cached: summarize(runs.cached, cpuCount) };
    for (const which of ['uncached', 'cached'] as const) {
      const r = out[which];
      log(`  text ${which}: ${Math.round(r.rps)} req/s, p50 ${r.p50.toFixed(2)} ms, p99 ${r.p99.toFixed(2)} ms, server ${cpuUs(r)} µs CPU/req`);
    }
    if (hasWrk) {
      out.wrk = { uncached: mergeWrk(wrkRuns.uncached), cached: mergeWrk(wrkRuns.cached) };
      log(`  text wrk: uncached ${Math.round(out.wrk.uncached.rps)} req/s (${cpuUs(out.wrk.uncached)} µs CPU/req), cached ${Math.round(out.wrk.cached.rps)} req/s (${cpuUs(out.wrk.cached)} µs CPU/req)`);
    }
    return out;
  } finally {
    rmSync(file, { force: true });
  }
}

/** Follows since's `next` from the first possible day to the last page (one page without paging). */
async function walkSince(real: Running): Promise<SinceWalk> {
  const started = performance.now();
  const walk: SinceWalk = { pages: 0, reviews: 0, largestBytes: 0, largestCount: 0, ms: 0 };
  let path: string | null = '/api/reviews/since/1970-01-01';
  while (path) {
    const answer = await get(real.origin, path);
    if (answer.status !== 200) throw new Error(`${path} answered ${answer.status}`);
    const page = JSON.parse(answer.body.toString('utf8')) as { count: number; next?: string | null };
    walk.pages += 1;
    walk.reviews += page.count;
    walk.largestBytes = Math.max(walk.largestBytes, answer.body.byteLength);
    walk.largestCount = Math.max(walk.largestCount, page.count);
    path = page.next ?? null;
  }
  walk.ms = performance.now() - started;
  return walk;
}

async function coldStart(distDir: string): Promise<{ listeningMs: number; firstOkMs: number }> {
  const server = await startRealServer(distDir, serverRoot);
  try {
    for (;;) {
      const answer = await get(server.origin, SEARCH);
      if (answer.status === 200) return { listeningMs: server.listeningMs, firstOkMs: performance.now() - server.spawnedAt };
      if (performance.now() - server.spawnedAt > 120_000) throw new Error(`no 200 on ${SEARCH} in 120 s (last ${answer.status})`);
    }
  } finally {
    await server.stop();
  }
}

interface WrkResult {
  requests: number;
  seconds: number;
  rps: number;
  /** Server CPU µs per request over the wrk windows (null without /proc). */
  serverCpuUsPerRequest: number | null;
}

/**
 * wrk, one thread (the server has one core's worth), cycling the same paths
 * through a Lua script for `seconds`; with the server's CPU time around it.
 */
function runWrk(server: Running, paths: string[], seconds: number): WrkResult {
  const script = resolve(tmpdir(), `bench-rest-${process.pid}.lua`);
  writeFileSync(
    script,
    `local paths = {${paths.map((p) => JSON.stringify(p)).join(', ')}}\nlocal i = 0\nrequest = function()\n  i = i + 1\n  return wrk.format("GET", paths[(i % #paths) + 1])\nend\n`,
  );
  const cpuBefore = cpuSecondsOf(server.process.pid!);
  const run = spawnSync('wrk', ['-t1', `-c${connections}`, `-d${seconds}s`, '-s', script, server.origin], { encoding: 'utf8' });
  const cpuAfter = cpuSecondsOf(server.process.pid!);
  const out = run.stdout;
  if (/Non-2xx/.test(out) || run.status !== 0) throw new Error(`wrk failed or saw non-2xx answers:\n${out}${run.stderr}`);
  const requests = Number(/(\d+) requests in ([\d.]+)(ms|s|m)/.exec(out)?.[1] ?? NaN);
  const measured = /(\d+) requests in ([\d.]+)(ms|s|m)/.exec(out);
  const took = measured ? Number(measured[2]) * ({ ms: 0.001, s: 1, m: 60 } as Record<string, number>)[measured[3] as string]! : seconds;
  return {
    requests,
    seconds: took,
    rps: requests / took,
    serverCpuUsPerRequest: cpuBefore === null || cpuAfter === null ? null : ((cpuAfter - cpuBefore) * 1e6) / requests,
  };
}

/** Merges wrk rounds: rates over the summed time, CPU over the summed requests. */
function mergeWrk(runs: WrkResult[]): WrkResult {
  const requests = runs.reduce((sum, r) => sum + r.requests, 0);
  const seconds = runs.reduce((sum, r) => sum + r.seconds, 0);
  const cpu = runs.every((r) => r.serverCpuUsPerRequest !== null) ? runs.reduce((sum, r) => sum + (r.serverCpuUsPerRequest as number) * r.requests, 0) / requests : null;
  return { requests, seconds, rps: requests / seconds, serverCpuUsPerRequest: cpu };
}

/** utime + stime of a process, all threads, in seconds (Linux). */
function cpuSecondsOf(pid: number): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return null;
  }
}

function markdown(sizes: SizeResult[]): string {
  const lines: string[] = [];
  const row = (cells: Array<string | number>) => lines.push(`| ${cells.join(' | ')} |`);
  const lat = (r: { p50: number; p99: number }) => `${r.p50.toFixed(2)} / ${r.p99.toFixed(2)}`;

  lines.push(
    `Load: bench/lib/load.ts (node:http), ${connections} keep-alive connections, ${duration} s measured per server in ${rounds} interleaved rounds after ${warmup} s warm-up; latency p50 / p99 in ms. CPU µs/req: the server process's CPU time (all threads) per answer; bare/real CPU is the capacity ratio that does not depend on which process ran out of CPU first. Other CPU: share of the machine used by other processes meanwhile.`,
    '',
  );
  row(['reviews', 'endpoint', 'real req/s', 'bare req/s', 'real / bare req/s', 'real p50 / p99', 'bare p50 / p99', 'CPU µs/req real / bare', 'bare / real CPU', 'other CPU']);
  row(['---:', '---', '---:', '---:', '---:', '---:', '---:', '---:', '---:', '---:']);
  for (const s of sizes) {
    for (const [name, p] of [['search (mix of 8)', s.search], [`since (k=${s.sinceK})`, s.since]] as const) {
      const cpuRatio = p.real.serverCpuUsPerRequest && p.bare.serverCpuUsPerRequest ? (p.bare.serverCpuUsPerRequest / p.real.serverCpuUsPerRequest).toFixed(2) : '–';
      row([s.build.reviews, name, Math.round(p.real.rps), Math.round(p.bare.rps), (p.real.rps / p.bare.rps).toFixed(2), lat(p.real), lat(p.bare), `${cpuUs(p.real)} / ${cpuUs(p.bare)}`, cpuRatio, pct(Math.max(p.real.foreignCpuShare ?? 0, p.bare.foreignCpuShare ?? 0))]);
    }
  }
  if (sizes.some((s) => s.search.wrk)) {
    lines.push('', `The same URLs under wrk (1 thread, ${connections} connections, same interleaved rounds), which costs far less CPU per request than a Node client:`, '');
    row(['reviews', 'endpoint', 'real req/s', 'bare req/s', 'real / bare req/s', 'CPU µs/req real / bare', 'bare / real CPU']);
    row(['---:', '---', '---:', '---:', '---:', '---:', '---:']);
    for (const s of sizes) {
      for (const [name, p] of [['search', s.search], ['since', s.since]] as const) {
        if (!p.wrk) continue;
        const cpuRatio = p.wrk.real.serverCpuUsPerRequest && p.wrk.bare.serverCpuUsPerRequest ? (p.wrk.bare.serverCpuUsPerRequest / p.wrk.real.serverCpuUsPerRequest).toFixed(2) : '–';
        row([s.build.reviews, name, Math.round(p.wrk.real.rps), Math.round(p.wrk.bare.rps), (p.wrk.real.rps / p.wrk.bare.rps).toFixed(2), `${cpuUs(p.wrk.real)} / ${cpuUs(p.wrk.bare)}`, cpuRatio]);
      }
    }
  }

  lines.push(
    '',
    `Text search without the LRU: a new \`query\` on every request (${textQueryCount} distinct ones from bench/lib/text-queries.ts, cycled) against the first 64 of them repeated (LRU hits), same server, interleaved; node:http load${sizes.some((s) => s.text.wrk) ? ', then wrk' : ''}.`,
    '',
  );
  row(['reviews', 'new query req/s', 'repeated req/s', 'new / repeated', 'p50 / p99 new', 'CPU µs/req new / repeated', 'wrk new req/s', 'wrk repeated req/s', 'wrk new / repeated', 'wrk CPU µs/req new / repeated']);
  row(['---:', '---:', '---:', '---:', '---:', '---:', '---:', '---:', '---:', '---:']);
  for (const s of sizes) {
    const t = s.text;
    const w = t.wrk;
    row([
      s.build.reviews,
      Math.round(t.uncached.rps),
      Math.round(t.cached.rps),
      (t.uncached.rps / t.cached.rps).toFixed(2),
      lat(t.uncached),
      `${cpuUs(t.uncached)} / ${cpuUs(t.cached)}`,
      w ? Math.round(w.uncached.rps) : '–',
      w ? Math.round(w.cached.rps) : '–',
      w ? (w.uncached.rps / w.cached.rps).toFixed(2) : '–',
      w ? `${cpuUs(w.uncached)} / ${cpuUs(w.cached)}` : '–',
    ]);
  }

  lines.push('', 'Text queries in-process (no HTTP), each distinct query once, µs: query = searchPositions alone (no JSON); uncached = answerApi on a URL not answered before (parse, query, the records’ bytes spliced into the body, SHA-256 ETag). Text index: its build, paid by the first text query of a process.', '');
  row(['reviews', 'kind', 'queries', 'median matches', 'query p50 / p90 / p99 / max', 'uncached p50 / p99', 'text index build ms']);
  row(['---:', '---', '---:', '---:', '---:', '---:', '---:']);
  for (const s of sizes) {
    for (const t of s.costs.text) {
      row([s.build.reviews, t.kind, t.queries, t.medianTotal, `${us(t.query.p50)} / ${us(t.query.p90)} / ${us(t.query.p99)} / ${us(t.query.max)}`, `${us(t.uncached.p50)} / ${us(t.uncached.p99)}`, s.costs.textIndexMs === null ? '–' : s.costs.textIndexMs.toFixed(0)]);
    }
  }

  lines.push('', 'since walked from 1970-01-01 by following `next` (one page when the server does not page):', '');
  row(['reviews', 'pages', 'reviews walked', 'largest page (reviews)', 'largest page KiB', 'walk ms']);
  row(['---:', '---:', '---:', '---:', '---:', '---:']);
  for (const s of sizes) {
    const w = s.sinceWalk;
    row([s.build.reviews, w.pages, w.reviews, w.largestCount, (w.largestBytes / 1024).toFixed(0), w.ms.toFixed(0)]);
  }

  lines.push('', 'Per size: build (astro build, after generating the content), cold start (spawn → first 200 on /api/reviews/search, median), real server memory after the load above.', '');
  row(['reviews', 'generate s', 'build s', 'build CPU s', 'cold start ms', '(listening ms)', 'RSS MB', 'peak RSS MB', 'bare RSS MB']);
  row(['---:', '---:', '---:', '---:', '---:', '---:', '---:', '---:', '---:']);
  for (const s of sizes) {
    row([
      s.build.reviews,
      s.build.generateMs === null ? '–' : seconds(s.build.generateMs),
      seconds(s.build.buildMs),
      s.build.buildCpuMs === null ? '–' : seconds(s.build.buildCpuMs),
      Math.round(median(s.coldStartMs)),
      Math.round(median(s.listeningMs)),
      mb(s.memory.rss),
      mb(s.memory.peak),
      mb(s.bareMemory.rss),
    ]);
  }

  lines.push(
    '',
    "Handlers in-process (no HTTP), µs per call: query = the index query alone; uncached = query + JSON + ETag (a URL's first request), with k = reviews returned / matching; cached = a whole answerApi call with the body in the LRU (the steady state under load); parse = fromSearchParams alone (zod).",
    '',
  );
  const header = ['path'];
  for (const s of sizes) header.push(`${s.build.reviews}: query`, 'uncached', 'cached', 'parse');
  row(header);
  row(header.map((_, i) => (i === 0 ? '---' : '---:')));
  const pathCount = sizes[0]?.costs.paths.length ?? 0;
  for (let i = 0; i < pathCount; i++) {
    const isSince = i === pathCount - 1;
    const label = isSince ? '/api/reviews/since/{recent}' : (sizes[0]!.costs.paths[i]!.path.replace(SEARCH, 'search') || 'search');
    const cells: Array<string | number> = [`\`${label}\``];
    for (const s of sizes) {
      const c = s.costs.paths[i]!;
      cells.push(us(c.queryUs), `${us(c.uncachedUs)} (k=${c.count}/${c.total})`, us(c.cachedUs), c.parseUs === null ? '–' : us(c.parseUs));
    }
    row(cells);
  }
  row(['since as a linear filter (O(n) reference)', ...sizes.flatMap((s) => [us(s.costs.paths.at(-1)!.linearScanUs ?? NaN), '', '', ''])]);
  row(['index build, ms (first request)', ...sizes.flatMap((s) => [s.costs.buildIndexMs.toFixed(0), '', '', ''])]);
  row(['reviews.json JSON.parse, ms', ...sizes.flatMap((s) => [s.costs.parseDatasetMs.toFixed(0), '', '', ''])]);
  return lines.join('\n');
}

function us(value: number): string {
  return value < 10 ? value.toFixed(1) : value.toFixed(0);
}

function cpuUs(summary: { serverCpuUsPerRequest: number | null }): string {
  return summary.serverCpuUsPerRequest === null ? '–' : summary.serverCpuUsPerRequest.toFixed(0);
}

function pct(share: number | null): string {
  return share === null ? '–' : `${Math.round(share * 100)}%`;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] as number;
}

function seconds(ms: number): string {
  return (ms / 1000).toFixed(1);
}

function mb(bytes: number): string {
  return (bytes / 1024 / 1024).toFixed(0);
}

function log(line: string) {
  process.stderr.write(`${line}\n`);
}

/**
 * MCP benchmark: `tools/call search_reviews` against `GET /api/reviews/search`
 * of the same query on the same real Node server (src/server.ts over a real
 * build), interleaved in one run, for:
 *
 * - a 2025-06-18 session (initialize once, then Mcp-Session-Id on every call);
 * - a 2026-07-28 sessionless call (the per-request envelope and headers);
 * - optionally the same on another checkout (`--before DIR`, e.g. the last
 *   commit, made with `--before-from-head`), over the same build, so a change
 *   is measured before and after in one run.
 *
 *   node bench/mcp.ts                                # content/, 16 connections, 2 rounds of 4 s per target
 *   node bench/mcp.ts --before-from-head             # also HEAD's code (git archive into a temporary folder)
 *   node bench/mcp.ts --size 10000 --duration 6      # generated reviews instead of content/
 *
 * Options: --content DIR [content] | --size N (generated, seed 42); --duration S [8] measured seconds per
 * target (split over the rounds); --rounds N [2]; --warmup S [2]; --connections N [16];
 * --query JSON [{"min_rating":4,"limit":20}]; --before DIR; --before-from-head; --builds-dir DIR [/tmp/bench-builds].
 *
 * Load: bench/lib/load.ts in its own process (node:http, keep-alive, closed
 * loops), server CPU per answer from /proc. Results of real runs go to
 * docs/performance.md. Every answer is checked once before measuring: the MCP
 * result's structured content must equal the REST body.
 */
import { execSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, symlinkSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { ensureBuild } from './lib/builds.ts';
import { runLoadInChild, summarize, type LoadOptions, type LoadRun, type LoadSummary } from './lib/load.ts';
import { ROOT, startRealServer, type Running } from './lib/processes.ts';

const { values: args } = parseArgs({
  options: {
    content: { type: 'string' },
    size: { type: 'string' },
    duration: { type: 'string', default: '8' },
    rounds: { type: 'string', default: '2' },
    warmup: { type: 'string', default: '2' },
    connections: { type: 'string', default: '16' },
    query: { type: 'string', default: '{"min_rating":4,"limit":20}' },
    before: { type: 'string' },
    'before-from-head': { type: 'boolean', default: false },
    'builds-dir': { type: 'string', default: '/tmp/bench-builds' },
  },
});
const rounds = Math.max(1, Number(args.rounds));
const perRound = Number(args.duration) / rounds;
const connections = Number(args.connections);
const query = JSON.parse(args.query) as Record<string, string | number>;
const log = (line: string) => process.stderr.write(`${line}\n`);
const ACCEPT = 'application/json, text/event-stream';
const MODERN = '2026-07-28';

const build = ensureBuild({
  buildsRoot: args['builds-dir'],
  ...(args.size ? { count: Number(args.size) } : { contentDir: args.content ?? resolve(ROOT, 'content') }),
  rebuild: false,
  log,
});

let beforeRoot = args.before ? resolve(args.before) : undefined;
if (args['before-from-head']) {
  beforeRoot = mkdtempSync(join(tmpdir(), 'mcp-bench-head-'));
  // A read-only export of the last commit: nothing in this checkout changes.
  execSync(`git archive HEAD | tar -x -C ${JSON.stringify(beforeRoot)}`, { cwd: ROOT });
  symlinkSync(resolve(ROOT, 'node_modules'), resolve(beforeRoot, 'node_modules'), 'dir');
  log(`  HEAD exported to ${beforeRoot}`);
}
if (beforeRoot && !existsSync(resolve(beforeRoot, 'src/server.ts'))) throw new Error(`${beforeRoot} has no src/server.ts`);

interface Target {
  label: string;
  server: Running;
  load: Omit<LoadOptions, 'connections' | 'duration' | 'warmup'>;
}

const restPath = `/api/reviews/search?${new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)]))}`;
const callBody = (meta?: Record<string, unknown>) =>
  JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'search_reviews', arguments: query, ...(meta ? { _meta: meta } : {}) } });

async function targetsFor(name: string, server: Running, modern: boolean): Promise<Target[]> {
  const pid = server.process.pid!;
  const rest = await (await fetch(`${server.origin}${restPath}`)).json();
  const init = await fetch(`${server.origin}/mcp`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: ACCEPT },
    body: JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'bench', version: '1' } } }),
  });
  const session = init.headers.get('mcp-session-id');
  if (!session) throw new Error(`${name}: initialize gave no session: ${await init.text()}`);
  const legacyHeaders = { 'content-type': 'application/json', accept: ACCEPT, 'mcp-session-id': session, 'mcp-protocol-version': '2025-06-18' };
  const targets: Target[] = [
    { label: `${name}: REST search`, server, load: { origin: server.origin, paths: [restPath], serverPid: pid } },
    { label: `${name}: MCP 2025-06-18 session`, server, load: { origin: server.origin, paths: ['/mcp'], serverPid: pid, method: 'POST', headers: legacyHeaders, body: callBody() } },
  ];
  if (modern) {
    const meta = {
      'io.modelcontextprotocol/protocolVersion': MODERN,
      'io.modelcontextprotocol/clientInfo': { name: 'bench', version: '1' },
      'io.modelcontextprotocol/clientCapabilities': {},
    };
    const headers = { 'content-type': 'application/json', accept: ACCEPT, 'mcp-protocol-version': MODERN, 'mcp-method': 'tools/call', 'mcp-name': 'search_reviews' };
    targets.push({ label: `${name}: MCP ${MODERN} sessionless`, server, load: { origin: server.origin, paths: ['/mcp'], serverPid: pid, method: 'POST', headers, body: callBody(meta) } });
  }
  // Every target answers the same reviews before it is measured.
  for (const target of targets.slice(1)) {
    const reply = await fetch(`${server.origin}/mcp`, { method: 'POST', headers: target.load.headers, body: target.load.body });
    const json = (await reply.json()) as { result?: { structuredContent?: unknown } };
    if (JSON.stringify(json.result?.structuredContent) !== JSON.stringify(rest)) throw new Error(`${target.label} answers differently from REST: ${JSON.stringify(json).slice(0, 300)}`);
  }
  return targets;
}

const after = await startRealServer(build.distDir);
const servers: Running[] = [after];
const targets = await targetsFor('after', after, true);
if (beforeRoot) {
  const before = await startRealServer(build.distDir, beforeRoot);
  servers.push(before);
  targets.unshift(...(await targetsFor('before', before, true)));
}

const runs = new Map<string, LoadRun[]>(targets.map((t) => [t.label, []]));
try {
  for (let round = 0; round < rounds; round++) {
    // Alternate the order each round, so a slow spell of the machine falls on every target.
    const order = round % 2 === 0 ? targets : [...targets].reverse();
    for (const target of order) {
      log(`  round ${round + 1}/${rounds}: ${target.label}`);
      runs.get(target.label)!.push(await runLoadInChild({ ...target.load, connections, duration: perRound, warmup: Number(args.warmup) }));
    }
  }
} finally {
  for (const server of servers) await server.stop();
}

const cpus = availableParallelism();
const summaries = new Map<string, LoadSummary>([...runs].map(([label, list]) => [label, summarize(list, cpus)]));
const restOf = (label: string) => summaries.get(`${label.split(':')[0]}: REST search`)!;
const fmt = (n: number | null, digits = 0) => (n === null ? '–' : n.toFixed(digits));

console.log(`reviews: ${build.reviews}; query ${JSON.stringify(query)}; ${connections} connections; ${rounds} × ${perRound} s per target, interleaved; ${cpus} CPUs\n`);
console.log('| target | req/s | × REST req/s | p50 / p99 ms | server CPU µs/answer | REST CPU / this CPU | non-200 | other CPU |');
console.log('| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |');
for (const target of targets) {
  const s = summaries.get(target.label)!;
  const rest = restOf(target.label);
  const cpuRatio = s.serverCpuUsPerRequest && rest.serverCpuUsPerRequest ? rest.serverCpuUsPerRequest / s.serverCpuUsPerRequest : null;
  console.log(
    `| ${target.label} | ${fmt(s.rps)} | ${fmt(s.rps / rest.rps, 3)} | ${fmt(s.p50, 2)} / ${fmt(s.p99, 2)} | ${fmt(s.serverCpuUsPerRequest)} | ${fmt(cpuRatio, 3)} | ${s.non200 + s.errors} | ${s.foreignCpuShare === null ? '–' : `${Math.round(s.foreignCpuShare * 100)}%`} |`,
  );
}
mkdirSync(args['builds-dir'], { recursive: true });

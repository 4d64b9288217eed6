/**
 * The Node server's memory over one build, phase by phase, and its answers as
 * fingerprints for a before/after comparison (issue 11: RSS at 100k reviews).
 *
 *   node bench/server-memory.ts --dist /tmp/bench-builds/100000/dist [--server-root DIR]
 *        [--answers FILE] [--compare FILE] [--text-queries 3000] [--heap-snapshot]
 *        [--inspect] [--settle SECONDS]
 *
 * Starts src/server.ts (of this checkout, or of --server-root: e.g. a copy of
 * the tree before a change; with that checkout's `npm run serve` flags) over the build and prints VmRSS / VmHWM after:
 * start; the search mix of bench/rest.ts; N distinct text queries
 * (bench/lib/text-queries.ts, which also fill the answers' LRU); the walk of
 * since from 1970-01-01; a sample of /reviews/{id}.json; MCP tools/call
 * (search_reviews, get_review, reviews_since) on the 2026-07-28 sessionless
 * path. Requests go one at a time: this measures what the server holds, not
 * its speed.
 *
 * --answers FILE writes the SHA-256 of every answer (status, the headers a
 * client sees but Date/Connection/Keep-Alive, body) per request; --compare
 * FILE checks this server's answers against such a file and exits 1 on any
 * difference: run it once with --server-root on the old tree and once on the
 * new one, over the same build. --heap-snapshot asks the server for a V8 heap
 * snapshot (SIGUSR2, written in the server's working directory) at the end.
 * --inspect adds each phase's V8 heap and external memory, before and after a
 * forced full GC. --settle SECONDS waits that long after start before the
 * first phase: the server's background text index is then built before any
 * text query (else they are answered by a scan, over texts folded for it).
 */
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { memoryOf, ROOT, startProcess } from './lib/processes.ts';
import { SEARCH, SEARCH_PATHS as REST_MIX } from './lib/search-mix.ts';
import { textQueries } from './lib/text-queries.ts';
import { serveArgs } from '../test/helpers/serve-command.ts';

const { values: args } = parseArgs({
  options: {
    dist: { type: 'string' },
    'server-root': { type: 'string' },
    answers: { type: 'string' },
    compare: { type: 'string' },
    'text-queries': { type: 'string', default: '3000' },
    'review-files': { type: 'string', default: '500' },
    'heap-snapshot': { type: 'boolean', default: false },
    inspect: { type: 'boolean', default: false },
    settle: { type: 'string', default: '0' },
  },
});
if (!args.dist) throw new Error('--dist DIR: a build (dist/ with client/ and server/)');
const dist = resolve(args.dist);
const root = resolve(args['server-root'] ?? ROOT);
// The search mix of bench/rest.ts, and a phrase, a needle found nowhere and an old range.
const SEARCH_PATHS = [...REST_MIX, `${SEARCH}?query=the%20roof&min_rating=4`, `${SEARCH}?query=zzzzqx`, `${SEARCH}?until=2019-01-01&limit=100`];
const DROPPED_HEADERS = new Set(['date', 'connection', 'keep-alive']);

// With the Node flags of that checkout's `npm run serve` (its young generation cap, ...), as production runs it.
const server = await startProcess(serveArgs(root), {
  ASTRO_OUT_DIR: dist,
  PORT: '0',
  HOST: '127.0.0.1',
  ASTRO_NODE_LOGGING: 'disabled',
  NODE_OPTIONS: [args['heap-snapshot'] ? '--heapsnapshot-signal=SIGUSR2' : '', args.inspect ? '--inspect=127.0.0.1:0' : ''].join(' ').trim(),
});
const inspector = args.inspect ? await openInspector(server.output()) : undefined;
const pid = server.process.pid!;
const fingerprints: Record<string, string> = {};
const phases: Array<{ phase: string; rssMb: number; peakMb: number; lazyFreeMb: number; cpuS: number }> = [];

function call(path: string, init: { method?: string; headers?: Record<string, string>; body?: string } = {}): Promise<{ status: number; body: Buffer }> {
  return new Promise((resolveCall, reject) => {
    const url = new URL(path, server.origin);
    const req = request(url, { method: init.method ?? 'GET', headers: init.headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        const body = Buffer.concat(chunks);
        const hash = createHash('sha256');
        hash.update(`${res.statusCode}\n`);
        for (let i = 0; i < res.rawHeaders.length; i += 2) {
          if (!DROPPED_HEADERS.has(res.rawHeaders[i]!.toLowerCase())) hash.update(`${res.rawHeaders[i]!.toLowerCase()}: ${res.rawHeaders[i + 1]}\n`);
        }
        hash.update(body);
        const key = `${init.method ?? 'GET'} ${path}${init.body ? ` ${init.body}` : ''}${init.headers?.['accept-encoding'] ? ` (${init.headers['accept-encoding']})` : ''}`;
        fingerprints[key] = hash.digest('hex');
        resolveCall({ status: res.statusCode!, body });
      });
    });
    req.on('error', reject);
    req.end(init.body);
  });
}

async function phase(name: string) {
  let heap = '';
  if (inspector) {
    // As the load left it, then after a full collection: what the process holds, not what it has yet to free.
    const usage = async () => JSON.parse((await inspector('Runtime.evaluate', { expression: 'JSON.stringify(process.memoryUsage())', returnByValue: true })).result.value) as NodeJS.MemoryUsage;
    const mb = (bytes: number) => (bytes / 1e6).toFixed(0);
    const show = (u: NodeJS.MemoryUsage) => `RSS ${mb(u.rss)}, V8 heap ${mb(u.heapUsed)} used / ${mb(u.heapTotal)}, external ${mb(u.external)} (array buffers ${mb(u.arrayBuffers)})`;
    const before = await usage();
    await inspector('HeapProfiler.collectGarbage');
    heap = `\n    before GC: ${show(before)}\n    after GC:  ${show(await usage())}`;
  }
  const memory = memoryOf(pid);
  // Pages the process freed with MADV_FREE stay in RSS until the kernel needs them (smaps_rollup LazyFree).
  const lazyFree = Number(/^LazyFree:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8'))?.[1] ?? NaN) * 1024;
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  const cpuS = (Number(stat[11]) + Number(stat[12])) / 100;
  phases.push({ phase: name, rssMb: memory.rss / 1e6, peakMb: memory.peak / 1e6, lazyFreeMb: lazyFree / 1e6, cpuS });
  console.log(`${name.padEnd(44)} RSS ${(memory.rss / 1e6).toFixed(0).padStart(4)} MB  peak ${(memory.peak / 1e6).toFixed(0).padStart(4)} MB  lazily freed ${(lazyFree / 1e6).toFixed(0).padStart(3)} MB  server CPU ${cpuS.toFixed(1)} s${heap}`);
}

try {
  if (Number(args.settle) > 0) await new Promise((r) => setTimeout(r, Number(args.settle) * 1000));
  await phase(Number(args.settle) > 0 ? `listening, ${args.settle} s later` : 'listening');
  for (const path of SEARCH_PATHS) await call(path);
  await phase('search mix (review index built)');
  const dataset = JSON.parse(readFileSync(resolve(dist, 'client/reviews.json'), 'utf8')) as { reviews: Array<{ id: string; text: string }> };
  const queries = textQueries(dataset.reviews, Number(args['text-queries']));
  for (const query of queries) await call(query.path);
  await phase(`${queries.length} distinct text queries`);
  let next: string | null = '/api/reviews/since/1970-01-01';
  let pages = 0;
  while (next) {
    const answer = await call(next);
    next = (JSON.parse(answer.body.toString('utf8')) as { next: string | null }).next;
    pages += 1;
  }
  await phase(`since walk (${pages} pages)`);
  const step = Math.max(1, Math.floor(dataset.reviews.length / Number(args['review-files'])));
  const ids = dataset.reviews.filter((_, i) => i % step === 0).map((review) => review.id);
  for (const [i, id] of ids.entries()) await call(`/reviews/${encodeURIComponent(id)}.json`, i % 3 === 0 ? {} : { headers: { 'accept-encoding': i % 3 === 1 ? 'br' : 'gzip' } });
  await call('/reviews/no-such-review.json');
  await phase(`${ids.length} /reviews/{id}.json`);
  const mcpHeaders = (name: string) => ({
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    'mcp-protocol-version': '2026-07-28',
    'mcp-method': 'tools/call',
    'mcp-name': name,
  });
  const meta = {
    'io.modelcontextprotocol/protocolVersion': '2026-07-28',
    'io.modelcontextprotocol/clientInfo': { name: 'bench', version: '1' },
    'io.modelcontextprotocol/clientCapabilities': {},
  };
  const calls: Array<[string, object]> = [
    ['search_reviews', { min_rating: 4, limit: 20 }],
    ['search_reviews', { query: 'leak', since: '2024-01-01' }],
    ['search_reviews', { rating: 1, limit: 100 }],
    ['reviews_since', { date: '2025-06-01' }],
    ['get_review', { id: ids[1] ?? '' }],
    ['get_review', { id: 'no-such-review' }],
  ];
  for (const [i, [name, params]] of calls.entries()) {
    await call('/mcp', { method: 'POST', headers: mcpHeaders(name), body: JSON.stringify({ jsonrpc: '2.0', id: i + 1, method: 'tools/call', params: { name, arguments: params, _meta: meta } }) });
  }
  await phase('MCP tools/call');
  if (args['heap-snapshot']) {
    process.kill(pid, 'SIGUSR2');
    await new Promise((r) => setTimeout(r, 30_000));
    await phase('after heap snapshot');
  }
} finally {
  // Node waits for an attached inspector to disconnect before it exits.
  inspector?.close();
  await server.stop();
}

if (args.answers) writeFileSync(resolve(args.answers), `${JSON.stringify(fingerprints, null, 1)}\n`);
console.log(`${Object.keys(fingerprints).length} answers`);
if (args.compare) {
  const expected = JSON.parse(readFileSync(resolve(args.compare), 'utf8')) as Record<string, string>;
  const differ = Object.keys(expected).filter((key) => expected[key] !== fingerprints[key]);
  const missing = Object.keys(fingerprints).filter((key) => !(key in expected));
  for (const key of differ.slice(0, 20)) console.log(`differs: ${key.slice(0, 200)}`);
  console.log(`compared ${Object.keys(expected).length} answers: ${differ.length} differ, ${missing.length} not in ${args.compare}`);
  if (differ.length > 0 || missing.length > 0) process.exitCode = 1;
}

/** A connection to the server's inspector (--inspect): one call, one answer. */
async function openInspector(output: string) {
  const url = /ws:\/\/[^\s]+/.exec(output)?.[0];
  if (!url) throw new Error(`no inspector address in the server's output:\n${output}`);
  const socket = new WebSocket(url);
  await new Promise((resolveOpen, reject) => {
    socket.onopen = resolveOpen;
    socket.onerror = reject;
  });
  const waiting = new Map<number, (result: any) => void>();
  socket.onmessage = (event) => {
    const message = JSON.parse(String(event.data)) as { id?: number; result?: unknown };
    if (message.id !== undefined) waiting.get(message.id)?.(message.result);
  };
  let next = 0;
  const call = (method: string, params: object = {}) =>
    new Promise<any>((resolveCall) => {
      const id = ++next;
      waiting.set(id, resolveCall);
      socket.send(JSON.stringify({ id, method, params }));
    });
  return Object.assign(call, { close: () => socket.close() });
}

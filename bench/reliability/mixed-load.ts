/**
 * 60 s of mixed load on the real Node server: static
 * files with and without validators, search, since, MCP (a 2025-06-18
 * session and 2026-07-28 sessionless calls) and hub subscribes to callbacks
 * nobody answers, all at once, each from its own load-generator process
 * (bench/lib/load.ts). Must hold: no request error, no 5xx, the server's RSS
 * (sampled every second) after the warm-up never more than 10 % above the
 * highest it reached during the warm-up; p99 per kind reported.
 *
 * The server starts as production starts it: with the Node flags of
 * package.json's serve script (test/helpers/serve-command.ts reads them; today
 * --min/--max-semi-space-size=16, V8's young generation held at 2 × 16 MiB). Left
 * to itself V8 doubles its new space under this load, from 64 to 128 MiB, at a
 * moment of its choosing (20 to 85 s in, or not at all): one step of 50–60 MiB
 * of RSS while the heap in use stays flat, which no warm-up of fixed length
 * reliably covers (docs/reliability.md, "Memory under load"). --default-heap runs
 * with no flag (V8's own sizing); --node-flag <flag> (repeatable) with those
 * flags instead, to compare settings.
 *
 *   node_modules/.bin/node bench/reliability/mixed-load.ts [--seconds 60] [--warmup 15] [--only <kind>]… [--default-heap | --node-flag <flag>…]
 */
import { rmSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { runLoadInChild, summarize, type LoadOptions } from '../lib/load.ts';
import { memoryOf } from '../lib/processes.ts';
import { initializeRequest, ACCEPT } from '../../test/mcp/helpers.ts';
import { ROOT } from '../../test/helpers/builds.ts';
import { productionNodeFlags } from '../../test/helpers/serve-command.ts';
import { startServer } from '../../test/helpers/server.ts';
import { freePort, tempDir, TOPICS } from '../../test/websub/helpers.ts';
import { mib, requireBuilds, verdicts } from './lib/scenario.ts';

const { values } = parseArgs({
  options: {
    seconds: { type: 'string', default: '60' },
    warmup: { type: 'string', default: '15' },
    // --only <text>, repeatable: the kinds whose name contains one of the texts, to see which one drives memory.
    only: { type: 'string', multiple: true },
    'default-heap': { type: 'boolean', default: false },
    // --node-flag <flag>, repeatable: V8 flags of the server instead of production's (to compare heap settings).
    'node-flag': { type: 'string', multiple: true },
  },
});
const total = Number(values.seconds);
const warmup = Number(values.warmup);
requireBuilds('large');
const nodeFlags = values['node-flag'] ?? (values['default-heap'] ? [] : productionNodeFlags(ROOT));
const v = verdicts(
  `mixed load, ${total} s (${warmup} s warm-up), 10k-review build, server's Node flags: ${nodeFlags.join(' ') || "none (V8's default heap sizing)"}`,
);

const storeDir = tempDir('reliability-mixed-');
const server = await startServer(
  'large',
  {
    STORE_DIR: storeDir,
    WEBSUB_ALLOW_LOOPBACK: 'true',
    WEBSUB_SUBSCRIBE_RATE_LIMIT: '1000000000',
    WEBSUB_TIMEOUT_MS: '2000',
  },
  [],
  nodeFlags,
);
const pid = server.process.pid!;
try {
  const etagOf = async (path: string) => {
    const response = await fetch(`${server.url}${path}`);
    await response.arrayBuffer();
    return response.headers.get('etag') ?? '';
  };
  const session = await fetch(`${server.url}/mcp`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: ACCEPT },
    body: JSON.stringify(initializeRequest('2025-06-18')),
  });
  const sessionId = session.headers.get('mcp-session-id');
  await session.text();
  if (!sessionId) throw new Error(`initialize gave no session (${session.status})`);

  const call = (meta?: Record<string, unknown>) =>
    JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name: 'search_reviews', arguments: { min_rating: 4, limit: 10 }, ...(meta ? { _meta: meta } : {}) },
    });
  const modern = '2026-07-28';
  const deadCallback = `https://127.0.0.1:${await freePort()}/nobody-answers`;
  const allKinds: Array<{
    kind: string;
    connections: number;
    load: Omit<LoadOptions, 'origin' | 'connections' | 'duration' | 'warmup' | 'serverPid'>;
  }> = [
    {
      kind: 'static, no validators',
      connections: 4,
      load: { paths: ['/', '/reviews.json', '/feed.xml', '/api/feed.json', '/insights.json', '/reviews/page/2'] },
    },
    {
      kind: 'static, If-None-Match',
      connections: 2,
      load: { paths: ['/reviews.json'], headers: { 'if-none-match': await etagOf('/reviews.json') } },
    },
    {
      kind: 'search',
      connections: 3,
      load: {
        paths: [
          '/api/reviews/search',
          '/api/reviews/search?rating=5',
          '/api/reviews/search?query=leak',
          '/api/reviews/search?min_rating=4&mentions_service=gutters',
          '/api/reviews/search?since=2024-01-01&limit=100',
          '/api/reviews/search?query=zzzz',
        ],
      },
    },
    {
      kind: 'since',
      connections: 2,
      load: {
        paths: ['/api/reviews/since/2024-01-01', '/api/reviews/since/2025-06-01', '/api/reviews/since/1970-01-01'],
      },
    },
    {
      kind: 'MCP 2025-06-18 session',
      connections: 1,
      load: {
        paths: ['/mcp'],
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: ACCEPT,
          'mcp-session-id': sessionId,
          'mcp-protocol-version': '2025-06-18',
        },
        body: call(),
      },
    },
    {
      kind: `MCP ${modern} sessionless`,
      connections: 1,
      load: {
        paths: ['/mcp'],
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: ACCEPT,
          'mcp-protocol-version': modern,
          'mcp-method': 'tools/call',
          'mcp-name': 'search_reviews',
        },
        body: call({
          'io.modelcontextprotocol/protocolVersion': modern,
          'io.modelcontextprotocol/clientInfo': { name: 'reliability', version: '1' },
          'io.modelcontextprotocol/clientCapabilities': {},
        }),
      },
    },
    {
      kind: 'hub subscribe, dead callback',
      connections: 1,
      load: {
        paths: ['/api/websub/hub'],
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          'hub.mode': 'subscribe',
          'hub.callback': deadCallback,
          'hub.topic': TOPICS.atom.url,
        }).toString(),
      },
    },
  ];

  const only = values.only?.map((text) => text.toLowerCase());
  const kinds = only ? allKinds.filter((k) => only.some((text) => k.kind.toLowerCase().includes(text))) : allKinds;
  if (kinds.length === 0) throw new Error(`--only ${only!.join(', ')} names no kind`);

  // RSS sampled every second (the baseline is the highest sample of the warm-up; see below).
  const samples: Array<{ at: number; rss: number }> = [];
  const started = performance.now();
  const sampler = setInterval(
    () => samples.push({ at: (performance.now() - started) / 1000, rss: memoryOf(pid).rss }),
    1000,
  );
  const runs = await Promise.all(
    kinds.map((k) =>
      runLoadInChild({
        ...k.load,
        origin: server.url,
        connections: k.connections,
        warmup,
        duration: total - warmup,
        serverPid: pid,
      }),
    ),
  );
  clearInterval(sampler);

  let errors = 0;
  let fiveXx = 0;
  let requests = 0;
  for (const [i, run] of runs.entries()) {
    const summary = summarize([run], 2);
    const bad = Object.entries(summary.statuses)
      .filter(([status]) => status.startsWith('5'))
      .reduce((sum, [, n]) => sum + n, 0);
    errors += summary.errors;
    fiveXx += bad;
    requests += summary.requests;
    v.figure(
      kinds[i]!.kind,
      `${summary.requests} req (${summary.rps.toFixed(0)}/s), p50 ${summary.p50.toFixed(1)} ms, p99 ${summary.p99.toFixed(1)} ms, max ${summary.max.toFixed(0)} ms, statuses ${JSON.stringify(summary.statuses)}, errors ${summary.errors}`,
    );
  }
  const all = summarize(runs, 2);
  // Every generator measured the same server over (nearly) the same window: its CPU is counted once, not summed.
  const mean = (pick: (run: (typeof runs)[number]) => number) =>
    runs.reduce((sum, run) => sum + pick(run), 0) / runs.length;
  const seconds = mean((run) => run.seconds);
  const serverCpu = mean((run) => run.serverCpuSeconds ?? NaN);
  const foreign =
    mean((run) => run.machineBusySeconds ?? NaN) - serverCpu - runs.reduce((sum, run) => sum + run.loaderCpuSeconds, 0);
  v.figure(
    'all kinds',
    `${requests} requests (${(requests / seconds).toFixed(0)}/s), p99 ${all.p99.toFixed(1)} ms, server CPU ${((serverCpu * 1e6) / requests).toFixed(0)} µs/request (${serverCpu.toFixed(1)} s in ${seconds.toFixed(0)} s), other processes' CPU ${Math.max(0, foreign).toFixed(1)} s`,
  );
  v.check('no request error', errors === 0, `${errors} errors in ${requests} requests`);
  v.check('no 5xx', fiveXx === 0, `${fiveXx} 5xx`);
  // RSS saw-tooths with the garbage collector (tens of MiB between samples a few seconds apart), so the
  // warmed-up level is the highest RSS of the warm-up, not whichever sample happens to end it.
  const during = samples.filter((s) => s.at <= warmup);
  const after = samples.filter((s) => s.at > warmup);
  const baseline = Math.max(...during.map((s) => s.rss));
  const highest = Math.max(...after.map((s) => s.rss));
  v.figure(
    'RSS',
    `start of load ${mib(samples[0]!.rss)}, highest in the warm-up ${mib(baseline)} (${mib(during.at(-1)!.rss)} at its end), after it ${mib(Math.min(...after.map((s) => s.rss)))}–${mib(highest)}, at the end ${mib(after.at(-1)!.rss)}`,
  );
  v.check(
    'RSS after warm-up within +10 %',
    highest <= baseline * 1.1,
    `highest ${mib(highest)} = ${((highest / baseline - 1) * 100).toFixed(1)} % over the warm-up's highest, ${mib(baseline)}`,
  );
  const log = server.output();
  const failures = log.split('\n').filter((line) => /request failed|Unhandled|ERR_|TypeError|RangeError/.test(line));
  v.check(
    'no failure in the server log',
    failures.length === 0,
    failures.length === 0 ? 'none' : `${failures.length} lines, first: ${failures[0]!.slice(0, 200)}`,
  );
} finally {
  await server.stop();
  rmSync(storeDir, { recursive: true, force: true });
}
v.finish();

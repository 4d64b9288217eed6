/**
 * Slow-body load against the real Node server with its default
 * settings: 200 connections each POST /mcp declaring 1 MiB and sending all but
 * the last 1 KB, then nothing. The server's RSS is sampled from /proc/<pid>/status
 * throughout; meanwhile a GET and a small POST show what other clients see.
 *
 * Must hold: RSS growth over the warmed-up server stays within MAX_GROWTH_MIB
 * (the 32 MiB body budget and the connections' own buffers), and every
 * connection is answered and closed by the body deadline (10 s) plus slack,
 * after which POST /mcp answers 200 again.
 *
 *   node_modules/.bin/node bench/reliability/unfinished-bodies.ts [--connections 200] [--root <checkout>]
 *
 * Needs the test build .test-builds/content (node scripts/build-test-sites.ts).
 * --root runs another checkout's src/server.ts over the same build (e.g.
 * `git archive <base> src | tar -x -C /tmp/base` and a node_modules symlink there).
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import { DEFAULT_BODY_SETTINGS } from '../../src/node/body-settings.ts';
import { BUILDS } from '../../test/helpers/builds.ts';
import { serveArgs } from '../../test/helpers/serve-command.ts';
import { ACCEPT, initializeRequest } from '../../test/mcp/helpers.ts';
import { openBody, type BodyReply } from '../../test/reliability/bodies.ts';
import { memoryOf, ROOT, startProcess } from '../lib/processes.ts';

const { values } = parseArgs({
  options: { connections: { type: 'string', default: '200' }, root: { type: 'string', default: ROOT } },
});
const CONNECTIONS = Number(values.connections);
const MIB = 1024 * 1024;
/** The budget's 32 MiB, Node's per-socket buffers for 200 connections and the answers' garbage, with room for a loaded machine. */
const MAX_GROWTH_MIB = 80;
/** Answered and closed this long after the body deadline at the latest (the machine is shared). */
const CLOSE_SLACK_MS = 5000;
const deadlineMs = DEFAULT_BODY_SETTINGS.deadlineMs;

const distDir = BUILDS.content.outDir;
if (!existsSync(join(distDir, 'server/entry.mjs'))) {
  console.error(`no build in ${distDir}: run node scripts/build-test-sites.ts first`);
  process.exit(2);
}
const store = mkdtempSync(join(tmpdir(), 'unfinished-bodies-'));
// Default settings: blank values stand for unset, whatever the shell exports.
// As production starts it (package.json's serve script of that checkout: its V8 flags shape the RSS measured here).
const server = await startProcess(serveArgs(values.root), {
  ASTRO_OUT_DIR: distDir,
  PORT: '0',
  HOST: '127.0.0.1',
  ASTRO_NODE_LOGGING: 'disabled',
  STORE_DIR: store,
  REDIS_URL: '',
  REQUEST_BODY_TIMEOUT_MS: '',
  REQUEST_BODY_BUDGET_BYTES: '',
});
const pid = server.process.pid as number;
const port = Number(new URL(server.origin).port);
const mib = (bytes: number) => (bytes / MIB).toFixed(1);

const postInitialize = async () => {
  const started = performance.now();
  try {
    const response = await fetch(`${server.origin}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: ACCEPT },
      body: JSON.stringify(initializeRequest()),
    });
    await response.arrayBuffer();
    return { status: response.status, ms: Math.round(performance.now() - started) };
  } catch (error) {
    return { status: 0, ms: Math.round(performance.now() - started), error: String(error) };
  }
};
const getStatic = async () => {
  const started = performance.now();
  const response = await fetch(`${server.origin}/reviews.json`);
  await response.arrayBuffer();
  return { status: response.status, ms: Math.round(performance.now() - started) };
};

let failed = false;
const check = (ok: boolean, what: string) => {
  console.log(`${ok ? 'ok  ' : 'FAIL'} ${what}`);
  if (!ok) failed = true;
};

try {
  // Warm up: the paths the load and the probes take, then the baseline.
  for (let i = 0; i < 20; i++) await Promise.all([getStatic(), postInitialize()]);
  await sleep(500);
  const baseline = memoryOf(pid).rss;
  let peak = baseline;
  const sampler = setInterval(() => {
    try {
      peak = Math.max(peak, memoryOf(pid).rss);
    } catch {
      // The process is gone: the checks below say so.
    }
  }, 100);

  const opened = performance.now();
  const bodies = Array.from({ length: CONNECTIONS }, () => openBody(port, '/mcp', { declared: MIB, send: MIB - 1024 }));
  const waitFor = deadlineMs + CLOSE_SLACK_MS;
  const replies = bodies.map((body) =>
    body.closed(waitFor).then(
      (reply): BodyReply & { ms: number } => ({ ...reply, ms: Math.round(performance.now() - opened) }),
      () => ({ status: -1, headers: {}, body: '', ms: Infinity }),
    ),
  );
  // While the bodies hang: what a reader and another MCP client see.
  await sleep(2000);
  const duringGet = await getStatic();
  const duringPost = await postInitialize();
  const heldRss = memoryOf(pid).rss;
  const settled = await Promise.all(replies);
  clearInterval(sampler);
  const afterPost = await postInitialize();
  const afterRss = memoryOf(pid).rss;

  const count = (status: number) => settled.filter((reply) => reply.status === status).length;
  const closedMs = settled.map((reply) => reply.ms).filter(Number.isFinite);
  const lastClose = closedMs.length ? Math.max(...closedMs) : NaN;
  const settings = `body deadline ${deadlineMs} ms, budget ${mib(DEFAULT_BODY_SETTINGS.budgetBytes)} MiB`;
  console.log(
    `server: ${values.root === ROOT ? `this checkout, default settings (${settings})` : `${values.root}, default settings`}`,
  );
  console.log(`${CONNECTIONS} connections × POST /mcp, Content-Length 1 MiB, ${MIB - 1024} bytes sent, then silence`);
  console.log(
    `RSS: baseline ${mib(baseline)} MiB, 2 s in ${mib(heldRss)} MiB, peak ${mib(peak)} MiB (+${mib(peak - baseline)}), after ${mib(afterRss)} MiB`,
  );
  console.log(
    `answers: 408 ${count(408)}, 503 ${count(503)}, reset without an answer ${count(0)}, still open after ${waitFor} ms ${count(-1)}`,
  );
  console.log(`last connection closed ${Number.isFinite(lastClose) ? `${lastClose} ms` : 'never'} after opening`);
  console.log(
    `during: GET /reviews.json ${duringGet.status} in ${duringGet.ms} ms; POST /mcp ${duringPost.status} in ${duringPost.ms} ms`,
  );
  console.log(`after: POST /mcp ${afterPost.status} in ${afterPost.ms} ms`);
  check(peak - baseline <= MAX_GROWTH_MIB * MIB, `RSS growth ${mib(peak - baseline)} MiB ≤ ${MAX_GROWTH_MIB} MiB`);
  check(count(-1) === 0, `every connection answered and closed within the deadline + ${CLOSE_SLACK_MS} ms`);
  check(duringGet.status === 200, 'GET answers 200 while the bodies hang');
  check(afterPost.status === 200, 'POST /mcp answers 200 once the deadline has freed the budget');
  for (const body of bodies) body.socket.destroy();
} finally {
  await server.stop();
  rmSync(store, { recursive: true, force: true });
}
process.exit(failed ? 1 : 0);

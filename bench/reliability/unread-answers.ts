/**
 * Clients that do not read their answers, against the real Node server with
 * its default settings: CONNECTIONS connections each POST /mcp a 2025-03-26
 * batch of 100 `tools/list` (an answer of about 3.5 MB at 10k reviews) and
 * never read. The server's RSS is sampled throughout; meanwhile a GET and a
 * small MCP POST show what other clients see.
 *
 * Must hold: RSS growth over the warmed-up server stays within MAX_GROWTH_MIB
 * (the 64 MiB budget of unread answers and the sockets' own buffers), every
 * stalled connection gets an answer's head (200, or 503 past the budget), the
 * other clients are answered meanwhile, and a big answer is served again
 * after the answer deadline. On loopback the kernel takes about 4 MB of a
 * paused socket's answer, so most of each answer leaves the process at once;
 * test/reliability/unread-answers.test.ts holds answers larger than that.
 *
 *   node_modules/.bin/node bench/reliability/unread-answers.ts [--connections 120] [--root <checkout>]
 *
 * Needs the test build .test-builds/large (node scripts/build-test-sites.ts).
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import { DEFAULT_BODY_SETTINGS } from '../../src/node/body-settings.ts';
import { BUILDS } from '../../test/helpers/builds.ts';
import { serveArgs } from '../../test/helpers/serve-command.ts';
import { ACCEPT, initialize } from '../../test/mcp/helpers.ts';
import { memoryOf, ROOT, startProcess } from '../lib/processes.ts';

const { values } = parseArgs({
  options: { connections: { type: 'string', default: '120' }, root: { type: 'string', default: ROOT } },
});
const CONNECTIONS = Number(values.connections);
const MIB = 1024 * 1024;
/** The 64 MiB budget, the sockets' buffers and the answers' garbage, with room for a loaded machine. */
const MAX_GROWTH_MIB = 160;
const deadlineMs = DEFAULT_BODY_SETTINGS.answerDeadlineMs;

const distDir = BUILDS.large.outDir;
if (!existsSync(join(distDir, 'server/entry.mjs'))) {
  console.error(`no build in ${distDir}: run node scripts/build-test-sites.ts first`);
  process.exit(2);
}
const store = mkdtempSync(join(tmpdir(), 'unread-answers-'));
const server = await startProcess(serveArgs(values.root), {
  ASTRO_OUT_DIR: distDir,
  PORT: '0',
  HOST: '127.0.0.1',
  ASTRO_NODE_LOGGING: 'disabled',
  STORE_DIR: store,
  REDIS_URL: '',
  RESPONSE_BODY_TIMEOUT_MS: '',
  RESPONSE_BODY_BUDGET_BYTES: '',
});
const pid = server.process.pid as number;
const port = Number(new URL(server.origin).port);
const mib = (bytes: number) => (bytes / MIB).toFixed(1);

const { sessionId } = await initialize(`${server.origin}/mcp`, '2025-03-26');
const batch = JSON.stringify(Array.from({ length: 100 }, (_, id) => ({ jsonrpc: '2.0', id, method: 'tools/list' })));

/** Sends the batch and reads only the status line, then stops reading. */
function stalled(): Promise<{ socket: Socket; status: number }> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1', () =>
      socket.write(
        `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/json\r\nAccept: ${ACCEPT}\r\n` +
          `Mcp-Session-Id: ${sessionId}\r\nMcp-Protocol-Version: 2025-03-26\r\nContent-Length: ${Buffer.byteLength(batch)}\r\n\r\n${batch}`,
      ),
    );
    socket.once('data', (chunk: Buffer) => {
      socket.pause();
      resolve({ socket, status: Number(/^HTTP\/1\.1 (\d{3})/.exec(chunk.toString('latin1'))?.[1] ?? 0) });
    });
    socket.on('error', () => resolve({ socket, status: 0 }));
  });
}

const timedFetch = async (path: string, init?: RequestInit) => {
  const started = performance.now();
  const response = await fetch(`${server.origin}${path}`, init);
  const bytes = (await response.arrayBuffer()).byteLength;
  return { status: response.status, bytes, ms: Math.round(performance.now() - started) };
};
const mcpBatch = () =>
  timedFetch('/mcp', {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: ACCEPT,
      'mcp-session-id': sessionId,
      'mcp-protocol-version': '2025-03-26',
    },
    body: batch,
  });
const ping = () =>
  timedFetch('/mcp', {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: ACCEPT,
      'mcp-session-id': sessionId,
      'mcp-protocol-version': '2025-03-26',
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }),
  });

let failed = false;
const check = (ok: boolean, what: string) => {
  console.log(`${ok ? 'ok  ' : 'FAIL'} ${what}`);
  if (!ok) failed = true;
};

try {
  for (let i = 0; i < 5; i++) await Promise.all([mcpBatch(), timedFetch('/api/reviews/search?min_rating=4')]);
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

  const held = await Promise.all(Array.from({ length: CONNECTIONS }, () => stalled()));
  const during = { search: await timedFetch('/api/reviews/search?min_rating=3'), ping: await ping() };
  const heldRss = memoryOf(pid).rss;
  await sleep(deadlineMs + 2000);
  const after = await mcpBatch();
  clearInterval(sampler);

  const count = (status: number) => held.filter((reply) => reply.status === status).length;
  console.log(
    `server: ${values.root === ROOT ? 'this checkout' : values.root}, default settings (answer deadline ${deadlineMs} ms, budget ${mib(DEFAULT_BODY_SETTINGS.answerBudgetBytes)} MiB)`,
  );
  console.log(
    `${CONNECTIONS} connections × POST /mcp, a batch of 100 tools/list (${mib(after.bytes)} MiB), never read`,
  );
  console.log(
    `RSS: baseline ${mib(baseline)} MiB, while held ${mib(heldRss)} MiB, peak ${mib(peak)} MiB (+${mib(peak - baseline)})`,
  );
  console.log(`answers: 200 ${count(200)}, 503 ${count(503)}, none ${count(0)}`);
  console.log(
    `during: search ${during.search.status} in ${during.search.ms} ms; ping ${during.ping.status} in ${during.ping.ms} ms`,
  );
  console.log(`after the deadline: the batch ${after.status} in ${after.ms} ms`);
  check(peak - baseline <= MAX_GROWTH_MIB * MIB, `RSS growth ${mib(peak - baseline)} MiB ≤ ${MAX_GROWTH_MIB} MiB`);
  check(count(0) === 0, 'every stalled connection got an answer');
  check(during.search.status === 200 && during.ping.status === 200, 'other clients answered meanwhile');
  check(after.status === 200, 'a big answer is served again after the deadline');
  for (const { socket } of held) socket.destroy();
} finally {
  await server.stop();
  rmSync(store, { recursive: true, force: true });
}
process.exit(failed ? 1 : 0);

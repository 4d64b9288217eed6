/**
 * Unfinished request bodies (issue 14, item 2) against the real Node server:
 * a body that stalls is answered 408 and its connection closed at the body
 * deadline, and while unfinished bodies hold the process's budget a further
 * body is refused at once (503, Retry-After) instead of being buffered, with
 * GETs unaffected and POSTs working again once the stalled sockets are gone.
 * Short deadline and small budget through the environment, as an operator sets them.
 */
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { startServer, type RunningServer } from '../helpers/server.ts';
import { ACCEPT, initializeRequest } from '../mcp/helpers.ts';
import { openBody, type OpenBody } from './bodies.ts';
import { timed, until } from './helpers.ts';

const MIB = 1024 * 1024;
const DEADLINE_MS = 1500;
let server: RunningServer;

before(async () => {
  server = await startServer('small', {
    REQUEST_BODY_TIMEOUT_MS: String(DEADLINE_MS),
    REQUEST_BODY_BUDGET_BYTES: String(2 * MIB),
  });
});
after(() => server?.stop());

/** The body: /mcp's 1 MiB limit declared, all but the last 1 KB sent, then nothing. */
const stalledMcp = (chunked = false) =>
  openBody(server.port, '/mcp', { declared: chunked ? undefined : MIB, send: MIB - 1024 });

/** An MCP initialize padded with whitespace to `size` bytes (still valid JSON). */
function postInitialize(size = 0) {
  const json = JSON.stringify(initializeRequest());
  return fetch(`${server.url}/mcp`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: ACCEPT },
    body: json + ' '.repeat(Math.max(0, size - json.length)),
  });
}

/** Waits until the unfinished bodies fill the budget: a 4 KB body is refused. */
async function budgetFull() {
  const { value: reply, ms } = await until(
    () => postInitialize(4096),
    (response) => response.status === 503,
    5000,
  );
  assert.equal(reply.status, 503, `a 4 KB body still answered ${reply.status} after ${ms} ms of unfinished bodies`);
  return reply;
}

async function closeAll(bodies: OpenBody[]) {
  for (const body of bodies) body.socket.destroy();
}

it('a body that stalls gets a 408 JSON error and its connection closed at the deadline', async () => {
  const stalled = stalledMcp();
  const { value: reply, ms } = await timed(() => stalled.closed(DEADLINE_MS + 5000));
  assert.equal(reply.status, 408, `answered ${reply.status} after ${ms} ms`);
  assert.match(reply.headers['content-type'] ?? '', /^application\/json/);
  assert.equal(reply.headers.connection, 'close');
  assert.equal(JSON.parse(reply.body).error, 'request_timeout');
  assert.ok(ms >= DEADLINE_MS - 100 && ms < DEADLINE_MS + 1500, `closed after ${ms} ms (deadline ${DEADLINE_MS} ms)`);
  console.log(`stalled body answered 408 and closed after ${ms} ms (deadline ${DEADLINE_MS} ms)`);
});

it('while unfinished bodies hold the budget a further body gets a prompt 503, GETs answer 200, and POSTs work again after the deadline frees them', async () => {
  // One declared, one chunked (counted as its bytes arrive): together all but 1 KB of the 2 MiB budget.
  const stalled = [stalledMcp(), stalledMcp(true)];
  try {
    const refused = await budgetFull();
    assert.equal(refused.headers.get('retry-after'), '5');
    assert.equal(refused.headers.get('connection'), 'close');
    assert.equal(((await refused.json()) as { error: string }).error, 'server_busy');
    const { ms: refusedMs } = await timed(async () => assert.equal((await postInitialize(4096)).status, 503));
    assert.ok(refusedMs < 1000, `refused after ${refusedMs} ms`);
    // A hub body is refused as well: the budget is the process's, not the route's.
    const hub = await fetch(`${server.url}/api/websub/hub`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'x'.repeat(4096),
    });
    assert.equal(hub.status, 503);
    for (const path of ['/reviews.json', '/api/reviews/search?min_rating=4']) {
      assert.equal((await fetch(`${server.url}${path}`)).status, 200, path);
    }
    // The deadline answers the stalled ones and frees their bytes.
    for (const body of stalled) assert.equal((await body.closed(DEADLINE_MS + 5000)).status, 408);
    const again = await postInitialize(4096);
    assert.equal(again.status, 200, await again.text());
  } finally {
    await closeAll(stalled);
  }
});

it('a client that hangs up mid-body gives its bytes back at once', async () => {
  const stalled = [stalledMcp(), stalledMcp(true)];
  await budgetFull();
  await closeAll(stalled);
  const { value: reply, ms } = await until(
    () => postInitialize(4096),
    (response) => response.status === 200,
    1000,
  );
  assert.equal(reply.status, 200, `still ${reply.status} ${ms} ms after the hang-up`);
  assert.ok(ms < DEADLINE_MS, `POSTs worked again after ${ms} ms, not before the deadline`);
});

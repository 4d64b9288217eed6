/**
 * Redis missing at start and killed mid-run, against the real Node server and
 * a real redis-server (issue 14, item 6): the server starts and says what is
 * wrong, naming REDIS_URL; static files and search keep working; the hub and
 * MCP 2025 sessions answer a prompt 503 JSON error with Retry-After (no hang,
 * no 500, no "[ioredis] Unhandled error event" flood); once Redis is back,
 * they work again without a restart.
 */
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { DEFAULT_SITE_URL } from '../../src/lib/config/site.ts';
import { freePort, initializeRequest, post } from '../mcp/helpers.ts';
import { startServer, type RunningServer } from '../helpers/server.ts';
import { hubPost, TOPICS } from '../websub/helpers.ts';
import { startRedisOn, timed, until, type LocalRedis } from './helpers.ts';

/** A 503 must come about this fast (the store's 2 s connection/command bound, and some slack for a loaded machine). */
const PROMPT_MS = 2500;

let port: number;
let server: RunningServer;
let redis: LocalRedis | undefined;

before(async () => {
  port = await freePort();
  server = await startServer('small', { REDIS_URL: `redis://127.0.0.1:${port}`, WEBSUB_ALLOW_LOOPBACK: 'true' });
});
after(async () => {
  await server?.stop();
  await redis?.kill();
});

const subscribe = () =>
  hubPost(server.url, {
    'hub.mode': 'subscribe',
    'hub.callback': `https://127.0.0.1:${port}/nobody-listens`,
    'hub.topic': TOPICS.atom.url,
  });
const initialize = () => post(`${server.url}/mcp`, initializeRequest('2025-06-18'));

async function assertStoreUnavailable(
  response: Response | { status: number; headers: Headers; text: string },
  ms: number,
  what: string,
) {
  const text =
    'text' in response && typeof response.text === 'string' ? response.text : await (response as Response).text();
  assert.equal(response.status, 503, `${what}: ${text}`);
  assert.ok(ms < PROMPT_MS, `${what} took ${ms} ms`);
  assert.ok(Number(response.headers.get('retry-after')) > 0, `${what}: Retry-After`);
  const body = JSON.parse(text) as { error: string; message: string };
  assert.equal(body.error, 'store_unavailable');
  assert.match(body.message, /REDIS_URL/);
}

it('with REDIS_URL pointing at nothing: starts, names REDIS_URL once, serves static files and search, 503s the store routes promptly', async () => {
  assert.match(server.output(), /REDIS_URL \(redis:\/\/127\.0\.0\.1:\d+\) is unreachable/);
  const page = await fetch(`${server.url}/reviews.json`);
  assert.equal(page.status, 200);
  await page.arrayBuffer();
  const search = await timed(() => fetch(`${server.url}/api/reviews/search?min_rating=1&limit=2`));
  assert.equal(search.value.status, 200, await search.value.clone().text());
  await search.value.arrayBuffer();
  console.log(`no Redis at start: search answered 200 in ${search.ms} ms`);

  const hub = await timed(subscribe);
  await assertStoreUnavailable(hub.value, hub.ms, 'hub subscribe');
  const mcp = await timed(initialize);
  await assertStoreUnavailable(mcp.value, mcp.ms, 'MCP 2025 initialize');
  console.log(`no Redis at start: hub 503 in ${hub.ms} ms, MCP initialize 503 in ${mcp.ms} ms`);
  // The start-up publish is retried every 2 s meanwhile; the log says so once, not per retry.
  await new Promise((resolve) => setTimeout(resolve, 4_500));
  assert.equal(server.output().match(/start-up publish waits for the store/g)?.length, 1, server.output());
});

it('Redis started later: the hub and sessions work without a restart', async () => {
  redis = await startRedisOn(port);
  const hub = await until(subscribe, (r) => r.status !== 503, 10_000);
  assert.equal(hub.value.status, 202, await hub.value.text());
  const mcp = await until(initialize, (r) => r.status !== 503, 10_000);
  assert.equal(mcp.value.status, 200, mcp.value.text);
  console.log(`Redis back: hub answering again after ${hub.ms} ms`);
  assert.match(server.output(), /REDIS_URL \(redis:\/\/127\.0\.0\.1:\d+\) is reachable again/);
  // The start-up publish that found no store ran once it was back.
  await until(
    async () => server.output(),
    (output) => /websub: start-up publish done/.test(output),
    10_000,
  );
  assert.match(server.output(), /websub: start-up publish done/);
  assert.match(server.output(), /websub: the store is reachable again; start-up publish runs/);
});

it('Redis killed mid-run: prompt 503s, the session still works once it is back, one log line per outage and no ioredis flood', async () => {
  const { sessionId } = await (async () => {
    const reply = await initialize();
    assert.equal(reply.status, 200);
    return { sessionId: reply.headers.get('mcp-session-id')! };
  })();
  const listTools = () =>
    post(
      `${server.url}/mcp`,
      { jsonrpc: '2.0', id: 2, method: 'tools/list' },
      { 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-06-18' },
    );
  assert.equal((await listTools()).status, 200);

  await redis!.kill();
  const hub = await timed(subscribe);
  await assertStoreUnavailable(hub.value, hub.ms, 'hub subscribe after kill');
  const tools = await timed(listTools);
  await assertStoreUnavailable(tools.value, tools.ms, 'MCP tools/list in a session after kill');
  // Several requests during the outage: all prompt, none a 500.
  for (let i = 0; i < 5; i++) {
    const again = await timed(subscribe);
    await assertStoreUnavailable(again.value, again.ms, `hub subscribe #${i} during the outage`);
  }
  const search = await fetch(`${server.url}/api/reviews/search?limit=1`);
  assert.equal(search.status, 200);
  await search.arrayBuffer();
  console.log(`Redis killed: hub 503 in ${hub.ms} ms, session request 503 in ${tools.ms} ms`);

  redis = await startRedisOn(port);
  // Redis came back empty (no persistence): the session key is offered again by this process, so the session lives on.
  const back = await until(listTools, (r) => r.status !== 503, 10_000);
  assert.equal(back.value.status, 200, back.value.text);
  console.log(`Redis restarted: session request answered after ${back.ms} ms`);

  const output = server.output();
  assert.doesNotMatch(output, /Unhandled error event/);
  assert.doesNotMatch(output, /request failed|Internal error/);
  assert.equal(output.match(/^store: Redis at .* is unreachable/gm)?.length, 2, `one line per outage:\n${output}`);
});

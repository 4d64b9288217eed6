/**
 * Sessions that survive any instance: two server processes sharing one store
 * (a folder, then Redis) start at once, agree on the generated signing key,
 * serve each other's sessions, keep serving them after a restart, and share
 * ended sessions. A configured MCP_SESSION_SECRET needs no shared key.
 */
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { startServer, type RunningServer } from '../helpers/server.ts';
import { initialize, post, startRedis, tempDir } from './helpers.ts';

const running = new Set<RunningServer>();
const cleanups: Array<() => Promise<void> | void> = [];
after(async () => {
  await Promise.all([...running].map((s) => s.stop()));
  for (const cleanup of cleanups) await cleanup();
});

async function start(env: Record<string, string>): Promise<RunningServer> {
  const server = await startServer('content', env);
  running.add(server);
  return server;
}
async function stop(server: RunningServer) {
  await server.stop();
  running.delete(server);
}

/** A client that continues an existing session on another instance (no initialize). */
async function resume(server: RunningServer, sessionId: string) {
  const transport = new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), { sessionId });
  const client = new Client({ name: 'resuming-client', version: '1.0.0' });
  await client.connect(transport);
  return { client, transport };
}

type ToolResult = { isError?: boolean; structuredContent?: any; content: Array<{ type: string; text?: string }> };
const listTools = { jsonrpc: '2.0', id: 7, method: 'tools/list' };

async function sharedStoreScenario(env: Record<string, string>) {
  // Both start at once on an empty store: they must settle on one generated key.
  let [a, b] = (await Promise.all([start(env), start(env)])) as [RunningServer, RunningServer];

  const first = new Client({ name: 'test-client', version: '1.0.0' });
  const firstTransport = new StreamableHTTPClientTransport(new URL(`${a.url}/mcp`));
  await first.connect(firstTransport);
  const sessionId = firstTransport.sessionId;
  assert.ok(sessionId);

  // The same session on the other process.
  const onB = await resume(b, sessionId);
  const { tools } = await onB.client.listTools();
  assert.ok(tools.some((t) => t.name === 'search_reviews'));
  const found = (await onB.client.callTool({
    name: 'search_reviews',
    arguments: { rating: 5, limit: 2 },
  })) as ToolResult;
  assert.equal(found.isError, undefined, JSON.stringify(found.content));
  assert.equal(found.structuredContent.count, 2);
  const business = (await onB.client.callTool({ name: 'get_business', arguments: {} })) as ToolResult;
  assert.ok(business.structuredContent.business.name);

  // A restarted process continues the session.
  await stop(a);
  a = await start(env);
  const onRestarted = await resume(a, sessionId);
  const review = (await onRestarted.client.callTool({
    name: 'get_review',
    arguments: { id: found.structuredContent.reviews[0].id },
  })) as ToolResult;
  assert.deepEqual(review.structuredContent.review, found.structuredContent.reviews[0]);
  await first.close();

  // DELETE on one process ends it on the other.
  await onB.transport.terminateSession();
  const afterDelete = await post(`${a.url}/mcp`, listTools, { 'mcp-session-id': sessionId });
  assert.equal(afterDelete.status, 404);
  assert.equal(afterDelete.json.error.code, -32001);
  // ... and a restarted process remembers it.
  await stop(b);
  b = await start(env);
  assert.equal((await post(`${b.url}/mcp`, listTools, { 'mcp-session-id': sessionId })).status, 404);
  // New sessions still work everywhere.
  const fresh = await initialize(`${b.url}/mcp`);
  assert.equal((await post(`${a.url}/mcp`, listTools, { 'mcp-session-id': fresh.sessionId })).status, 200);

  await onB.client.close();
  await onRestarted.client.close();
  await Promise.all([stop(a), stop(b)]);
}

describe('MCP sessions across processes', () => {
  it('two processes on one store folder share sessions, restarts and DELETE', async () => {
    const store = tempDir('mcp-sessions-');
    cleanups.push(store.remove);
    await sharedStoreScenario({ STORE_DIR: store.path });
  });

  it('the same on Redis', async () => {
    const redis = await startRedis();
    cleanups.push(redis.stop);
    const unusedDir = tempDir('mcp-sessions-redis-');
    cleanups.push(unusedDir.remove);
    await sharedStoreScenario({ REDIS_URL: redis.url, STORE_DIR: unusedDir.path });
  });

  it('MCP_SESSION_SECRET: any process with the secret serves the session; another secret refuses it', async () => {
    const secret = 'a-configured-secret-of-at-least-32-characters';
    const [dirA, dirB, dirC] = [tempDir('mcp-secret-a-'), tempDir('mcp-secret-b-'), tempDir('mcp-secret-c-')];
    cleanups.push(dirA.remove, dirB.remove, dirC.remove);
    const [a, b, c] = await Promise.all([
      start({ STORE_DIR: dirA.path, MCP_SESSION_SECRET: secret }),
      start({ STORE_DIR: dirB.path, MCP_SESSION_SECRET: secret }),
      start({ STORE_DIR: dirC.path, MCP_SESSION_SECRET: `${secret}-but-another` }),
    ]);
    const { sessionId } = await initialize(`${a.url}/mcp`);
    assert.equal((await post(`${b.url}/mcp`, listTools, { 'mcp-session-id': sessionId })).status, 200);
    assert.equal((await post(`${c.url}/mcp`, listTools, { 'mcp-session-id': sessionId })).status, 404);
    await Promise.all([stop(a), stop(b), stop(c)]);
  });

  it('a short MCP_SESSION_SECRET stops the server at start with a clear message', async () => {
    const dir = tempDir('mcp-short-secret-');
    cleanups.push(dir.remove);
    await assert.rejects(
      startServer('content', { STORE_DIR: dir.path, MCP_SESSION_SECRET: 'short' }),
      /MCP_SESSION_SECRET must be at least 32 characters/,
    );
  });
});

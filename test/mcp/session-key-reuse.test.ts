/**
 * Checking a 2025 session id reuses the session key read within the last
 * second (one store read less per request), yet an id signed with a key
 * another instance has just stored is served at once: the failed signature
 * makes the instance read the key again before answering 404.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { after, it } from 'node:test';
import { createMcpService } from '../../src/lib/mcp/service.ts';
import { SESSION_KEY } from '../../src/lib/mcp/session-store.ts';
import { createStore } from '../../src/lib/store/index.ts';
import type { Store } from '../../src/lib/store/store.ts';
import { BUILDS } from '../helpers/builds.ts';
import { ACCEPT, initializeRequest, tempDir } from './helpers.ts';

const dir = tempDir('mcp-key-reuse-');
const store = createStore({ dir: dir.path, redisPrefix: 'test' });
after(async () => {
  await store.close();
  dir.remove();
});
const dataset = JSON.parse(readFileSync(resolve(BUILDS.content.outDir, 'client/reviews.json'), 'utf8'));

/** The one store, counting the reads of the session key. */
let keyReads = 0;
const counting = new Proxy(store, {
  get(target, property, receiver) {
    if (property === 'get') {
      return (key: string, options?: { corrupt?: 'throw' }) => {
        if (key === SESSION_KEY) keyReads++;
        return target.get(key, options);
      };
    }
    return Reflect.get(target, property, receiver);
  },
}) as Store;

const instance = () =>
  createMcpService({
    content: { site: 'http://localhost:4321', dataset },
    store: () => counting,
    env: {},
    bindHost: '127.0.0.1',
  });
const post = (handle: (request: Request) => Promise<Response>, body: unknown, headers: Record<string, string> = {}) =>
  handle(
    new Request('http://localhost:4321/mcp', {
      method: 'POST',
      headers: { host: 'localhost:4321', 'content-type': 'application/json', accept: ACCEPT, ...headers },
      body: JSON.stringify(body),
    }),
  );
const listTools = { jsonrpc: '2.0', id: 2, method: 'tools/list' };

it('session checks reuse the key read a moment ago; an id of a key just stored elsewhere is still served', async () => {
  const a = await instance();
  const opened = await post(a, initializeRequest());
  const first = opened.headers.get('mcp-session-id');
  assert.ok(first);

  const readsBefore = keyReads;
  for (let i = 0; i < 5; i++) assert.equal((await post(a, listTools, { 'mcp-session-id': first })).status, 200);
  assert.ok(keyReads - readsBefore <= 1, `five checks read the key ${keyReads - readsBefore} times`);

  // Another instance finds a new key in the store (say, after Redis lost its data) and signs with it.
  await store.set(SESSION_KEY, Buffer.alloc(32, 3).toString('base64url'));
  const b = await instance();
  const second = (await post(b, initializeRequest())).headers.get('mcp-session-id');
  assert.ok(second);
  assert.equal((await post(a, listTools, { 'mcp-session-id': second })).status, 200, "b's session on a, at once");
  // a has adopted the stored key: ids of the old one end there too.
  assert.equal((await post(a, listTools, { 'mcp-session-id': first })).status, 404);
});

/**
 * A retried request answers the same: every tool and resource is a pure
 * function of its arguments over data that changes only with a deploy, so
 * the same request sent again (a client's retry, a second model turn) gets
 * the same status, headers and result, in both revisions, refusals included.
 * Against the real built server, each request three times with other ids.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startServer, type RunningServer } from '../helpers/server.ts';
import { initialize, post, tempDir } from './helpers.ts';

let server: RunningServer;
let url: string;
const store = tempDir('mcp-repeat-');

before(async () => {
  server = await startServer('content', { STORE_DIR: store.path });
  url = `${server.url}/mcp`;
});
after(async () => {
  await server?.stop();
  store.remove();
});

const META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientInfo': { name: 'repeat-test', version: '1.0.0' },
  'io.modelcontextprotocol/clientCapabilities': {},
};

interface Case {
  label: string;
  method: string;
  params?: Record<string, unknown>;
  headers?: Record<string, string>;
}

/** Status, the headers that are not about the connection, and the body with the id taken out. */
async function send(c: Case, id: number | string, stateless: boolean) {
  const params = stateless ? { ...c.params, _meta: META } : c.params;
  const reply = await post(url, { jsonrpc: '2.0', id, method: c.method, ...(params ? { params } : {}) }, c.headers);
  const headers = [...reply.headers].filter(
    ([name]) => !['date', 'connection', 'keep-alive', 'content-length', 'transfer-encoding'].includes(name),
  );
  assert.equal(reply.json?.id, id, `${c.label}: answered to its own id`);
  const { id: _id, ...rest } = reply.json;
  return { status: reply.status, headers, body: rest };
}

async function sameEachTime(c: Case, stateless: boolean) {
  const [first, ...later] = await Promise.all([1, 'two', 3].map((id) => send(c, id, stateless)));
  for (const answer of later) assert.deepEqual(answer, first, c.label);
  return first!;
}

describe('a retried /mcp request answers the same', () => {
  it('in a 2025-06-18 session: results, tool errors and protocol errors', async () => {
    const { sessionId } = await initialize(url);
    const h = { 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-06-18' };
    const cases: Case[] = [
      {
        label: 'search',
        method: 'tools/call',
        params: { name: 'search_reviews', arguments: { min_rating: 4, limit: 20 } },
        headers: h,
      },
      {
        label: 'search, arguments in another order',
        method: 'tools/call',
        params: { name: 'search_reviews', arguments: { limit: 20, min_rating: 4 } },
        headers: h,
      },
      {
        label: 'invalid arguments',
        method: 'tools/call',
        params: { name: 'search_reviews', arguments: { min_rating: 9, color: 'red' } },
        headers: h,
      },
      { label: 'unknown tool', method: 'tools/call', params: { name: 'delete_everything', arguments: {} }, headers: h },
      { label: 'tools/list', method: 'tools/list', headers: h },
      { label: 'prompts/list', method: 'prompts/list', headers: h },
      {
        label: 'resources/read',
        method: 'resources/read',
        params: { uri: 'http://localhost:4321/insights.json' },
        headers: h,
      },
      {
        label: 'resources/read unknown',
        method: 'resources/read',
        params: { uri: 'http://localhost:4321/nothing.json' },
        headers: h,
      },
    ];
    for (const c of cases) await sameEachTime(c, false);
    // In the same order, whatever order the arguments came in.
    assert.deepEqual((await sameEachTime(cases[0]!, false)).body, (await sameEachTime(cases[1]!, false)).body);
  });

  it('at 2026-07-28: results and refusals of wrong headers', async () => {
    const headers = (method: string, name?: string) => ({
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': method,
      ...(name ? { 'mcp-name': name } : {}),
    });
    const search = { name: 'search_reviews', arguments: { min_rating: 4, limit: 20 } };
    const cases: Case[] = [
      { label: 'search', method: 'tools/call', params: search, headers: headers('tools/call', 'search_reviews') },
      { label: 'tools/list', method: 'tools/list', headers: headers('tools/list') },
      {
        label: 'resources/read',
        method: 'resources/read',
        params: { uri: 'http://localhost:4321/reviews.json' },
        headers: headers('resources/read', 'http://localhost:4321/reviews.json'),
      },
      {
        label: 'Mcp-Name of another tool',
        method: 'tools/call',
        params: search,
        headers: headers('tools/call', 'get_business'),
      },
      {
        label: 'Mcp-Method missing',
        method: 'tools/call',
        params: search,
        headers: { 'mcp-protocol-version': '2026-07-28', 'mcp-name': 'search_reviews' },
      },
    ];
    const answers = [];
    for (const c of cases) answers.push(await sameEachTime(c, true));
    assert.equal(answers[0]!.status, 200);
    assert.equal(answers[3]!.status, 400);
    assert.equal(answers[3]!.body.error.code, -32020);
  });
});

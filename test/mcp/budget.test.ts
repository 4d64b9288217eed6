/**
 * Every POST /mcp answers within its budget (src/lib/mcp/budget.ts), at 10k
 * reviews where reviews.json is 5.8 MB: a 2025-03-26 batch of a hundred reads
 * of the whole dataset answers promptly, small, each read a JSON-RPC error
 * naming the dataset's URL, the server's memory stays where it was, and a
 * search sent meanwhile is not held up. Batches of big tool answers stop at
 * the budget; a single read over it is refused at 2026-07-28 too.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { ANSWER_MAX_BYTES, OVER_BUDGET_CODE } from '../../src/lib/mcp/budget.ts';
import { startServer, type RunningServer } from '../helpers/server.ts';
import { initialize, post, tempDir } from './helpers.ts';

let server: RunningServer;
let url: string;
let session: Record<string, string>;
const store = tempDir('mcp-budget-');
const DATASET = 'http://localhost:4321/reviews.json';

before(async () => {
  server = await startServer('large', { STORE_DIR: store.path });
  url = `${server.url}/mcp`;
  // 2025-03-26: the newest revision with batches.
  const { sessionId } = await initialize(url, '2025-03-26');
  session = { 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-03-26' };
});
after(async () => {
  await server?.stop();
  store.remove();
});

const rssMb = () =>
  Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${server.process.pid}/status`, 'utf8'))![1]) / 1024;
const batch = (method: string, params: unknown) =>
  Array.from({ length: 100 }, (_, id) => ({ jsonrpc: '2.0', id, method, params }));

describe('the answer budget of POST /mcp at 10k reviews', () => {
  it('a batch of 100 reads of reviews.json answers promptly and small, memory stays, a search meanwhile stays fast', async () => {
    // Warm up (the first read measures the dataset once), then measure.
    await post(url, batch('resources/read', { uri: DATASET }), session);
    const before = rssMb();
    let peak = before;
    const sampler = setInterval(() => (peak = Math.max(peak, rssMb())), 10);
    const started = performance.now();
    const searching = (async () => {
      await new Promise((resolve) => setTimeout(resolve, 5));
      const t = performance.now();
      const response = await fetch(`${server.url}/api/reviews/search?min_rating=4&limit=20`);
      await response.arrayBuffer();
      return { status: response.status, ms: performance.now() - t };
    })();
    const reply = await post(url, batch('resources/read', { uri: DATASET }), session);
    const batchMs = performance.now() - started;
    const search = await searching;
    clearInterval(sampler);

    assert.equal(reply.status, 200);
    assert.equal(reply.json.length, 100);
    for (const answer of reply.json) {
      assert.equal(answer.error?.code, OVER_BUDGET_CODE, JSON.stringify(answer).slice(0, 300));
      assert.equal(answer.error.data.url, DATASET);
      assert.match(answer.error.message, /fetch it over HTTP from http:\/\/localhost:4321\/reviews\.json/);
    }
    assert.ok(reply.text.length < 100_000, `answer of ${reply.text.length} bytes`);
    assert.ok(batchMs < 3000, `the batch took ${Math.round(batchMs)} ms`);
    assert.ok(peak - before < 100, `RSS went from ${Math.round(before)} to ${Math.round(peak)} MB`);
    assert.equal(search.status, 200);
    assert.ok(search.ms < 1000, `a search during the batch took ${Math.round(search.ms)} ms`);
  });

  it('a batch of big tool answers stops at the budget: the first ones answered, the rest -32050', async () => {
    for (const params of [
      { name: 'search_reviews', arguments: { limit: 100 } },
      { name: 'reviews_since', arguments: { date: '2000-01-01' } },
    ]) {
      const reply = await post(url, batch('tools/call', params), session);
      assert.equal(reply.status, 200);
      const answered = reply.json.filter((answer: any) => answer.result);
      const refused = reply.json.filter((answer: any) => answer.error?.code === OVER_BUDGET_CODE);
      assert.ok(answered.length >= 1, `${params.name}: none answered`);
      assert.equal(answered.length + refused.length, 100);
      assert.ok(refused.length > 0, `${params.name}: nothing refused`);
      assert.ok(reply.text.length < ANSWER_MAX_BYTES * 1.25, `${params.name}: answer of ${reply.text.length} bytes`);
    }
  });

  it('tools/list spends from the budget too: 40 searches and 60 tools/list answer within it', async () => {
    const messages = [
      ...batch('tools/call', { name: 'search_reviews', arguments: { limit: 100 } }).slice(0, 40),
      ...batch('tools/list', {}).slice(40),
    ];
    const reply = await post(url, messages, session);
    assert.equal(reply.status, 200);
    const lists = reply.json.filter((answer: any) => answer.id >= 40);
    assert.equal(lists.length, 60);
    assert.ok(
      lists.some((answer: any) => answer.error?.code === OVER_BUDGET_CODE),
      'no tools/list refused',
    );
    assert.ok(reply.text.length < ANSWER_MAX_BYTES * 1.25, `answer of ${reply.text.length} bytes`);
  });

  it('a single read of reviews.json is refused with its URL at 2026-07-28 too; one reviews_since page answers', async () => {
    const meta = {
      'io.modelcontextprotocol/protocolVersion': '2026-07-28',
      'io.modelcontextprotocol/clientCapabilities': {},
    };
    const read = await post(
      url,
      { jsonrpc: '2.0', id: 1, method: 'resources/read', params: { uri: DATASET, _meta: meta } },
      { 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'resources/read', 'mcp-name': DATASET },
    );
    assert.equal(read.json.error?.code, OVER_BUDGET_CODE, read.text.slice(0, 300));
    assert.equal(read.json.error.data.url, DATASET);
    assert.ok(read.status < 500);

    const since = await post(
      url,
      {
        jsonrpc: '2.0',
        id: 2,
        method: 'tools/call',
        params: { name: 'reviews_since', arguments: { date: '2000-01-01' } },
      },
      session,
    );
    assert.equal(since.json.result.structuredContent.count, since.json.result.structuredContent.reviews.length);
    assert.ok(since.json.result.structuredContent.count > 0);
  });
});

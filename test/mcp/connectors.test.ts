/**
 * The `search` and `fetch` tools, the pair OpenAI's connectors and deep research
 * look for by name, through both SDK clients against the real built server: the
 * SDK v1 client in a 2025-06-18 session and the SDK v2 client pinned to
 * 2026-07-28. Their answers are compared with GET /api/reviews/search and the
 * review's JSON (/reviews/{id}.json) for the same query and id.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Client as LegacyClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as LegacyTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { UNTRUSTED_TEXT } from '../../src/lib/mcp/definitions.ts';
import { startServer, type RunningServer } from '../helpers/server.ts';
import { tempDir } from './helpers.ts';

type ToolResult = { isError?: boolean; structuredContent?: any; content: Array<{ type: string; text?: string }> };
interface Caller {
  name: string;
  listTools(): Promise<{ tools: any[] }>;
  call(name: string, args: Record<string, unknown>): Promise<ToolResult>;
  close(): Promise<void>;
}

let server: RunningServer;
const callers: Caller[] = [];
const store = tempDir('mcp-connectors-');

before(async () => {
  server = await startServer('content', { STORE_DIR: store.path });
  const url = new URL(`${server.url}/mcp`);
  const legacy = new LegacyClient({ name: 'connectors-test', version: '1.0.0' });
  const legacyTransport = new LegacyTransport(url);
  await legacy.connect(legacyTransport);
  assert.ok(legacyTransport.sessionId, 'the SDK v1 client holds a session');
  const modern = new Client(
    { name: 'connectors-test', version: '1.0.0' },
    { versionNegotiation: { mode: { pin: '2026-07-28' } } },
  );
  await modern.connect(new StreamableHTTPClientTransport(url));
  callers.push(
    {
      name: 'SDK v1, 2025-06-18 session',
      listTools: () => legacy.listTools(),
      call: (name, args) => legacy.callTool({ name, arguments: args }) as Promise<ToolResult>,
      close: () => legacy.close(),
    },
    {
      name: 'SDK v2, 2026-07-28',
      listTools: () => modern.listTools(),
      call: (name, args) => modern.callTool({ name, arguments: args }) as Promise<ToolResult>,
      close: () => modern.close(),
    },
  );
});
after(async () => {
  for (const caller of callers) await caller.close();
  await server?.stop();
  store.remove();
});

async function rest(path: string): Promise<any> {
  const response = await fetch(`${server.url}${path}`);
  assert.equal(response.status, 200, `${path} answers 200`);
  return response.json();
}

/** The one text part, parsed: what a connector reads. */
function textJson(result: ToolResult): any {
  assert.equal(result.content.length, 1);
  assert.equal(result.content[0]?.type, 'text');
  return JSON.parse(result.content[0]?.text ?? '');
}

/** The site the build was made for: review URLs are absolute on it. */
async function site(): Promise<string> {
  return new URL((await rest('/api/feed.json')).home_page_url).origin;
}

const titleOf = (review: any) =>
  review.title ?? `${review.rating}-star review by ${review.author.name}, ${review.date}`;

describe('search and fetch for connectors', () => {
  it('are listed by both clients with the documented inputs, read-only, saying review text is untrusted', async () => {
    for (const caller of callers) {
      const { tools } = await caller.listTools();
      const search = tools.find((tool) => tool.name === 'search');
      const fetchTool = tools.find((tool) => tool.name === 'fetch');
      assert.ok(search && fetchTool, `${caller.name}: both tools listed`);
      assert.deepEqual(Object.keys(search.inputSchema.properties), ['query'], caller.name);
      assert.deepEqual(search.inputSchema.required, ['query'], caller.name);
      assert.equal(search.inputSchema.properties.query.type, 'string');
      assert.deepEqual(Object.keys(fetchTool.inputSchema.properties), ['id'], caller.name);
      assert.deepEqual(fetchTool.inputSchema.required, ['id'], caller.name);
      for (const tool of [search, fetchTool]) {
        assert.deepEqual(
          tool.annotations,
          { title: tool.title, readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
          `${caller.name}: ${tool.name} is read-only`,
        );
        assert.ok(tool.description.includes(UNTRUSTED_TEXT), `${tool.name} says review text is untrusted`);
      }
    }
  });

  it('search answers {results: [{id, title, url}]} as JSON text: the reviews GET /api/reviews/search finds, in order', async () => {
    const base = await site();
    for (const query of ['roof', 'Leak', 'gutter guards', 'no review says this zz9']) {
      const expected = await rest(`/api/reviews/search?query=${encodeURIComponent(query)}`);
      const results = expected.reviews.map((review: any) => ({
        id: review.id,
        title: titleOf(review),
        url: `${base}/reviews/${encodeURIComponent(review.id)}`,
      }));
      for (const caller of callers) {
        const answer = await caller.call('search', { query });
        assert.equal(answer.isError, undefined, `${caller.name}: ${JSON.stringify(answer)}`);
        assert.deepEqual(textJson(answer), { results }, `${caller.name}, ${JSON.stringify(query)}`);
        assert.deepEqual(answer.structuredContent, { results });
      }
      if (query === 'roof') assert.ok(results.length >= 10, 'the sample content has reviews about roofs');
      if (query.startsWith('no review')) assert.deepEqual(results, []);
    }
  });

  it("each result's url is the review's page on the site", async () => {
    const [caller] = callers;
    const { results } = textJson(await caller!.call('search', { query: 'roof' }));
    for (const result of results.slice(0, 3)) {
      const response = await fetch(`${server.url}${new URL(result.url).pathname}`);
      assert.equal(response.status, 200, result.url);
      assert.match(response.headers.get('content-type') ?? '', /^text\/html/);
      await response.body?.cancel();
    }
  });

  it("fetch answers {id, title, text, url, metadata} for an id search gave: the review's JSON", async () => {
    const base = await site();
    const { results } = textJson(await callers[0]!.call('search', { query: 'roof' }));
    const withReply = (await rest('/api/reviews/search?limit=100')).reviews.find((review: any) => review.response);
    const ids = [...results.slice(0, 5).map((result: any) => result.id), withReply.id];
    for (const id of ids) {
      const review = await rest(`/reviews/${encodeURIComponent(id)}.json`);
      const expected = {
        id,
        title: titleOf(review),
        text: review.text,
        url: `${base}/reviews/${encodeURIComponent(id)}`,
        metadata: {
          rating: String(review.rating),
          date: review.date,
          author: review.author.name,
          technicians: review.technicians.join(', '),
          services: review.services.join(', '),
          service_area: review.service_area ?? '',
          source: review.source,
          ...(review.response ? { reply: review.response.text, reply_date: review.response.date } : {}),
          json: `${base}/reviews/${encodeURIComponent(id)}.json`,
        },
      };
      for (const caller of callers) {
        const answer = await caller.call('fetch', { id });
        assert.equal(answer.isError, undefined, `${caller.name}: ${JSON.stringify(answer)}`);
        assert.deepEqual(textJson(answer), expected, `${caller.name}, ${id}`);
        assert.deepEqual(answer.structuredContent, expected);
        for (const value of Object.values(textJson(answer).metadata)) assert.equal(typeof value, 'string');
      }
    }
  });

  it('refuses what it cannot answer with an error result the model can read, never a protocol error', async () => {
    for (const caller of callers) {
      const unknown = await caller.call('fetch', { id: 'no-such-review' });
      assert.equal(unknown.isError, true);
      assert.equal(textJson(unknown).error, 'not_found');
      const empty = await caller.call('search', { query: '' });
      assert.equal(empty.isError, true);
      assert.deepEqual(
        textJson(empty).issues.map((issue: any) => issue.path),
        [['query']],
      );
      const extra = await caller.call('search', { query: 'roof', limit: 5 });
      assert.equal(extra.isError, true, 'search takes only query; search_reviews has the filters');
      const missing = await caller.call('fetch', {});
      assert.equal(missing.isError, true);
      assert.deepEqual(textJson(missing).issues[0].path, ['id']);
    }
  });
});

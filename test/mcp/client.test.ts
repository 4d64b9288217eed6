/**
 * The MCP server through the SDK's own Client over streamable HTTP, against the
 * real built server: tools, resources, and the same answers as the REST API.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { startServer, type RunningServer } from '../helpers/server.ts';
import { tempDir } from './helpers.ts';

let server: RunningServer;
let client: Client;
let transport: StreamableHTTPClientTransport;
const store = tempDir('mcp-client-');

before(async () => {
  server = await startServer('content', { STORE_DIR: store.path });
  client = new Client({ name: 'test-client', version: '1.0.0' });
  transport = new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`));
  await client.connect(transport);
});
after(async () => {
  await client?.close();
  await server?.stop();
  store.remove();
});

type ToolResult = { isError?: boolean; structuredContent?: any; content: Array<{ type: string; text?: string }> };
const call = (name: string, args: Record<string, unknown>) =>
  client.callTool({ name, arguments: args }) as Promise<ToolResult>;

describe('MCP over streamable HTTP', () => {
  it('initializes with a session id and lists read-only tools with schemas', async () => {
    assert.match(transport.sessionId ?? '', /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);
    assert.equal(client.getServerVersion()?.name, 'roofing-reviews');
    const { tools } = await client.listTools();
    const names = tools.map((t) => t.name).sort();
    const hasInsights = (await fetch(`${server.url}/insights.json`)).status === 200;
    const expected = [
      'get_business',
      'get_review',
      'reviews_since',
      'search_reviews',
      ...(hasInsights ? ['get_insights'] : []),
      'search',
      'fetch',
    ].sort();
    assert.deepEqual(names, expected, 'get_insights exists exactly when /insights.json does');
    for (const tool of tools) {
      assert.ok(tool.title, `${tool.name} has a title`);
      assert.ok((tool.description ?? '').length > 60, `${tool.name} has a description a model can act on`);
      assert.equal(tool.annotations?.readOnlyHint, true);
      assert.equal(tool.annotations?.openWorldHint, false);
      assert.equal(tool.inputSchema.type, 'object');
      assert.equal(tool.outputSchema?.type, 'object', `${tool.name} has an output schema`);
    }
    const search = tools.find((t) => t.name === 'search_reviews');
    const properties = Object.keys(search?.inputSchema.properties ?? {}).sort();
    assert.deepEqual(properties, [
      'limit',
      'mentions_service',
      'mentions_technician',
      'min_rating',
      'query',
      'rating',
      'since',
      'until',
    ]);
  });

  it('get_business returns the business as structured content and the same JSON as text', async () => {
    const result = await call('get_business', {});
    assert.equal(result.isError, undefined);
    const dataset = await (await fetch(`${server.url}/reviews.json`)).json();
    assert.deepEqual(result.structuredContent.business, dataset.business);
    assert.deepEqual(JSON.parse(result.content[0]?.text ?? ''), result.structuredContent);
  });

  it('search_reviews answers exactly what GET /api/reviews/search answers', async () => {
    const cases: Array<Record<string, unknown>> = [
      { rating: 5, limit: 3 },
      { min_rating: 4, mentions_service: 'gutters' },
      { rating: 1 },
      { query: 'leak', limit: 100 },
      { mentions_technician: 'Dave Kowalski', since: '2024-01-01', until: '2025-12-31' },
      { query: 'ROOF', min_rating: 3.5, limit: 7 },
      { mentions_service: 'no-such-service' },
      {},
    ];
    for (const args of cases) {
      const result = await call('search_reviews', args);
      assert.equal(result.isError, undefined, JSON.stringify(result.content));
      const params = new URLSearchParams(Object.entries(args).map(([k, v]) => [k, String(v)]));
      const http = await (await fetch(`${server.url}/api/reviews/search?${params}`)).json();
      assert.deepEqual(result.structuredContent, http, JSON.stringify(args));
      assert.deepEqual(JSON.parse(result.content[0]?.text ?? ''), http);
    }
  });

  it('bad arguments give a tool result with isError and the validation issues', async () => {
    for (const [name, args, mention] of [
      ['search_reviews', { rating: 6 }, 'rating'],
      ['search_reviews', { limit: 0 }, 'limit'],
      ['search_reviews', { since: '2025-02-30' }, 'since'],
      ['search_reviews', { colour: 'red' }, 'colour'],
      ['reviews_since', { date: 'yesterday' }, 'date'],
      ['get_review', {}, 'id'],
      ['get_review', { id: 42 }, 'id'],
      ['search_reviews', { rating: '5' }, 'rating'],
      ['search_reviews', { query: 'x'.repeat(201) }, 'query'],
      ['search_reviews', { since: '2025-05-01', until: '2025-01-01' }, 'since'],
      ['search_reviews', { min_rating: 0.5 }, 'min_rating'],
      ['get_business', { verbose: true }, 'verbose'],
    ] as const) {
      const result = await call(name, args);
      assert.equal(result.isError, true, `${name} ${JSON.stringify(args)}`);
      const body = JSON.parse(result.content[0]?.text ?? '');
      assert.equal(body.error, 'invalid_request');
      assert.ok(
        body.issues.some(
          (issue: { path: string[]; message: string }) => issue.path[0] === mention && issue.message.includes(mention),
        ),
        `${name} ${JSON.stringify(args)}: ${result.content[0]?.text}`,
      );
    }
  });

  it('get_review and reviews_since', async () => {
    const dataset = await (await fetch(`${server.url}/reviews.json`)).json();
    const wanted = dataset.reviews[3];
    const found = await call('get_review', { id: wanted.id });
    assert.deepEqual(found.structuredContent.review, wanted);
    const missing = await call('get_review', { id: 'no-such-review' });
    assert.equal(missing.isError, true);
    const since = await call('reviews_since', { date: '2025-01-01' });
    const http = await (await fetch(`${server.url}/api/reviews/since/2025-01-01`)).json();
    assert.deepEqual(since.structuredContent, http);
  });

  it('get_insights answers /insights.json exactly when it is built', async () => {
    const insights = await fetch(`${server.url}/insights.json`);
    if (insights.status !== 200) {
      await assert.rejects(call('get_insights', {}), /Unknown tool/, 'no get_insights without insights.json');
      return;
    }
    const result = await call('get_insights', {});
    const body = await insights.json();
    assert.equal(result.isError, undefined, JSON.stringify(result.content));
    assert.deepEqual(result.structuredContent, body);
    assert.deepEqual(JSON.parse(result.content[0]?.text ?? ''), body);
    const aspects = await call('get_insights', { section: 'aspects' });
    assert.deepEqual(aspects.structuredContent.aspects, body.aspects);
    const bad = await call('get_insights', { section: 'gossip' });
    assert.equal(bad.isError, true);
  });

  it('reads the reviews.json resource and a review through the template', async () => {
    const { resources } = await client.listResources();
    const dataset = resources.find((r) => r.name === 'reviews.json');
    assert.ok(dataset);
    const read = await client.readResource({ uri: dataset.uri });
    const first = read.contents[0] as { text: string };
    const body = await (await fetch(`${server.url}/reviews.json`)).json();
    assert.deepEqual(JSON.parse(first.text), body);
    const { resourceTemplates } = await client.listResourceTemplates();
    const template = resourceTemplates.find((t) => t.name === 'review');
    assert.ok(template);
    const uri = template.uriTemplate.replace('{id}', body.reviews[0].id);
    const one = await client.readResource({ uri });
    assert.deepEqual(JSON.parse((one.contents[0] as { text: string }).text), body.reviews[0]);
    await assert.rejects(
      client.readResource({ uri: template.uriTemplate.replace('{id}', 'no-such-review') }),
      /no-such-review/,
    );

    const insights = await fetch(`${server.url}/insights.json`);
    const listed = resources.find((r) => r.name === 'insights.json');
    if (insights.status === 200) {
      assert.ok(listed, 'insights.json is a resource once it is built');
      const read = await client.readResource({ uri: listed.uri });
      assert.deepEqual(JSON.parse((read.contents[0] as { text: string }).text), await insights.json());
    } else {
      assert.equal(listed, undefined);
    }
  });
});

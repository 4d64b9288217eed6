/**
 * Protocol revision 2026-07-28 on /mcp: the SDK v2 Client pinned to it against
 * the real built server (discover, tools, resources, the same answers as
 * REST), raw HTTP for the revision's own rules (header checks, unsupported
 * versions, resultType, caching hints, no session, one message per POST), and
 * a 2025-06-18 session on the same endpoint at the same time.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Client as LegacyClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as LegacyTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { startServer, type RunningServer } from '../helpers/server.ts';
import { initialize, post, tempDir } from './helpers.ts';

const VERSION = '2026-07-28';
let server: RunningServer;
let url: string;
let client: Client;
const store = tempDir('mcp-modern-');

before(async () => {
  server = await startServer('content', { STORE_DIR: store.path });
  url = `${server.url}/mcp`;
  client = new Client({ name: 'modern-test', version: '1.0.0' }, { versionNegotiation: { mode: { pin: VERSION } } });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
});
after(async () => {
  await client?.close();
  await server?.stop();
  store.remove();
});

/** A raw 2026-07-28 request: the envelope in `_meta` and the mirrored headers, each overridable. */
function modern(method: string, params: Record<string, unknown> = {}, id: number | string = 1) {
  const body = {
    jsonrpc: '2.0',
    id,
    method,
    params: {
      ...params,
      _meta: {
        'io.modelcontextprotocol/protocolVersion': VERSION,
        'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' },
        'io.modelcontextprotocol/clientCapabilities': {},
      },
    },
  };
  const name = typeof params.name === 'string' ? params.name : typeof params.uri === 'string' ? params.uri : undefined;
  const headers: Record<string, string> = {
    'mcp-protocol-version': VERSION,
    'mcp-method': method,
    ...(name ? { 'mcp-name': name } : {}),
  };
  return { body, headers };
}

async function rest(path: string) {
  return (await fetch(`${server.url}${path}`)).json();
}

describe('MCP 2026-07-28 through the SDK v2 client', () => {
  it('connects by server/discover, sessionless, and learns the server', async () => {
    assert.equal(client.getProtocolEra(), 'modern');
    assert.equal(client.getNegotiatedProtocolVersion(), VERSION);
    assert.equal(client.getServerVersion()?.name, 'roofing-reviews');
    assert.ok(client.getServerCapabilities()?.tools);
    assert.ok(client.getServerCapabilities()?.resources);
    assert.match(client.getInstructions() ?? '', /search_reviews/);
    const discovered = client.getDiscoverResult();
    assert.ok(discovered?.supportedVersions.includes(VERSION), JSON.stringify(discovered));
  });

  it('lists the same tools as a 2025-06-18 session, definitions identical', async () => {
    const legacy = new LegacyClient({ name: 'legacy', version: '1.0.0' });
    await legacy.connect(new LegacyTransport(new URL(url)));
    try {
      const [modernTools, legacyTools] = await Promise.all([client.listTools(), legacy.listTools()]);
      assert.deepEqual(
        modernTools.tools.map(({ name, title, description, inputSchema, outputSchema, annotations }) => ({
          name,
          title,
          description,
          inputSchema,
          outputSchema,
          annotations,
        })),
        legacyTools.tools.map(({ name, title, description, inputSchema, outputSchema, annotations }) => ({
          name,
          title,
          description,
          inputSchema,
          outputSchema,
          annotations,
        })),
      );
      assert.ok(modernTools.tools.some((tool) => tool.name === 'search_reviews'));
      const legacyAnswer = await legacy.callTool({ name: 'search_reviews', arguments: { min_rating: 4, limit: 5 } });
      const modernAnswer = await client.callTool({ name: 'search_reviews', arguments: { min_rating: 4, limit: 5 } });
      assert.deepEqual(modernAnswer.structuredContent, legacyAnswer.structuredContent);
    } finally {
      await legacy.close();
    }
  });

  it('search_reviews with filters answers exactly what GET /api/reviews/search answers', async () => {
    for (const args of [
      { rating: 5, limit: 3 },
      { min_rating: 4, mentions_service: 'gutters' },
      { query: 'leak', since: '2024-01-01' },
      {},
    ] as Array<Record<string, unknown>>) {
      const result = await client.callTool({ name: 'search_reviews', arguments: args });
      assert.equal(result.isError, undefined, JSON.stringify(result.content));
      const http = await rest(
        `/api/reviews/search?${new URLSearchParams(Object.entries(args).map(([k, v]) => [k, String(v)]))}`,
      );
      assert.deepEqual(result.structuredContent, http, JSON.stringify(args));
      assert.deepEqual(JSON.parse((result.content[0] as { text: string }).text), http);
    }
  });

  it('an invalid argument is a tool result with isError and the REST API issues', async () => {
    const result = await client.callTool({ name: 'search_reviews', arguments: { rating: 9, colour: 'red' } });
    assert.equal(result.isError, true);
    const body = JSON.parse((result.content[0] as { text: string }).text);
    assert.equal(body.error, 'invalid_request');
    assert.deepEqual(body.issues.map((issue: { path: string[] }) => issue.path[0]).sort(), ['colour', 'rating']);
  });

  it('reads resources: the dataset, one review through the template; a missing one is -32602', async () => {
    const { resources } = await client.listResources();
    const dataset = resources.find((r) => r.name === 'reviews.json');
    assert.ok(dataset);
    const body = await rest('/reviews.json');
    const read = await client.readResource({ uri: dataset.uri });
    assert.deepEqual(JSON.parse((read.contents[0] as { text: string }).text), body);
    const { resourceTemplates } = await client.listResourceTemplates();
    const template = resourceTemplates.find((t) => t.name === 'review');
    assert.ok(template);
    const one = await client.readResource({ uri: template.uriTemplate.replace('{id}', body.reviews[0].id) });
    assert.deepEqual(JSON.parse((one.contents[0] as { text: string }).text), body.reviews[0]);
    await assert.rejects(
      client.readResource({ uri: template.uriTemplate.replace('{id}', 'no-such-review') }),
      (error: { code?: number }) => error.code === -32602,
    );
  });
});

describe('MCP 2026-07-28 over raw HTTP', () => {
  it('server/discover: 200, resultType complete, public caching hint equal to the REST max-age, no session id', async () => {
    const { body, headers } = modern('server/discover');
    const reply = await post(url, body, headers);
    assert.equal(reply.status, 200, reply.text);
    assert.equal(reply.headers.get('mcp-session-id'), null);
    assert.equal(reply.json.result.resultType, 'complete');
    assert.ok(reply.json.result.supportedVersions.includes(VERSION));
    const cacheControl = (await fetch(`${server.url}/reviews.json`)).headers.get('cache-control') ?? '';
    const maxAge = Number(/max-age=(\d+)/.exec(cacheControl)?.[1]);
    assert.ok(maxAge > 0, cacheControl);
    assert.equal(reply.json.result.ttlMs, maxAge * 1000);
    assert.equal(reply.json.result.cacheScope, 'public');
  });

  it('list and read results carry the hint; tools/call carries resultType but no hint', async () => {
    const dataset = await rest('/reviews.json');
    for (const [method, params] of [
      ['tools/list', {}],
      ['resources/list', {}],
      ['resources/templates/list', {}],
      ['resources/read', { uri: 'http://localhost:4321/reviews.json' }],
    ] as const) {
      const { body, headers } = modern(method, params);
      const reply = await post(url, body, headers);
      assert.equal(reply.status, 200, `${method}: ${reply.text.slice(0, 300)}`);
      assert.equal(reply.json.result.resultType, 'complete', method);
      assert.equal(reply.json.result.cacheScope, 'public', method);
      assert.equal(reply.json.result.ttlMs, 60_000, method);
    }
    const { body, headers } = modern('tools/call', { name: 'get_business', arguments: {} });
    const call = await post(url, body, headers);
    assert.equal(call.status, 200, call.text);
    assert.equal(call.json.result.resultType, 'complete');
    assert.equal(call.json.result.ttlMs, undefined);
    assert.deepEqual(call.json.result.structuredContent.business, dataset.business);
  });

  it('headers that disagree with the body are 400 with -32020; a missing Mcp-Name too', async () => {
    const call = modern('tools/call', { name: 'get_business', arguments: {} });
    for (const [change, what] of [
      [{ 'mcp-name': 'search_reviews' }, 'Mcp-Name'],
      [{ 'mcp-method': 'tools/list' }, 'Mcp-Method'],
      [{ 'mcp-protocol-version': '2025-11-25' }, 'MCP-Protocol-Version'],
    ] as const) {
      const reply = await post(url, call.body, { ...call.headers, ...change });
      assert.equal(reply.status, 400, `${what}: ${reply.text}`);
      assert.equal(reply.json.error.code, -32020, `${what}: ${reply.text}`);
      assert.equal(reply.json.id, 1);
    }
    const { 'mcp-name': _name, ...withoutName } = call.headers;
    const missing = await post(url, call.body, withoutName);
    assert.equal(missing.status, 400, missing.text);
    assert.equal(missing.json.error.code, -32020);
  });

  it('an unsupported version gets -32022 with the supported list and the request id, on both eras', async () => {
    const future = modern('tools/list', {}, 7);
    future.body.params._meta['io.modelcontextprotocol/protocolVersion'] = '2099-01-01';
    const reply = await post(url, future.body, { ...future.headers, 'mcp-protocol-version': '2099-01-01' });
    assert.equal(reply.status, 400, reply.text);
    assert.equal(reply.json.error.code, -32022);
    assert.equal(reply.json.id, 7);
    assert.ok(reply.json.error.data.supported.includes(VERSION), reply.text);

    const { sessionId } = await initialize(url);
    const old = await post(
      url,
      { jsonrpc: '2.0', id: 8, method: 'tools/list' },
      { 'mcp-session-id': sessionId, 'mcp-protocol-version': '2023-01-01' },
    );
    assert.equal(old.status, 400, old.text);
    assert.equal(old.json.error.code, -32022);
    assert.equal(old.json.id, 8);
    assert.deepEqual(old.json.error.data.requested, '2023-01-01');
    for (const version of [VERSION, '2025-11-25', '2025-06-18'])
      assert.ok(old.json.error.data.supported.includes(version), version);
  });

  it('one message per POST: a batch with a 2026-07-28 request is 400; GET and DELETE are 405/400 as before', async () => {
    const { body, headers } = modern('tools/list');
    const batch = await post(url, [body, { ...body, id: 2 }], headers);
    assert.equal(batch.status, 400, batch.text);
    assert.equal(batch.json.error.code, -32600);
    const get = await fetch(url, { headers: { accept: 'text/event-stream' } });
    assert.equal(get.status, 405);
  });

  it('an unknown tool is -32602 naming the tools; an unknown method -32601; a bad envelope -32602', async () => {
    const unknownTool = modern('tools/call', { name: 'delete_review', arguments: {} });
    const tool = await post(url, unknownTool.body, unknownTool.headers);
    assert.equal(tool.json.error.code, -32602, tool.text);
    assert.match(tool.json.error.message, /search_reviews/);
    const unknownMethod = modern('reviews/delete');
    const method = await post(url, unknownMethod.body, unknownMethod.headers);
    assert.equal(method.status, 404, method.text);
    assert.equal(method.json.error.code, -32601, method.text);
    const bad = modern('tools/list');
    (bad.body.params._meta as Record<string, unknown>)['io.modelcontextprotocol/clientInfo'] = 'me';
    const envelope = await post(url, bad.body, bad.headers);
    assert.equal(envelope.status, 400, envelope.text);
    assert.equal(envelope.json.error.code, -32602);
  });

  it('an Mcp-Session-Id on a 2026-07-28 request changes nothing', async () => {
    const { body, headers } = modern('tools/list');
    const plain = await post(url, body, headers);
    const withSession = await post(url, body, { ...headers, 'mcp-session-id': 'not-a-session' });
    assert.equal(withSession.status, 200, withSession.text);
    assert.deepEqual(withSession.json, plain.json);
  });
});

describe('MCP 2026-07-28 needs no store and no session secret', () => {
  it('serves a current client while the store is unreachable and 2025 sessions answer 503', async () => {
    const { readFileSync } = await import('node:fs');
    const { resolve } = await import('node:path');
    const { BUILDS } = await import('../helpers/builds.ts');
    const { createMcpService } = await import('../../src/lib/mcp/service.ts');
    const dataset = JSON.parse(readFileSync(resolve(BUILDS.content.outDir, 'client/reviews.json'), 'utf8'));
    let storeAsked = 0;
    const handle = await createMcpService({
      content: { site: 'https://reviews.example.com', dataset },
      store: () => {
        storeAsked += 1;
        throw new Error('no store on this host');
      },
      env: {},
      bindHost: undefined,
      sessionsUnavailable: () =>
        Response.json({ error: 'not_configured', settings: ['REDIS_URL', 'MCP_SESSION_SECRET'] }, { status: 503 }),
    });
    const request = (body: unknown, headers: Record<string, string>) =>
      new Request('https://reviews.example.com/mcp', {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          host: 'reviews.example.com',
          ...headers,
        },
        body: JSON.stringify(body),
      });
    const call = modern('tools/call', { name: 'search_reviews', arguments: { rating: 5, limit: 2 } });
    const answer = await handle(request(call.body, call.headers));
    assert.equal(answer.status, 200, await answer.clone().text());
    assert.equal(((await answer.json()) as any).result.structuredContent.count, 2);
    const legacy = await handle(
      request(
        {
          jsonrpc: '2.0',
          id: 1,
          method: 'initialize',
          params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'x', version: '1' } },
        },
        {},
      ),
    );
    assert.equal(legacy.status, 503);
    assert.equal(storeAsked, 0, 'the store was never asked for');
  });
});

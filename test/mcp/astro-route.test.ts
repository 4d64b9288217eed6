/**
 * The thin Astro route (src/pages/mcp.ts, what a serverless host runs) answers
 * like the Node entry's direct path: the server started with
 * API_THROUGH_ASTRO=true sends /mcp through Astro's pipeline.
 */
import assert from 'node:assert/strict';
import { request as httpRequest } from 'node:http';
import { describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { astroAndDirectServers, initialize, initializeRequest, JSON_HEADERS, post } from './helpers.ts';

/** An initialize with a Host header of our choosing (fetch will not send one). */
function postWithHost(port: number, host: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const payload = JSON.stringify(initializeRequest());
    const req = httpRequest(
      {
        host: '127.0.0.1',
        port,
        path: '/mcp',
        method: 'POST',
        headers: { ...JSON_HEADERS, host, 'content-length': Buffer.byteLength(payload) },
      },
      (res) => {
        let text = '';
        res.on('data', (chunk) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

const servers = astroAndDirectServers('mcp-astro-');

type ToolResult = { isError?: boolean; structuredContent?: any; content: Array<{ type: string; text?: string }> };

describe('/mcp through the Astro route', () => {
  it('initialize, tools/list and tool calls answer as the direct path does', async () => {
    const client = new Client({ name: 'astro-client', version: '1.0.0' });
    const transport = new StreamableHTTPClientTransport(new URL(`${servers.astro.url}/mcp`));
    await client.connect(transport);
    assert.match(transport.sessionId ?? '', /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);

    const directClient = new Client({ name: 'direct-client', version: '1.0.0' });
    await directClient.connect(new StreamableHTTPClientTransport(new URL(`${servers.direct.url}/mcp`)));

    assert.deepEqual(await client.listTools(), await directClient.listTools());
    for (const [name, args] of [
      ['search_reviews', { min_rating: 4, limit: 5 }],
      ['get_business', {}],
      ['reviews_since', { date: '2025-06-01' }],
      ['search_reviews', { rating: 0 }],
    ] as const) {
      const viaAstro = (await client.callTool({ name, arguments: args })) as ToolResult;
      const viaDirect = (await directClient.callTool({ name, arguments: args })) as ToolResult;
      assert.deepEqual(viaAstro, viaDirect, `${name} ${JSON.stringify(args)}`);
    }
    const search = (await client.callTool({
      name: 'search_reviews',
      arguments: { min_rating: 4, limit: 5 },
    })) as ToolResult;
    assert.equal(search.structuredContent.count, 5);
    await client.close();
    await directClient.close();
  });

  it('keeps the transport rules: 405, 400, 404, 403, sessions shared with the direct path', async () => {
    const url = `${servers.astro.url}/mcp`;
    assert.equal((await fetch(url)).status, 405);
    const listTools = { jsonrpc: '2.0', id: 2, method: 'tools/list' };
    assert.equal((await post(url, listTools)).status, 400);
    assert.equal((await post(url, listTools, { 'mcp-session-id': 'forged.id' })).status, 404);
    assert.equal((await post(url, listTools, { origin: 'https://evil.example' })).status, 403);
    const big = JSON.stringify({ ...listTools, params: { _meta: { pad: 'x'.repeat(1024 * 1024) } } });
    assert.equal((await post(url, big)).status, 413);
    const { sessionId } = await initialize(`${servers.direct.url}/mcp`);
    assert.equal((await post(url, listTools, { 'mcp-session-id': sessionId })).status, 200);
    assert.equal((await fetch(url, { method: 'DELETE', headers: { 'mcp-session-id': sessionId } })).status, 204);
    assert.equal((await post(`${servers.direct.url}/mcp`, listTools, { 'mcp-session-id': sessionId })).status, 404);
  });
  it('an oversized body gets the same 413 on both paths', async () => {
    const big = JSON.stringify({
      jsonrpc: '2.0',
      id: 2,
      method: 'tools/list',
      params: { _meta: { pad: 'x'.repeat(2 * 1024 * 1024) } },
    });
    const [viaAstro, viaDirect] = await Promise.all([
      post(`${servers.astro.url}/mcp`, big),
      post(`${servers.direct.url}/mcp`, big),
    ]);
    assert.equal(viaAstro.status, 413);
    assert.equal(viaAstro.json.error.code, -32000);
    assert.deepEqual(
      [viaDirect.status, viaDirect.headers.get('content-type'), viaDirect.text],
      [viaAstro.status, viaAstro.headers.get('content-type'), viaAstro.text],
    );
  });

  it('inside the Node server (bound to loopback) the Astro route accepts the loopback Host names, as the direct path does', async () => {
    for (const server of [servers.astro, servers.direct]) {
      for (const host of [`localhost:${server.port}`, `127.0.0.1:${server.port}`, '[::1]']) {
        assert.equal(
          (await postWithHost(server.port, host)).status,
          200,
          `${server === servers.astro ? 'astro' : 'direct'} Host ${host}`,
        );
      }
      assert.equal((await postWithHost(server.port, 'evil.example')).status, 403);
    }
  });
});

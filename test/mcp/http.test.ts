/**
 * The transport rules of POST /mcp with raw HTTP: what a client that is not the
 * SDK sees. Session ids, status codes, Host and Origin checks, protocol
 * versions, batches, notifications, the body limit, and Authorization ignored.
 */
import assert from 'node:assert/strict';
import { request as httpRequest } from 'node:http';
import { after, before, describe, it } from 'node:test';
import { startServer, type RunningServer } from '../helpers/server.ts';
import { initialize, initializeRequest, JSON_HEADERS, post, tempDir } from './helpers.ts';

const SITE_ORIGIN = 'http://localhost:4321';
let server: RunningServer;
let url: string;
const store = tempDir('mcp-http-');

before(async () => {
  server = await startServer('content', {
    STORE_DIR: store.path,
    MCP_ALLOWED_HOSTS: 'mcp.example.org',
    MCP_ALLOWED_ORIGINS: 'https://app.example.com',
    // This file opens more sessions in a minute than a client may (test/reliability/rate-limits.test.ts tests the limit).
    MCP_SESSION_RATE_LIMIT: '10000',
  });
  url = `${server.url}/mcp`;
});
after(async () => {
  await server?.stop();
  store.remove();
});

const listTools = { jsonrpc: '2.0', id: 2, method: 'tools/list' };

/** A POST with a Host header of our choosing (fetch will not send one). */
function postWithHost(host: string, body: unknown): Promise<{ status: number; body: string }> {
  return postWithHeaders({ host }, body);
}

function postWithHeaders(headers: Record<string, string>, body: unknown): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const payload = JSON.stringify(body);
    const req = httpRequest(
      {
        host: '127.0.0.1',
        port: server.port,
        path: '/mcp',
        method: 'POST',
        headers: { ...JSON_HEADERS, ...headers, 'content-length': Buffer.byteLength(payload) },
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

describe('POST /mcp over raw HTTP', () => {
  it('initialize answers 200 JSON with a signed Mcp-Session-Id and the documented protocol version', async () => {
    const { sessionId, reply } = await initialize(url, '2025-06-18');
    assert.match(sessionId, /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);
    assert.match(reply.headers.get('content-type') ?? '', /^application\/json/);
    assert.equal(reply.json.jsonrpc, '2.0');
    assert.equal(reply.json.id, 1);
    assert.equal(reply.json.result.protocolVersion, '2025-06-18');
    assert.equal(reply.json.result.serverInfo.name, 'roofing-reviews');
    assert.ok(reply.json.result.capabilities.tools);
    assert.ok(reply.json.result.capabilities.resources);
  });

  it('accepts every protocol version the SDK supports, and answers its latest to an unknown one', async () => {
    const { SUPPORTED_PROTOCOL_VERSIONS, LATEST_PROTOCOL_VERSION } = await import('@modelcontextprotocol/sdk/types.js');
    for (const version of SUPPORTED_PROTOCOL_VERSIONS) {
      const { sessionId, reply } = await initialize(url, version);
      assert.equal(reply.json.result.protocolVersion, version);
      const list = await post(url, listTools, { 'mcp-session-id': sessionId, 'mcp-protocol-version': version });
      assert.equal(list.status, 200, `${version}: ${list.text}`);
      assert.ok(list.json.result.tools.length >= 4);
    }
    const { reply } = await initialize(url, '1999-01-01');
    assert.equal(reply.json.result.protocolVersion, LATEST_PROTOCOL_VERSION);
  });

  it('a failed initialize opens no session', async () => {
    const reply = await post(url, { jsonrpc: '2.0', id: 1, method: 'initialize', params: {} });
    assert.equal(reply.headers.get('mcp-session-id'), null);
    assert.ok(reply.json.error, reply.text);
  });

  it('notifications are answered 202 with no body', async () => {
    const { sessionId } = await initialize(url);
    const reply = await post(
      url,
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      { 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-06-18' },
    );
    assert.equal(reply.status, 202);
    assert.equal(reply.text, '');
  });

  it('a later request without Mcp-Session-Id is 400; an unknown or forged one is 404 with -32001', async () => {
    const missing = await post(url, listTools);
    assert.equal(missing.status, 400);
    assert.equal(missing.json.jsonrpc, '2.0');
    assert.match(missing.json.error.message, /Mcp-Session-Id/);

    const { sessionId } = await initialize(url);
    const [payload, signature] = sessionId.split('.') as [string, string];
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString());
    const longer = Buffer.from(JSON.stringify({ ...claims, exp: claims.exp + 10_000_000 })).toString('base64url');
    const flipped = signature.slice(0, -2) + (signature.at(-2) === 'A' ? 'B' : 'A') + signature.at(-1);
    for (const forged of [
      'not-a-session',
      `${longer}.${signature}`,
      `${payload}.${flipped}`,
      `${payload}.`,
      'a'.repeat(600),
    ]) {
      const reply = await post(url, listTools, { 'mcp-session-id': forged });
      assert.equal(reply.status, 404, forged);
      assert.equal(reply.json.error.code, -32001);
    }
    const good = await post(url, listTools, { 'mcp-session-id': sessionId });
    assert.equal(good.status, 200);
  });

  it('GET is 405 with Allow; other methods too', async () => {
    const get = await fetch(url, { headers: { accept: 'text/event-stream' } });
    assert.equal(get.status, 405);
    assert.match(get.headers.get('allow') ?? '', /POST/);
    assert.match(get.headers.get('allow') ?? '', /DELETE/);
    assert.equal((await get.json()).jsonrpc, '2.0');
    const put = await fetch(url, { method: 'PUT', headers: JSON_HEADERS, body: '{}' });
    assert.equal(put.status, 405);
  });

  it('406 without Accept of both types; 415 for a body that is not JSON', async () => {
    const { sessionId } = await initialize(url);
    const jsonOnly = await post(url, listTools, { accept: 'application/json', 'mcp-session-id': sessionId });
    assert.equal(jsonOnly.status, 406);
    const noAccept = await post(url, initializeRequest(), { accept: '' });
    assert.equal(noAccept.status, 406);
    const text = await post(url, listTools, { 'content-type': 'text/plain', 'mcp-session-id': sessionId });
    assert.equal(text.status, 415);
    const form = await post(url, 'a=b', {
      'content-type': 'application/x-www-form-urlencoded',
      'mcp-session-id': sessionId,
    });
    assert.equal(form.status, 415);
    const sneaky = await post(url, listTools, {
      'content-type': 'text/plain; a=application/json',
      'mcp-session-id': sessionId,
    });
    assert.equal(sneaky.status, 415);
    const withCharset = await post(url, listTools, {
      'content-type': 'application/json; charset=utf-8',
      'mcp-session-id': sessionId,
    });
    assert.equal(withCharset.status, 200);
  });

  it('bodies over 1 MiB are 413; up to 1 MiB is served', async () => {
    const { sessionId } = await initialize(url);
    const big = JSON.stringify({ ...listTools, params: { _meta: { pad: 'x'.repeat(1024 * 1024) } } });
    const tooLarge = await post(url, big, { 'mcp-session-id': sessionId });
    assert.equal(tooLarge.status, 413);
    const fits = JSON.stringify({ ...listTools, params: { _meta: { pad: 'x'.repeat(1024 * 1024 - 200) } } });
    assert.ok(Buffer.byteLength(fits) <= 1024 * 1024);
    const served = await post(url, fits, { 'mcp-session-id': sessionId });
    assert.equal(served.status, 200, served.text.slice(0, 300));
  });

  it('an unsupported MCP-Protocol-Version header is 400', async () => {
    const { sessionId } = await initialize(url);
    const reply = await post(url, listTools, { 'mcp-session-id': sessionId, 'mcp-protocol-version': '2023-01-01' });
    assert.equal(reply.status, 400);
    assert.match(reply.json.error.message, /2025-06-18/);
    const onInitialize = await post(url, initializeRequest(), { 'mcp-protocol-version': 'banana' });
    assert.equal(onInitialize.status, 400);
  });

  it('batches are 400 from 2025-06-18 on, and served for 2025-03-26', async () => {
    const batch = [listTools, { jsonrpc: '2.0', id: 3, method: 'ping' }];
    const modern = await initialize(url, '2025-06-18');
    const refused = await post(url, batch, {
      'mcp-session-id': modern.sessionId,
      'mcp-protocol-version': '2025-06-18',
    });
    assert.equal(refused.status, 400);
    assert.equal(refused.json.error.code, -32600);
    // Without the header, the version negotiated in the session decides.
    assert.equal((await post(url, batch, { 'mcp-session-id': modern.sessionId })).status, 400);
    assert.equal((await post(url, [initializeRequest('2025-06-18')])).status, 400);

    const older = await initialize(url, '2025-03-26');
    const served = await post(url, batch, { 'mcp-session-id': older.sessionId, 'mcp-protocol-version': '2025-03-26' });
    assert.equal(served.status, 200, served.text);
    assert.ok(Array.isArray(served.json));
    assert.deepEqual(served.json.map((r: any) => r.id).sort(), [2, 3]);
  });

  it('malformed JSON is -32700, a non-JSON-RPC body -32600, an unknown method -32601, an unknown tool -32602', async () => {
    const { sessionId } = await initialize(url);
    const headers = { 'mcp-session-id': sessionId };
    const parse = await post(url, '{"jsonrpc": "2.0", ', headers);
    assert.equal(parse.status, 400);
    assert.equal(parse.json.error.code, -32700);
    for (const body of [{ hello: 'world' }, [], 42]) {
      const invalid = await post(url, body, headers);
      assert.equal(invalid.status, 400, JSON.stringify(body));
      assert.equal(invalid.json.error.code, -32600);
    }
    const unknownMethod = await post(url, { jsonrpc: '2.0', id: 9, method: 'reviews/delete' }, headers);
    assert.equal(unknownMethod.status, 200);
    assert.equal(unknownMethod.json.error.code, -32601);
    const unknownTool = await post(
      url,
      { jsonrpc: '2.0', id: 10, method: 'tools/call', params: { name: 'delete_review', arguments: {} } },
      headers,
    );
    assert.equal(unknownTool.json.error.code, -32602);
    assert.match(unknownTool.json.error.message, /search_reviews/);
  });

  it('invalid params of a known method are 200 with -32602 naming the field, not -32603 with a zod dump', async () => {
    const { sessionId } = await initialize(url);
    const headers = { 'mcp-session-id': sessionId };
    const cases: Array<[unknown, Record<string, string>, RegExp]> = [
      [
        { jsonrpc: '2.0', id: 21, method: 'tools/call', params: { name: 'get_business', arguments: null } },
        headers,
        /tools\/call: params\.arguments: /,
      ],
      [{ jsonrpc: '2.0', id: 22, method: 'tools/call' }, headers, /tools\/call: params: missing/],
      [{ jsonrpc: '2.0', id: 23, method: 'tools/call', params: { arguments: {} } }, headers, /params\.name/],
      [{ jsonrpc: '2.0', id: 24, method: 'resources/read', params: { uri: 5 } }, headers, /params\.uri/],
      [{ jsonrpc: '2.0', id: 25, method: 'tools/list', params: { cursor: 5 } }, headers, /params\.cursor/],
      [{ jsonrpc: '2.0', id: 26, method: 'initialize' }, {}, /initialize: params: missing/],
      [
        {
          jsonrpc: '2.0',
          id: 27,
          method: 'initialize',
          params: { capabilities: {}, clientInfo: { name: 'x', version: '1' } },
        },
        {},
        /params\.protocolVersion/,
      ],
    ];
    for (const [body, extra, message] of cases) {
      const reply = await post(url, body, extra);
      const { id } = body as { id: number };
      assert.equal(reply.status, 200, reply.text);
      assert.deepEqual(Object.keys(reply.json).sort(), ['error', 'id', 'jsonrpc']);
      assert.equal(reply.json.id, id);
      assert.equal(reply.json.error.code, -32602, reply.text);
      assert.match(reply.json.error.message, message);
      assert.ok(!reply.json.error.message.includes('\n'), 'one line, no zod dump');
      assert.equal(reply.headers.get('mcp-session-id'), null, 'no session from a refused initialize');
    }
    // An unknown method stays -32601 whatever its params; valid params still pass.
    const unknown = await post(url, { jsonrpc: '2.0', id: 28, method: 'logging/setLevel', params: {} }, headers);
    assert.equal(unknown.json.error.code, -32601);
    const fine = await post(
      url,
      { jsonrpc: '2.0', id: 29, method: 'tools/call', params: { name: 'get_business' } },
      headers,
    );
    assert.equal(fine.status, 200);
    assert.ok(fine.json.result.structuredContent.business);
  });

  it("in a batch (2025-03-26), a request with invalid params gets its -32602 beside the others' results", async () => {
    const { sessionId } = await initialize(url, '2025-03-26');
    const headers = { 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-03-26' };
    const mixed = await post(
      url,
      [
        { jsonrpc: '2.0', id: 31, method: 'tools/call' },
        { jsonrpc: '2.0', id: 32, method: 'ping' },
      ],
      headers,
    );
    assert.equal(mixed.status, 200, mixed.text);
    const byId = new Map(mixed.json.map((r: any) => [r.id, r]));
    assert.equal((byId.get(31) as any).error.code, -32602);
    assert.deepEqual((byId.get(32) as any).result, {});
    const alone = await post(
      url,
      [
        { jsonrpc: '2.0', id: 33, method: 'tools/call' },
        { jsonrpc: '2.0', method: 'notifications/initialized' },
      ],
      headers,
    );
    assert.equal(alone.status, 200, alone.text);
    assert.deepEqual(
      alone.json.map((r: any) => [r.id, r.error.code]),
      [[33, -32602]],
    );
  });

  it('bad tool arguments are a result with isError and the REST API issues', async () => {
    const { sessionId } = await initialize(url);
    const reply = await post(
      url,
      {
        jsonrpc: '2.0',
        id: 4,
        method: 'tools/call',
        params: { name: 'search_reviews', arguments: { rating: 9, colour: 'red' } },
      },
      { 'mcp-session-id': sessionId },
    );
    assert.equal(reply.status, 200);
    assert.equal(reply.json.result.isError, true);
    const body = JSON.parse(reply.json.result.content[0].text);
    const rest = await (await fetch(`${server.url}/api/reviews/search?rating=9&colour=red`)).json();
    assert.equal(body.error, 'invalid_request');
    assert.deepEqual(body.issues.map((i: any) => i.path[0]).sort(), ['colour', 'rating']);
    assert.deepEqual(body.issues.map((i: any) => i.path[0]).sort(), rest.issues.map((i: any) => i.path[0]).sort());
  });

  it('Host must be a configured site host, a loopback name (bound to loopback) or in MCP_ALLOWED_HOSTS', async () => {
    for (const host of ['evil.example', 'evil.example:80', 'localhost.evil.example']) {
      const reply = await postWithHost(host, initializeRequest());
      assert.equal(reply.status, 403, `Host ${host}: ${reply.body}`);
    }
    for (const host of [
      `127.0.0.1:${server.port}`,
      `localhost:${server.port}`,
      'LOCALHOST',
      'mcp.example.org',
      'mcp.example.org:8443',
    ]) {
      const reply = await postWithHost(host, initializeRequest());
      assert.equal(reply.status, 200, `Host ${host}: ${reply.body}`);
    }
  });

  it('a present Origin must be allowed (the site, MCP_ALLOWED_ORIGINS); allowed ones get CORS', async () => {
    for (const origin of ['https://evil.example', 'null', 'http://localhost:4322']) {
      const reply = await post(url, initializeRequest(), { origin });
      assert.equal(reply.status, 403, origin);
      assert.equal(reply.headers.get('mcp-session-id'), null);
    }
    for (const origin of [SITE_ORIGIN, 'https://app.example.com']) {
      const reply = await post(url, initializeRequest(), { origin });
      assert.equal(reply.status, 200, origin);
      assert.equal(reply.headers.get('access-control-allow-origin'), origin);
      assert.match(reply.headers.get('access-control-expose-headers') ?? '', /Mcp-Session-Id/i);
    }
    const preflight = await fetch(url, {
      method: 'OPTIONS',
      headers: {
        origin: 'https://app.example.com',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'content-type, mcp-session-id',
      },
    });
    assert.equal(preflight.status, 204);
    assert.equal(preflight.headers.get('access-control-allow-origin'), 'https://app.example.com');
    assert.match(preflight.headers.get('access-control-allow-headers') ?? '', /Mcp-Session-Id/i);
    const badPreflight = await fetch(url, {
      method: 'OPTIONS',
      headers: { origin: 'https://evil.example', 'access-control-request-method': 'POST' },
    });
    assert.equal(badPreflight.status, 403);
  });

  it('bound to loopback, a page of this server on a loopback name and its own port may call it; other ports and names are 403', async () => {
    for (const name of ['127.0.0.1', 'localhost']) {
      const own = await postWithHeaders(
        { host: `${name}:${server.port}`, origin: `http://${name}:${server.port}` },
        initializeRequest(),
      );
      assert.equal(own.status, 200, `${name}: ${own.body}`);
    }
    for (const [host, origin] of [
      [`127.0.0.1:${server.port}`, `http://127.0.0.1:${server.port + 1}`],
      [`localhost:${server.port}`, `http://127.0.0.1:${server.port}`],
      [`127.0.0.1:${server.port}`, `https://127.0.0.1:${server.port}`],
      [`evil.example:${server.port}`, `http://evil.example:${server.port}`],
    ]) {
      const other = await postWithHeaders({ host: host!, origin: origin! }, initializeRequest());
      assert.equal(other.status, 403, `${host} ${origin}: ${other.body}`);
    }
  });

  it('Authorization is ignored, well-formed or not', async () => {
    const plain = await initialize(url);
    const withAuth = await initialize(url, '2025-06-18', { authorization: 'Bearer not-a-token' });
    const plainList = await post(url, listTools, { 'mcp-session-id': plain.sessionId });
    for (const authorization of ['Bearer not-a-token', 'Basic Zm9vOmJhcg==', 'garbage']) {
      const list = await post(url, listTools, { 'mcp-session-id': withAuth.sessionId, authorization });
      assert.equal(list.status, 200);
      assert.deepEqual(list.json, plainList.json);
    }
    assert.equal(withAuth.reply.headers.get('www-authenticate'), null);
  });

  it('DELETE ends the session (204), later use is 404; DELETE without id is 400', async () => {
    const { sessionId } = await initialize(url);
    const missing = await fetch(url, { method: 'DELETE' });
    assert.equal(missing.status, 400);
    const ended = await fetch(url, { method: 'DELETE', headers: { 'mcp-session-id': sessionId } });
    assert.equal(ended.status, 204);
    const after = await post(url, listTools, { 'mcp-session-id': sessionId });
    assert.equal(after.status, 404);
    assert.equal(after.json.error.code, -32001);
    const again = await fetch(url, { method: 'DELETE', headers: { 'mcp-session-id': sessionId } });
    assert.equal(again.status, 404);
  });
});

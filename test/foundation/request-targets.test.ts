/**
 * One canonical path, one answer: an absolute-form request target is its path;
 * other spellings of a static file's path are redirected to it; build
 * artefacts (precompressed bodies, the manifest) are not served. And MCP
 * bodies that would overflow a recursive check, or a session switching its
 * protocol version, get a small 400.
 */
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { after, before, it } from 'node:test';
import { startServer, type RunningServer } from '../helpers/server.ts';
import { initialize, post } from '../mcp/helpers.ts';

let server: RunningServer;
before(async () => (server = await startServer('small')));
after(() => server?.stop());

/** The raw request line and headers, as a proxy-minded client would send them. */
function rawRequest(head: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(server.port, '127.0.0.1', () => socket.write(`${head}\r\nConnection: close\r\n\r\n`));
    let data = '';
    socket.on('data', (chunk) => (data += chunk.toString('latin1')));
    socket.on('end', () => resolve(data));
    socket.on('error', reject);
  });
}

it('an absolute-form target (RFC 9112 §3.2.2) is answered as its path', async () => {
  const direct = await fetch(`${server.url}/reviews.json`, { headers: { 'accept-encoding': 'identity' } });
  const raw = await rawRequest(`GET http://127.0.0.1:${server.port}/reviews.json HTTP/1.1\r\nHost: elsewhere.example`);
  assert.match(raw, /^HTTP\/1\.1 200 /);
  assert.match(raw, /\r\ncontent-type: application\/json; charset=utf-8\r\n/i);
  assert.ok(raw.toLowerCase().includes(`\r\netag: ${direct.headers.get('etag')!.toLowerCase()}\r\n`), raw.slice(0, 600));
});

it('other spellings of a static path are a 301 to the canonical one, query kept', async () => {
  for (const [spelling, canonical] of [
    ['/reviews%2ejson', '/reviews.json'],
    ['/%72eviews.json?x=1', '/reviews.json?x=1'],
    ['/api%2ffeed.json', '/api/feed.json'],
    ['/feed%2Exml', '/feed.xml'],
  ]) {
    const response = await fetch(server.url + spelling, { redirect: 'manual' });
    assert.equal(response.status, 301, spelling);
    assert.equal(response.headers.get('location'), canonical, spelling);
  }
});

it('precompressed bodies and the manifest are not public: the site\'s 404 page', async () => {
  for (const path of ['/reviews.json.br', '/reviews.json.gz', '/static-manifest.json', '/static-manifest%2Ejson', '/reviews.json%2Ebr', '/%72eviews.json.gz']) {
    const response = await fetch(server.url + path);
    assert.equal(response.status, 404, path);
    assert.match(response.headers.get('content-type') ?? '', /^text\/html/, path);
    assert.equal(response.headers.get('cache-control'), 'no-store');
  }
});

it('MCP: a body nested 100,000 deep is a 400 Invalid Request, without a stack trace in the log', async () => {
  const deep = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;
  const reply = await post(`${server.url}/mcp`, deep);
  assert.equal(reply.status, 400);
  assert.equal(reply.json.error.code, -32600);
  assert.match(reply.json.error.message, /nests deeper than 64 levels/);
  assert.ok(reply.text.length < 400);
  assert.doesNotMatch(server.output(), /RangeError|Maximum call stack/);
});

it('MCP: a 2025-06-18 session cannot switch to 2025-03-26 to send a batch', async () => {
  const { sessionId } = await initialize(`${server.url}/mcp`, '2025-06-18');
  const batch = [
    { jsonrpc: '2.0', id: 1, method: 'ping' },
    { jsonrpc: '2.0', id: 2, method: 'ping' },
  ];
  const reply = await post(`${server.url}/mcp`, batch, { 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-03-26' });
  assert.equal(reply.status, 400);
  assert.match(reply.json.error.message, /not the version this session agreed \(2025-06-18\)/);
});

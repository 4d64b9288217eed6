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
  assert.ok(
    raw.toLowerCase().includes(`\r\netag: ${direct.headers.get('etag')!.toLowerCase()}\r\n`),
    raw.slice(0, 600),
  );
});

it('other spellings of a static path are a 301 to the canonical one, query kept', async () => {
  for (const [spelling, canonical] of [
    ['/reviews%2ejson', '/reviews.json'],
    ['/%72eviews.json?x=1', '/reviews.json?x=1'],
    ['/feed%2Exml', '/feed.xml'],
  ]) {
    const response = await fetch(server.url + spelling, { redirect: 'manual' });
    assert.equal(response.status, 301, spelling);
    assert.equal(response.headers.get('location'), canonical, spelling);
  }
});

it("precompressed bodies and the manifest are not public: the site's 404 page", async () => {
  for (const path of [
    '/reviews.json.br',
    '/reviews.json.gz',
    '/static-manifest.json',
    '/static-manifest%2Ejson',
    '/reviews.json%2Ebr',
    '/%72eviews.json.gz',
  ]) {
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
  const reply = await post(`${server.url}/mcp`, batch, {
    'mcp-session-id': sessionId,
    'mcp-protocol-version': '2025-03-26',
  });
  assert.equal(reply.status, 400);
  assert.match(reply.json.error.message, /not the version this session agreed \(2025-06-18\)/);
});

/**
 * Every other spelling of a path (an encoded letter, an encoded or doubled slash,
 * a backslash, a dot segment) is redirected to the canonical path before any
 * route sees it, with the method kept (308) where it is not GET or HEAD: no
 * spelling reaches a second MCP, hub or cron route behind the entry's guards, nor
 * a build file. Sent raw: fetch and node:http would tidy some spellings first.
 */
function spellings(path: string): string[] {
  const [first, ...rest] = path.slice(1);
  const tail = path.slice(1);
  const hex = first!.charCodeAt(0).toString(16);
  return [
    `/%${hex}${rest.join('')}`,
    `/%${hex.toUpperCase()}${rest.join('')}`,
    `/%2e/${tail}`,
    `/./${tail}`,
    `/x/../${tail}`,
    `/x/%2e%2e/${tail}`,
    `/x/%2E%2E/${tail}`,
    `//${tail}`,
    `/\\${tail}`,
  ];
}

/** One raw request (the target byte for byte) with a JSON body when given; the whole answer. */
function send(method: string, target: string, body?: string, host = `127.0.0.1:${server.port}`): Promise<string> {
  const framing =
    body === undefined
      ? ''
      : `\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: ${Buffer.byteLength(body)}`;
  return new Promise((resolve, reject) => {
    const socket = connect(server.port, '127.0.0.1', () =>
      socket.write(`${method} ${target} HTTP/1.1\r\nHost: ${host}${framing}\r\nConnection: close\r\n\r\n${body ?? ''}`),
    );
    let data = '';
    socket.on('data', (chunk) => (data += chunk.toString('latin1')));
    socket.on('close', () => resolve(data));
    socket.on('error', reject);
  });
}

const ROUTES: Array<{ method: string; path: string; query?: string }> = [
  { method: 'POST', path: '/mcp' },
  { method: 'GET', path: '/mcp' },
  { method: 'POST', path: '/api/websub/hub' },
  { method: 'GET', path: '/api/cron/sweep' },
  { method: 'GET', path: '/api/reviews/search', query: '?query=roof' },
  { method: 'GET', path: '/api/reviews/since/2025-01-01' },
  { method: 'GET', path: '/api/nothing' },
  { method: 'GET', path: '/static-manifest.json' },
  { method: 'GET', path: '/reviews.json.br' },
  { method: 'GET', path: '/reviews.json.gz' },
  { method: 'POST', path: '/admin/' },
  { method: 'GET', path: '/reviews/page/1' },
];

it('every encoded spelling of a dynamic route or a build file is a redirect to the canonical path, nothing else', async () => {
  for (const route of ROUTES) {
    for (const spelling of spellings(route.path)) {
      const body = route.method === 'POST' ? '{}' : undefined;
      const answer = await send(route.method, `${spelling}${route.query ?? ''}`, body);
      const expected = route.method === 'GET' || route.method === 'HEAD' ? 301 : 308;
      assert.match(
        answer,
        new RegExp(`^HTTP/1\\.1 ${expected} `),
        `${route.method} ${spelling}: ${answer.slice(0, 300)}`,
      );
      const location = /\r\nlocation: ([^\r]*)\r\n/i.exec(answer)?.[1];
      assert.equal(location, `${route.path}${route.query ?? ''}`, `${route.method} ${spelling}`);
    }
  }
  assert.doesNotMatch(server.output(), /CRON_SECRET|at .*\(.*\.m?js:\d+/, 'no stack trace, no second cron route');
});

/** The status, location and body of a raw answer. */
function answerOf(text: string): { status: number; location: string | undefined; body: string } {
  const [head = '', body = ''] = text.split('\r\n\r\n');
  return {
    status: Number(/^HTTP\/1\.1 (\d{3}) /.exec(head)?.[1]),
    location: /\r\nlocation: ([^\r]*)/i.exec(head)?.[1],
    body,
  };
}

it('%2F and %5C are data, never a separator: no spelling of a route with them reaches it, nor is sent to it', async () => {
  for (const route of ROUTES) {
    const tail = route.path.slice(1);
    const inner = tail.replace('/', '%2F');
    for (const spelling of [`/%2F${tail}`, `/%5C${tail}`, `/%2f${tail}`, `/x%2F..%2F${tail}`, `/${inner}`]) {
      if (spelling === route.path) continue;
      const body = route.method === 'POST' ? '{}' : undefined;
      const answer = answerOf(await send(route.method, `${spelling}${route.query ?? ''}`, body));
      const what = `${route.method} ${spelling}: ${answer.status} ${answer.body.slice(0, 200)}`;
      // Lower-case escapes are sent to their upper-case spelling, which keeps the escape.
      if (answer.status === 301 || answer.status === 308) {
        assert.ok(answer.location && /%2F|%5C/.test(answer.location), what);
        continue;
      }
      assert.equal(answer.status, 404, what);
    }
  }
});

it('an escaped / in a page path is the 404 page, not the path it would spell decoded', async () => {
  for (const target of ['/reviews/x%2Fy', '/reviews%2Fpage%2F1', '/x/..%2F..%2Freviews.json', '/%5Creviews.json']) {
    const answer = answerOf(await send('GET', target));
    assert.equal(answer.status, 404, `${target}: ${answer.status} ${answer.location}`);
  }
});

it("the since date with an escaped / is the API's 400 naming `date`, not a redirect elsewhere", async () => {
  for (const date of ['..%2F..', '2024%2F01%2F01', '..%2F..%2Fsearch', '..%5C..']) {
    const answer = answerOf(await send('GET', `/api/reviews/since/${date}`));
    assert.equal(answer.status, 400, `${date}: ${answer.status} ${answer.location}`);
    const body = JSON.parse(answer.body) as { error: string; issues: Array<{ path: string[] }> };
    assert.equal(body.error, 'invalid_request', date);
    assert.deepEqual(body.issues[0]!.path, ['date'], date);
  }
});

it('the canonical path itself: POST to a static page is a 405, the build files a 404', async () => {
  const post = await send('POST', '/admin/', '');
  assert.match(post, /^HTTP\/1\.1 405 /);
  for (const path of ['/static-manifest.json', '/reviews.json.br']) {
    assert.match(await send('GET', path), /^HTTP\/1\.1 404 /, path);
  }
});

it('a target that is not valid percent-encoding, or not a path, is a 400', async () => {
  for (const target of ['/%', '/mcp%', '/%zzmcp', '/api/reviews/since/%E0%A4%A', '/%C3%28', '*']) {
    const answer = await send('GET', target);
    assert.match(answer, /^HTTP\/1\.1 400 /, `${target}: ${answer.slice(0, 200)}`);
  }
});

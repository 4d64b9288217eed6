/**
 * Whatever a client sends, the server answers with a 2xx, 3xx or 4xx and never
 * a 5xx: methods the Fetch API refuses, paths that look like hosts, Host
 * headers with credentials, broken percent-encoding, on every kind of route.
 */
import assert from 'node:assert/strict';
import { request } from 'node:http';
import { connect } from 'node:net';
import { after, before, it } from 'node:test';
import { startServer, type RunningServer } from '../helpers/server.ts';

let server: RunningServer;
before(async () => {
  server = await startServer('small');
});
after(() => server?.stop());

function raw(method: string, path: string, headers: Record<string, string> = {}, body?: string) {
  return new Promise<{ status: number; headers: Record<string, unknown>; body: string }>((resolve, reject) => {
    const framing = body === undefined ? {} : { 'content-length': String(Buffer.byteLength(body)) };
    const req = request(
      {
        host: '127.0.0.1',
        port: server.port,
        method,
        path,
        headers: { ...framing, ...headers },
        setHost: !('host' in headers),
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

const PATHS = [
  '/',
  '/reviews.json',
  '/feed.xml',
  '/api/reviews/search',
  '/api/reviews/since/2025-01-01',
  '/api/nothing',
  '/mcp',
  '/api/websub/hub',
  '/reviews/page/1',
  '/no-such-page',
];

it('TRACE, which the Fetch API refuses to carry, is 405 everywhere', async () => {
  // (Node's own parser already answers 400 to methods it does not know, such as TRACK.)
  for (const method of ['TRACE']) {
    for (const path of PATHS) {
      const answer = await raw(method, path);
      assert.equal(answer.status, 405, `${method} ${path}: ${answer.body}`);
      assert.ok(answer.headers.allow);
      assertSecurityHeaders(answer.headers, `${method} ${path}`);
    }
  }
});

/** The two headers docs/reliability.md promises on every answer. */
function assertSecurityHeaders(headers: Record<string, unknown>, what: string): void {
  assert.equal(headers['x-content-type-options'], 'nosniff', what);
  assert.equal(headers['referrer-policy'], 'strict-origin-when-cross-origin', what);
}

/** The status line and headers of a raw answer, by lower-case name. */
function parseHead(text: string): { status: number; headers: Record<string, string>; body: string } {
  const [head = '', body = ''] = text.split('\r\n\r\n');
  const [statusLine = '', ...lines] = head.split('\r\n');
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim();
  }
  return { status: Number(statusLine.split(' ')[1]), headers, body };
}

it('CONNECT, to a path or to any authority, is a 405 with the security headers, not a closed connection', async () => {
  for (const target of ['/reviews.json', '/mcp', 'evil.example:443', `127.0.0.1:${server.port}`, '*']) {
    const answer = parseHead(await rawBytes(`CONNECT ${target} HTTP/1.1\r\nHost: ${target}\r\n\r\n`));
    assert.equal(answer.status, 405, `CONNECT ${target}`);
    assert.equal(answer.headers.allow, 'GET, HEAD, OPTIONS');
    assert.equal(JSON.parse(answer.body).error, 'method_not_allowed');
    assertSecurityHeaders(answer.headers, `CONNECT ${target}`);
  }
});

it('unknown and unusual methods never give a 5xx', async () => {
  for (const method of [
    'PROPFIND',
    'MKCOL',
    'LOCK',
    'PURGE',
    'SEARCH',
    'PATCH',
    'PUT',
    'DELETE',
    'OPTIONS',
    'HEAD',
    'POST',
  ]) {
    for (const path of PATHS) {
      const answer = await raw(
        method,
        path,
        { 'content-type': 'application/json' },
        method === 'HEAD' || method === 'OPTIONS' ? undefined : '{}',
      );
      assert.ok(answer.status < 500, `${method} ${path}: ${answer.status} ${answer.body.slice(0, 200)}`);
    }
  }
});

it('a path starting with // is a path, not a host: sent to its one-slash spelling', async () => {
  const answer = await raw('GET', '//evil.example/reviews.json');
  assert.equal(answer.status, 301);
  assert.equal(answer.headers.location, '/evil.example/reviews.json');
  const api = await raw('GET', '//x/api/reviews/search');
  assert.equal(api.headers.location, '/x/api/reviews/search');
});

it('odd Host headers and broken encodings are answered, not crashed on', async () => {
  for (const path of ['/', '/api/reviews/search', '/reviews.json', '/mcp']) {
    const answer = await raw('GET', path, { host: '' });
    assert.ok(answer.status < 500, `empty Host ${path}: ${answer.status} ${answer.body.slice(0, 200)}`);
  }
  for (const path of [
    '/%',
    '/%E0%A4%A',
    '/api/reviews/since/%',
    '/reviews/%ZZ',
    '/api/reviews/search?%=%',
    '/%2e%2e/%2e%2e/etc/passwd',
    '/../../etc/passwd',
  ]) {
    const answer = await raw('GET', path);
    assert.ok(answer.status < 500, `${path}: ${answer.status} ${answer.body.slice(0, 200)}`);
    assert.doesNotMatch(answer.body, /root:x:0:0/);
  }
});

/** Bytes written to a socket as they are, and everything the server sends back until it closes. */
function rawBytes(bytes: string) {
  return new Promise<string>((resolve, reject) => {
    const socket = connect(server.port, '127.0.0.1', () => socket.end(bytes));
    let text = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk) => (text += chunk));
    socket.on('close', () => resolve(text));
    socket.on('error', reject);
  });
}

it("what Node's HTTP parser refuses is a small JSON error too, not a bare status line", async () => {
  // A search URL over Node's 16 KiB limit on the request line and headers.
  const long = await raw('GET', `/api/reviews/search?query=${'a'.repeat(17_000)}`);
  assert.equal(long.status, 431);
  assert.match(String(long.headers['content-type']), /^application\/json/);
  assert.equal(JSON.parse(long.body).error, 'headers_too_large');
  assertSecurityHeaders(long.headers, '431');

  const broken = await rawBytes('GET /reviews.json HTTP/1.1\r\nHost: localhost\r\nBad Header Line\r\n\r\n');
  const [head, body] = broken.split('\r\n\r\n');
  assert.match(head!, /^HTTP\/1\.1 400 /);
  assert.match(head!, /content-type: application\/json/i);
  assert.equal(JSON.parse(body!).error, 'bad_request');
  assertSecurityHeaders(parseHead(broken).headers, '400');
});

it('a Host that is not a name or address with a port is a 400 everywhere, before Astro builds a URL from it', async () => {
  const a = '/reviews/2025-05-20-linda-k-replacement';
  const b = '/reviews/2024-11-03-bob-inspection';
  const here = `127.0.0.1:${server.port}`;
  const hosts = [
    `${here}${b.replaceAll('/', '\\')}?`,
    `${here}${b}?`,
    `${here}\\x`,
    'x?y',
    'a@b',
    'user:pass@localhost',
    'localhost:99999999',
    '[::1',
    'a b',
    'a#b',
    `${here}:80`,
  ];
  for (const host of hosts) {
    for (const path of [a, '/', '/reviews/page/1', '/no-such-page', '/reviews.json', '/api/reviews/search', '/mcp']) {
      const answer = await raw('GET', path, { host });
      assert.equal(
        answer.status,
        400,
        `Host ${JSON.stringify(host)} ${path}: ${answer.status} ${answer.body.slice(0, 200)}`,
      );
      assert.equal(JSON.parse(answer.body).error, 'bad_request');
    }
  }
  // The page at A's URL is A's, whatever else a proxy passed along.
  const page = await raw('GET', a, { host: here });
  assert.equal(page.status, 200);
  assert.match(page.body, /linda/i);
  assert.doesNotMatch(server.output(), /Could not render|stack/i);
});

it('an HTTP/1.0 request without Host is answered as the site', async () => {
  const answer = await rawBytes('GET /reviews/2025-05-20-linda-k-replacement HTTP/1.0\r\n\r\n');
  assert.match(answer, /^HTTP\/1\.1 200 /);
});

/**
 * HTTP behaviour shared by the REST endpoints: content-hash ETags, Last-Modified
 * from content, 304s for both validators, CORS and preflight, HEAD, 404 and 405 —
 * and the Node entry's direct path answering byte-for-byte like Astro's routes.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { bytesOf, conditional, sha256Etag } from '../helpers/http.ts';
import { startServer, type RunningServer } from '../helpers/server.ts';

let direct: RunningServer;
let throughAstro: RunningServer;
let reviews: Array<{ id: string; date: string; updated: string; rating: number }>;

before(async () => {
  [direct, throughAstro] = await Promise.all([
    startServer('content'),
    startServer('content', { API_THROUGH_ASTRO: 'true' }),
  ]);
  reviews = (await (await fetch(`${direct.url}/reviews.json`)).json()).reviews;
});
after(() => Promise.all([direct?.stop(), throughAstro?.stop()]));

const ENDPOINTS = ['/api/reviews/search?min_rating=4&limit=10', '/api/reviews/since/2025-01-01'];

describe('validators and 304', () => {
  for (const path of ENDPOINTS) {
    it(`${path}: strong ETag of the body, Last-Modified from the reviews served, CDN cache headers`, async () => {
      // The identity representation (fetch would ask for gzip and decode it: test/api/compression.test.ts).
      const response = await fetch(direct.url + path, { headers: { 'accept-encoding': 'identity' } });
      const body = await bytesOf(response);
      assert.equal(response.headers.get('etag'), sha256Etag(body));
      const served = JSON.parse(body.toString()).reviews as typeof reviews;
      const newest = served
        .map((r) => r.updated)
        .sort()
        .at(-1)!;
      assert.equal(response.headers.get('last-modified'), new Date(newest).toUTCString());
      assert.match(response.headers.get('cache-control') ?? '', /public.*s-maxage=\d+/);
    });

    it(`${path}: If-None-Match → 304 with empty body and the same validators; it wins over If-Modified-Since`, async () => {
      const first = await fetch(direct.url + path);
      await first.arrayBuffer();
      const etag = first.headers.get('etag')!;
      const lastModified = first.headers.get('last-modified')!;
      const notModified = await fetch(direct.url + path, { headers: conditional({ 'if-none-match': etag }) });
      assert.equal(notModified.status, 304);
      assert.equal((await bytesOf(notModified)).length, 0);
      assert.equal(notModified.headers.get('etag'), etag);
      assert.equal(notModified.headers.get('last-modified'), lastModified);
      const list = await fetch(direct.url + path, { headers: conditional({ 'if-none-match': `"x", W/${etag}` }) });
      assert.equal(list.status, 304);
      const ims = await fetch(direct.url + path, { headers: conditional({ 'if-modified-since': lastModified }) });
      assert.equal(ims.status, 304);
      const later = await fetch(direct.url + path, {
        headers: conditional({ 'if-modified-since': new Date(Date.parse(lastModified) + 86_400_000).toUTCString() }),
      });
      assert.equal(later.status, 304);
      const earlier = await fetch(direct.url + path, {
        headers: conditional({ 'if-modified-since': new Date(Date.parse(lastModified) - 1000).toUTCString() }),
      });
      assert.equal(earlier.status, 200);
      await earlier.arrayBuffer();
      const wins = await fetch(direct.url + path, {
        headers: conditional({ 'if-none-match': '"stale"', 'if-modified-since': lastModified }),
      });
      assert.equal(wins.status, 200, 'If-None-Match wins over If-Modified-Since');
      await wins.arrayBuffer();
      const garbage = await fetch(direct.url + path, { headers: conditional({ 'if-modified-since': 'not a date' }) });
      assert.equal(garbage.status, 200, 'an unparseable date is ignored');
      await garbage.arrayBuffer();
    });
  }
});

describe('CORS, HEAD, 404, 405', () => {
  it('every GET answer allows any origin and exposes the validators', async () => {
    for (const path of [...ENDPOINTS, '/api/reviews/search?rating=9', '/api/nothing-here']) {
      const response = await fetch(direct.url + path, { headers: { origin: 'https://example.org' } });
      assert.equal(response.headers.get('access-control-allow-origin'), '*', path);
      assert.match(response.headers.get('access-control-expose-headers') ?? '', /ETag.*Last-Modified/);
      await response.arrayBuffer();
    }
  });

  it('answers a preflight', async () => {
    for (const path of ENDPOINTS) {
      const response = await fetch(direct.url + path, {
        method: 'OPTIONS',
        headers: {
          origin: 'https://example.org',
          'access-control-request-method': 'GET',
          'access-control-request-headers': 'if-none-match',
        },
      });
      assert.equal(response.status, 204);
      assert.equal(response.headers.get('access-control-allow-origin'), '*');
      assert.match(response.headers.get('access-control-allow-methods') ?? '', /GET/);
      assert.match(response.headers.get('access-control-allow-headers') ?? '', /if-none-match/);
    }
  });

  it('HEAD answers the headers of GET and no body', async () => {
    for (const path of ENDPOINTS) {
      const identity = { 'accept-encoding': 'identity' };
      const get = await fetch(direct.url + path, { headers: identity });
      const body = await bytesOf(get);
      const head = await fetch(direct.url + path, { method: 'HEAD', headers: identity });
      assert.equal(head.status, 200);
      assert.equal((await bytesOf(head)).length, 0);
      assert.equal(head.headers.get('etag'), get.headers.get('etag'));
      assert.equal(head.headers.get('content-length'), String(body.length));
    }
  });

  it('unknown /api/ paths are a JSON 404', async () => {
    for (const path of [
      '/api/nothing',
      '/api/reviews',
      '/api/reviews/since',
      '/api/reviews/since/',
      '/api/reviews/since/2025-01-01/extra',
      '/api/reviews/searchx',
    ]) {
      const response = await fetch(direct.url + path);
      assert.equal(response.status, 404, path);
      assert.equal(response.headers.get('content-type'), 'application/json; charset=utf-8');
      assert.equal((await response.json()).error, 'not_found');
    }
  });

  it('wrong methods are a 405 with Allow', async () => {
    for (const [method, path] of [
      ['POST', ENDPOINTS[0]],
      ['PUT', ENDPOINTS[1]],
      ['DELETE', ENDPOINTS[0]],
      ['PATCH', ENDPOINTS[1]],
    ] as const) {
      const response = await fetch(direct.url + path, { method, body: method === 'DELETE' ? undefined : '{}' });
      assert.equal(response.status, 405, `${method} ${path}`);
      assert.equal(response.headers.get('allow'), 'GET, HEAD, OPTIONS');
      assert.equal((await response.json()).error, 'method_not_allowed');
    }
  });
});

describe('the direct Node path and the Astro routes answer alike', () => {
  const cases: Array<[string, string, Record<string, string>?]> = [
    ['GET', '/api/reviews/search'],
    ['GET', '/api/reviews/search?rating=5&limit=3'],
    ['GET', '/api/reviews/search?query=roof&mentions_technician=dave-kowalski'],
    ['GET', '/api/reviews/search?rating=6&colour=red'],
    ['GET', '/api/reviews/since/2025-01-01'],
    ['GET', '/api/reviews/since/2025-02-30'],
    ['GET', '/api/nothing'],
    ['POST', '/api/reviews/search'],
    ['OPTIONS', '/api/reviews/search', { 'access-control-request-method': 'GET', origin: 'https://example.org' }],
    ['HEAD', '/api/reviews/since/2024-06-01'],
  ];
  const compared = [
    'content-type',
    'etag',
    'last-modified',
    'cache-control',
    'access-control-allow-origin',
    'access-control-expose-headers',
    'allow',
    'access-control-allow-methods',
  ];
  for (const [method, path, headers] of cases) {
    it(`${method} ${path}`, async () => {
      const [a, b] = await Promise.all(
        [direct, throughAstro].map((server) =>
          fetch(server.url + path, { method, headers: headers ?? {}, body: method === 'POST' ? '{}' : undefined }),
        ),
      );
      assert.equal(a!.status, b!.status);
      for (const name of compared) assert.equal(a!.headers.get(name), b!.headers.get(name), name);
      assert.deepEqual(await bytesOf(a!), await bytesOf(b!));
    });
  }
});

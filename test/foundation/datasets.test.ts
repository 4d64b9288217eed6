/**
 * The static datasets and feeds as the real server answers them: bodies,
 * content types, content-hash ETags, 304s, precompression, HEAD and CORS.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { BUILDS } from '../helpers/builds.ts';
import { bytesOf, conditional, rawGet, sha256Etag } from '../helpers/http.ts';
import { startServer, type RunningServer } from '../helpers/server.ts';

const DATA_FILES = [
  { path: '/reviews.json', type: 'application/json; charset=utf-8' },
  { path: '/insights.json', type: 'application/json; charset=utf-8' },
  { path: '/api/feed.json', type: 'application/feed+json; charset=utf-8' },
  { path: '/feed.xml', type: 'application/atom+xml; charset=utf-8' },
];

let server: RunningServer;
before(async () => {
  server = await startServer('content');
});
after(() => server.stop());

describe('data files', () => {
  for (const { path, type } of DATA_FILES) {
    describe(path, () => {
      it('is served with its content type, a SHA-256 ETag of its bytes and CDN cache headers', async () => {
        const response = await fetch(server.url + path, { headers: { 'accept-encoding': 'identity' } });
        assert.equal(response.status, 200);
        assert.equal(response.headers.get('content-type'), type);
        const body = await bytesOf(response);
        assert.equal(response.headers.get('etag'), sha256Etag(body));
        assert.match(response.headers.get('cache-control') ?? '', /public/);
        assert.match(response.headers.get('cache-control') ?? '', /s-maxage=\d+/);
        assert.equal(response.headers.get('access-control-allow-origin'), '*');
        assert.equal(response.headers.get('vary'), 'Accept-Encoding');
        assert.equal(response.headers.get('content-encoding'), null);
        const onDisk = readFileSync(resolve(BUILDS.content.outDir, 'client', path.slice(1)));
        assert.deepEqual(body, onDisk, 'the server sends the built bytes');
        assert.equal(body.at(-1), 0x0a, 'the body ends with a newline');
      });

      it('answers If-None-Match with 304, an empty body and the same validators', async () => {
        const first = await fetch(server.url + path, { headers: { 'accept-encoding': 'identity' } });
        const etag = first.headers.get('etag') as string;
        await first.arrayBuffer();
        const second = await fetch(server.url + path, {
          headers: conditional({ 'if-none-match': etag, 'accept-encoding': 'identity' }),
        });
        assert.equal(second.status, 304);
        assert.equal((await bytesOf(second)).length, 0);
        assert.equal(second.headers.get('etag'), etag);
        assert.equal(second.headers.get('last-modified'), first.headers.get('last-modified'));
        assert.equal(second.headers.get('cache-control'), first.headers.get('cache-control'));

        const weak = await fetch(server.url + path, {
          headers: conditional({ 'if-none-match': `"other", W/${etag}` }),
        });
        assert.equal(weak.status, 304, 'weak comparison: a CDN-weakened ETag still matches');

        const stale = await fetch(server.url + path, { headers: conditional({ 'if-none-match': '"not-the-etag"' }) });
        assert.equal(stale.status, 200);
        await stale.arrayBuffer();
      });

      it('answers If-Modified-Since from the newest content date, and If-None-Match wins over it', async () => {
        const first = await fetch(server.url + path);
        await first.arrayBuffer();
        const lastModified = first.headers.get('last-modified') as string;
        assert.ok(lastModified, 'data files carry Last-Modified');
        // A dataset's own `updated` (insights.json's includes its editorial FAQ and summary); the feeds take the reviews'.
        const source = path === '/insights.json' ? 'client/insights.json' : 'client/reviews.json';
        const { updated } = JSON.parse(readFileSync(resolve(BUILDS.content.outDir, source), 'utf8'));
        assert.equal(lastModified, new Date(updated).toUTCString());
        const notModified = await fetch(server.url + path, {
          headers: conditional({ 'if-modified-since': lastModified }),
        });
        assert.equal(notModified.status, 304);
        const older = new Date(Date.parse(lastModified) - 1000).toUTCString();
        const modified = await fetch(server.url + path, { headers: conditional({ 'if-modified-since': older }) });
        assert.equal(modified.status, 200);
        await modified.arrayBuffer();
        const wins = await fetch(server.url + path, {
          headers: conditional({ 'if-modified-since': lastModified, 'if-none-match': '"different"' }),
        });
        assert.equal(wins.status, 200, 'a non-matching If-None-Match wins over a matching If-Modified-Since');
        await wins.arrayBuffer();
      });

      it('is served precompressed with brotli or gzip as Accept-Encoding asks, each with its own ETag', async () => {
        const identity = await bytesOf(await fetch(server.url + path, { headers: { 'accept-encoding': 'identity' } }));
        const plainEtag = sha256Etag(identity);
        for (const [accept, encoding, decode] of [
          ['br', 'br', brotliDecompressSync],
          ['gzip, deflate', 'gzip', gunzipSync],
          ['gzip;q=0.5, br;q=0', 'gzip', gunzipSync],
        ] as const) {
          // fetch() would decode transparently; a raw request shows the encoded bytes.
          const raw = await rawGet(server.port, path, { 'accept-encoding': accept });
          assert.equal(raw.headers['content-encoding'], encoding, `Accept-Encoding: ${accept}`);
          assert.equal(raw.headers.vary, 'Accept-Encoding');
          assert.deepEqual(decode(raw.body), identity);
          assert.ok(raw.body.length < identity.length, 'compressed is smaller');
          assert.notEqual(raw.headers.etag, plainEtag, 'an encoding is a representation of its own');
          const revalidated = await rawGet(server.port, path, {
            'accept-encoding': accept,
            'if-none-match': raw.headers.etag as string,
          });
          assert.equal(revalidated.status, 304);
        }
      });

      it('answers HEAD with the headers of GET and no body', async () => {
        const head = await fetch(server.url + path, { method: 'HEAD', headers: { 'accept-encoding': 'identity' } });
        assert.equal(head.status, 200);
        assert.equal((await bytesOf(head)).length, 0);
        const get = await fetch(server.url + path, { headers: { 'accept-encoding': 'identity' } });
        const body = await bytesOf(get);
        assert.equal(head.headers.get('etag'), get.headers.get('etag'));
        assert.equal(head.headers.get('content-length'), String(body.length));
      });
    });
  }

  it('answers a CORS preflight and refuses writes with 405 and Allow', async () => {
    const preflight = await fetch(`${server.url}/reviews.json`, {
      method: 'OPTIONS',
      headers: {
        origin: 'https://example.org',
        'access-control-request-method': 'GET',
        'access-control-request-headers': 'if-none-match',
      },
    });
    assert.equal(preflight.status, 204);
    assert.equal(preflight.headers.get('access-control-allow-origin'), '*');
    assert.match(preflight.headers.get('access-control-allow-methods') ?? '', /GET/);
    assert.match(preflight.headers.get('access-control-allow-headers') ?? '', /if-none-match/i);
    const post = await fetch(`${server.url}/reviews.json`, { method: 'POST', body: '{}' });
    assert.equal(post.status, 405);
    assert.match(post.headers.get('allow') ?? '', /GET/);
    await post.arrayBuffer();
  });

  it('publishes reviews.json in the shape of docs/contract.md', async () => {
    const dataset = await (await fetch(`${server.url}/reviews.json`)).json();
    assert.deepEqual(Object.keys(dataset).sort(), ['aggregate_rating', 'business', 'reviews', 'updated']);
    assert.match(dataset.updated, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
    const { aggregate_rating: rating, reviews } = dataset;
    assert.equal(rating.review_count, reviews.length);
    assert.equal(rating.best_rating, 5);
    assert.equal(rating.worst_rating, 1);
    const sum = reviews.reduce((total: number, r: { rating: number }) => total + r.rating, 0);
    assert.equal(rating.rating_value, Math.round((sum / reviews.length) * 100) / 100);
    for (const level of [1, 2, 3, 4, 5]) {
      assert.equal(rating.distribution[level], reviews.filter((r: { rating: number }) => r.rating === level).length);
    }
    for (let i = 1; i < reviews.length; i++) {
      const [a, b] = [reviews[i - 1], reviews[i]];
      assert.ok(a.date > b.date || (a.date === b.date && a.id < b.id), `newest first at ${i}`);
    }
    const newestUpdated = reviews
      .map((r: { updated: string }) => r.updated)
      .sort()
      .at(-1);
    assert.equal(dataset.updated, newestUpdated, 'updated is the newest content change, never the build clock');
    for (const review of reviews) {
      assert.equal(review.verified, true);
      assert.ok(Array.isArray(review.technicians) && Array.isArray(review.services));
      assert.ok(review.response === null || typeof review.response.text === 'string');
    }
  });
});

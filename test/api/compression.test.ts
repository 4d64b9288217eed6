/**
 * Search and since answers, and review pages rendered on request, are
 * negotiated like the static files: br or gzip with `Vary: Accept-Encoding`,
 * each encoding its own strong ETag, and a 304 for a client that holds any of
 * them. Over real HTTP against the built server, directly and through Astro's
 * routes (the path Netlify and Vercel take).
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { BUILDS } from '../helpers/builds.ts';
import { rawGet, sha256Etag } from '../helpers/http.ts';
import { startServer, type RunningServer } from '../helpers/server.ts';

const decode = { br: brotliDecompressSync, gzip: gunzipSync, identity: (bytes: Buffer) => bytes } as const;

let direct: RunningServer;
let throughAstro: RunningServer;
let reviewId: string;

before(async () => {
  [direct, throughAstro] = await Promise.all([
    startServer('content'),
    startServer('content', { API_THROUGH_ASTRO: 'true' }),
  ]);
  const dataset = JSON.parse(readFileSync(resolve(BUILDS.content.outDir, 'client/reviews.json'), 'utf8')) as {
    reviews: { id: string; updated: string }[];
  };
  reviewId = dataset.reviews[0]!.id;
});
after(() => Promise.all([direct?.stop(), throughAstro?.stop()]));

const JSON_PATHS = ['/api/reviews/search?min_rating=4', '/api/reviews/since/2025-01-01'];

for (const [name, server] of [
  ['the Node entry', () => direct],
  ['Astro routes', () => throughAstro],
] as const) {
  describe(`compressed search and since answers (${name})`, () => {
    for (const path of JSON_PATHS) {
      it(`${path}: br, gzip and identity carry the same JSON, each with its own ETag`, async () => {
        const { port } = server();
        const identity = await rawGet(port, path, {});
        assert.equal(identity.status, 200);
        assert.equal(identity.headers['content-encoding'], undefined);
        assert.equal(identity.headers.vary, 'Accept-Encoding');
        assert.equal(identity.headers.etag, sha256Etag(identity.body));
        const etags = new Set([identity.headers.etag]);
        for (const encoding of ['br', 'gzip'] as const) {
          const answer = await rawGet(port, path, {
            'accept-encoding': encoding === 'br' ? 'gzip, deflate, br' : 'gzip',
          });
          assert.equal(answer.status, 200);
          assert.equal(answer.headers['content-encoding'], encoding);
          assert.equal(answer.headers.vary, 'Accept-Encoding');
          assert.equal(Number(answer.headers['content-length']), answer.body.length);
          assert.ok(
            answer.body.length < identity.body.length / 2,
            `${encoding}: ${answer.body.length} of ${identity.body.length} bytes`,
          );
          assert.deepEqual(decode[encoding](answer.body), identity.body);
          assert.ok(typeof answer.headers.etag === 'string');
          etags.add(answer.headers.etag);
          // The same representation again: the same bytes (made once, kept with the answer).
          const again = await rawGet(port, path, { 'accept-encoding': encoding });
          assert.deepEqual(again.body, answer.body);
          assert.equal(again.headers.etag, answer.headers.etag);
        }
        assert.equal(etags.size, 3);
      });

      it(`${path}: a 304 for any encoding's ETag, with the ETag of the encoding asked for`, async () => {
        const { port } = server();
        const br = await rawGet(port, path, { 'accept-encoding': 'br' });
        const identity = await rawGet(port, path, {});
        for (const held of [br.headers.etag as string, identity.headers.etag as string]) {
          const asBr = await rawGet(port, path, { 'accept-encoding': 'br', 'if-none-match': held });
          assert.equal(asBr.status, 304);
          assert.equal(asBr.body.length, 0);
          assert.equal(asBr.headers.etag, br.headers.etag);
          assert.equal(asBr.headers.vary, 'Accept-Encoding');
          const plain = await rawGet(port, path, { 'if-none-match': held });
          assert.equal(plain.status, 304);
          assert.equal(plain.headers.etag, identity.headers.etag);
        }
        const stale = await rawGet(port, path, { 'accept-encoding': 'br', 'if-none-match': '"something-else"' });
        assert.equal(stale.status, 200);
      });
    }

    it('a small answer (under 1 KiB) is sent as it is, with the same Vary as the others', async () => {
      const answer = await rawGet(server().port, '/api/reviews/search?query=no-such-words-anywhere', {
        'accept-encoding': 'br, gzip',
      });
      assert.equal(answer.status, 200);
      assert.equal(answer.headers['content-encoding'], undefined);
      assert.equal(answer.headers.vary, 'Accept-Encoding');
    });

    it('encodings the client refuses (q=0) or does not name are not sent', async () => {
      const { port } = server();
      const answer = await rawGet(port, JSON_PATHS[0]!, { 'accept-encoding': 'br;q=0, gzip' });
      assert.equal(answer.headers['content-encoding'], 'gzip');
      const other = await rawGet(port, JSON_PATHS[0]!, { 'accept-encoding': 'deflate' });
      assert.equal(other.headers['content-encoding'], undefined);
    });
  });
}

describe('a review page rendered on request has validators and compression', () => {
  it('a strong ETag, Last-Modified, br/gzip and 304', async () => {
    const { port } = direct;
    const path = `/reviews/${reviewId}`;
    const identity = await rawGet(port, path, {});
    assert.equal(identity.status, 200);
    assert.match(String(identity.headers['content-type']), /^text\/html/);
    assert.equal(identity.headers.etag, sha256Etag(identity.body));
    const record = JSON.parse((await rawGet(port, `${path}.json`, {})).body.toString('utf8')) as { updated: string };
    assert.equal(identity.headers['last-modified'], new Date(record.updated).toUTCString());
    assert.equal(identity.headers.vary, 'Accept-Encoding');
    assert.match(String(identity.headers['cache-control']), /s-maxage=300/);

    const br = await rawGet(port, path, { 'accept-encoding': 'br, gzip' });
    assert.equal(br.headers['content-encoding'], 'br');
    assert.deepEqual(brotliDecompressSync(br.body), identity.body);
    assert.notEqual(br.headers.etag, identity.headers.etag);
    assert.equal(br.headers['x-content-type-options'], 'nosniff');

    const notModified = await rawGet(port, path, {
      'accept-encoding': 'br',
      'if-none-match': br.headers.etag as string,
    });
    assert.equal(notModified.status, 304);
    assert.equal(notModified.body.length, 0);
    assert.equal(notModified.headers.etag, br.headers.etag);
    const byDate = await rawGet(port, path, { 'if-modified-since': identity.headers['last-modified'] as string });
    assert.equal(byDate.status, 304);
    const changed = await rawGet(port, path, {
      'if-none-match': '"other"',
      'if-modified-since': identity.headers['last-modified'] as string,
    });
    assert.equal(changed.status, 200, 'If-None-Match wins over If-Modified-Since');
  });

  it('an unknown review is still the 404 page, without validators', async () => {
    const missing = await rawGet(direct.port, '/reviews/no-such-review', { 'accept-encoding': 'br' });
    assert.equal(missing.status, 404);
    assert.equal(missing.headers.etag, undefined);
  });
});

describe('answers kept by URL on the Node entry (a page, a search, a since page, a static and a rendered file)', () => {
  const withoutDate = (headers: Record<string, unknown>) => {
    const { date: _date, ...rest } = headers;
    return rest;
  };
  // Queries of their own: the first request below answers the long way, the next ones find it kept.
  const paths = () => [
    `/reviews/${reviewId}?from=kept-answers`,
    '/api/reviews/search?min_rating=2&limit=7',
    '/api/reviews/since/2024-02-02',
    '/feed.xml',
    `/reviews/${reviewId}.json`,
  ];

  it('answered again the same: the same headers and bytes in each encoding, a HEAD without the body, 304s', async () => {
    const { port } = direct;
    for (const path of paths()) {
      for (const acceptEncoding of ['br, gzip', 'gzip', '']) {
        const headers: Record<string, string> = acceptEncoding ? { 'accept-encoding': acceptEncoding } : {};
        const first = await rawGet(port, path, headers);
        assert.equal(first.status, 200, path);
        for (const method of ['GET', 'GET', 'HEAD']) {
          const again = await rawGet(port, path, headers, method);
          assert.equal(again.status, 200, `${method} ${path} ${acceptEncoding}`);
          assert.deepEqual(
            withoutDate(again.headers),
            withoutDate(first.headers),
            `${method} ${path} ${acceptEncoding}`,
          );
          assert.deepEqual(
            again.body,
            method === 'HEAD' ? Buffer.alloc(0) : first.body,
            `${method} ${path} ${acceptEncoding}`,
          );
        }
        const etag = first.headers.etag as string;
        const notModified = await rawGet(port, path, { ...headers, 'if-none-match': etag });
        assert.equal(notModified.status, 304, `${path} ${acceptEncoding}`);
        assert.equal(notModified.headers.etag, etag);
      }
    }
  });

  it('still refuses what it refused: another method, a Host that is no host, another spelling of the path', async () => {
    const { port } = direct;
    for (const path of paths()) {
      assert.equal((await rawGet(port, path, {})).status, 200, path);
      const post = await rawGet(port, path, {}, 'POST');
      assert.equal(post.status, 405, `POST ${path}`);
      const badHost = await rawGet(port, path, { host: 'a/b' });
      assert.equal(badHost.status, 400, `${path} with Host a/b`);
      const [pathname, query] = path.split('?');
      // Its first letter escaped (an unreserved character: the canonical spelling has it plain).
      const respelled = `/%${pathname!.charCodeAt(1).toString(16)}${pathname!.slice(2)}${query ? `?${query}` : ''}`;
      const redirect = await rawGet(port, respelled, {});
      assert.equal(redirect.status, 301, respelled);
      assert.equal(redirect.headers.location, path);
    }
  });
});

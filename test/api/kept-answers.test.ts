/**
 * What the servers keep between requests so a repeated request is a lookup
 * (src/lib/http/representation.ts, kept-answers.ts): a kept answer is compressed
 * once and its answers made once, a rendered page is kept by its URL when a
 * shared cache could keep it (and one rendered to other bytes never gets the old ETag),
 * and a kept compressed body holds memory of its own size, not zlib's whole
 * output buffer.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { strongEtag } from '../../src/lib/http/etag.ts';
import { createKeptAnswers, type KeptAnswers } from '../../src/lib/http/kept-answers.ts';
import { answerCached, cachedBody, fileAnswers } from '../../src/lib/http/representation.ts';
import { brotli, gzip } from '../../src/lib/static/compress.ts';

const accepting = (value: string | null, more: Record<string, string> = {}) => ({
  get: (name: string) => (name === 'accept-encoding' ? value : (more[name] ?? null)),
});
const json = (text: string) => new TextEncoder().encode(`${text}\n`);
const large = (seed: string) =>
  json(JSON.stringify({ reviews: Array.from({ length: 200 }, (_, i) => `${seed} ${i}`) }));

describe('a kept API answer', () => {
  it('is compressed once: the same answer, bytes and headers on every request for an encoding', () => {
    const kept = cachedBody(large('search'), '2026-01-01T00:00:00Z');
    const first = answerCached(accepting('br, gzip'), kept);
    const again = answerCached(accepting('br, gzip'), kept);
    assert.equal(first.status, 200);
    assert.equal(again, first);
    assert.equal(first.headers['content-encoding'], 'br');
    assert.deepEqual(brotliDecompressSync(first.body!), Buffer.from(kept.body));
    const gzipped = answerCached(accepting('gzip'), kept);
    assert.equal(gzipped.headers['content-encoding'], 'gzip');
    assert.deepEqual(gunzipSync(gzipped.body!), Buffer.from(kept.body));
    assert.equal(answerCached(accepting(null), kept), answerCached(accepting('identity'), kept));
  });

  it('holds compressed bytes in memory of their own size, not in the 64 KiB buffer zlib wrote them to', () => {
    const kept = cachedBody(large('small'), '2026-01-01T00:00:00Z');
    for (const encoding of ['br', 'gzip']) {
      const body = answerCached(accepting(encoding), kept).body!;
      assert.ok(body.byteLength < 4096, `${encoding}: a small body (${body.byteLength} bytes)`);
      assert.equal(body.buffer.byteLength, body.byteLength, `${encoding}: the memory it holds`);
    }
  });

  it('answers 304 to a tag of any encoding, with the tag of the encoding asked for', () => {
    const kept = cachedBody(large('conditional'), '2026-01-01T00:00:00Z');
    const brTag = `${kept.etag.slice(0, -1)}-br"`;
    const before = answerCached(accepting('br', { 'if-none-match': kept.etag }), kept);
    assert.equal(before.status, 304);
    assert.equal(before.headers.etag, brTag);
    answerCached(accepting('br'), kept);
    const after = answerCached(accepting('br', { 'if-none-match': brTag }), kept);
    assert.equal(after.status, 304);
    assert.deepEqual(after.headers, before.headers);
  });
});

describe('negotiation', () => {
  it('reads each Accept-Encoding value as written, however many values came before', () => {
    const kept = cachedBody(large('negotiation'), '2026-01-01T00:00:00Z');
    const encodingFor = (value: string) =>
      answerCached(accepting(value), kept).headers['content-encoding'] ?? 'identity';
    assert.equal(encodingFor('br, gzip'), 'br');
    assert.equal(encodingFor('br;q=0, gzip'), 'gzip');
    assert.equal(encodingFor('gzip;q=0, br;q=0'), 'identity');
    assert.equal(encodingFor('*'), 'br');
    assert.equal(encodingFor('*;q=0, gzip'), 'gzip');
    // More distinct values than are kept, and values too long to keep: each still read as written.
    for (let i = 0; i < 600; i++) assert.equal(encodingFor(`x-${i}, gzip`), 'gzip');
    assert.equal(encodingFor(`${'x-padding, '.repeat(40)}br;q=0, gzip`), 'gzip');
    assert.equal(encodingFor(`${'x-padding, '.repeat(40)}br`), 'br');
    assert.equal(encodingFor('br, gzip'), 'br');
  });
});

describe('a file answered many times', () => {
  const file = {
    contentType: 'application/json',
    etag: strongEtag(json('{}')),
    cacheControl: 'no-cache',
    lastModified: 'Thu, 01 Jan 2026 00:00:00 GMT',
    encodings: ['br', 'gzip'] as const,
  };

  it('gives the same answer object per encoding and status, with the headers put first in front', () => {
    const answers = fileAnswers(file, { 'x-first': '1' });
    const br = answers.answer(accepting('br, gzip'));
    assert.equal(answers.answer(accepting('br')), br);
    assert.equal(br.status, 200);
    assert.equal(Object.keys(br.headers)[0], 'x-first');
    assert.equal(br.headers['content-encoding'], 'br');
    assert.notEqual(answers.answer(accepting(null)), br);
    const notModified = answers.answer(accepting('br', { 'if-none-match': file.etag }));
    assert.equal(notModified.status, 304);
    assert.equal(notModified.headers['content-encoding'], undefined);
  });
});

describe('a page rendered on request', () => {
  const html = (text: string, headers: Record<string, string> = {}) => ({
    status: 200,
    headers: new Headers({ 'content-type': 'text/html', 'cache-control': 'public, max-age=60', ...headers }),
    body: large(text),
  });
  const keep = (pages: KeptAnswers, url: string, page: ReturnType<typeof html>, method = 'GET') =>
    pages.rendered(url, url.split('?')[0]!, page, page.body, method);

  it('is kept by its URL: answered again with the same answer, compressed once, 304 to any of its tags', () => {
    const pages = createKeptAnswers(1024 * 1024);
    const page = html('<p>page</p>');
    const first = keep(pages, '/reviews/a', page).answer(accepting('br, gzip'));
    const kept = pages.find('/reviews/a');
    assert.ok(kept);
    const again = kept.answer(accepting('br, gzip'));
    assert.equal(again, first);
    assert.deepEqual(brotliDecompressSync(again.body!), Buffer.from(page.body));
    assert.equal(again.body!.buffer.byteLength, again.body!.byteLength);
    assert.equal(again.headers['content-length'], String(again.body!.byteLength));
    assert.equal(again.headers['x-content-type-options'], 'nosniff');
    assert.equal(kept.answer(accepting(null)).headers.etag, strongEtag(page.body));
    const notModified = kept.answer(accepting('gzip', { 'if-none-match': first.headers.etag! }));
    assert.equal(notModified.status, 304);
    assert.equal(notModified.body, null);
    assert.equal(pages.find('/reviews/a?from=2'), undefined, 'another query string is another URL');
  });

  it('rendered to other bytes at the same URL: the ETag and body of the new bytes', () => {
    const pages = createKeptAnswers(1024 * 1024);
    const before = html('<p>before</p>');
    const after = html('<p>after!</p>');
    assert.equal(before.body.byteLength, after.body.byteLength);
    keep(pages, '/reviews/b', before).answer(accepting('br'));
    const answer = keep(pages, '/reviews/b', after).answer(accepting('br'));
    assert.equal(answer.headers.etag, `${strongEtag(after.body).slice(0, -1)}-br"`);
    assert.deepEqual(brotliDecompressSync(answer.body!), Buffer.from(after.body));
    assert.equal(pages.find('/reviews/b')!.answer(accepting(null)).headers.etag, strongEtag(after.body));
  });

  it('is kept only as a shared cache could keep it: public, for GET, without a cookie or a Vary on more', () => {
    const pages = createKeptAnswers(1024 * 1024);
    const refused: Array<[string, ReturnType<typeof html>, string?]> = [
      ['/private', html('x', { 'cache-control': 'private, max-age=60' })],
      ['/no-store', html('x', { 'cache-control': 'no-store' })],
      ['/no-policy', html('x', { 'cache-control': '' })],
      ['/cookie', html('x', { 'set-cookie': 'a=b' })],
      ['/vary', html('x', { vary: 'Accept-Encoding, Cookie' })],
      ['/head', html('x'), 'HEAD'],
    ];
    for (const [url, page, method] of refused) {
      const answer = keep(pages, url, page, method).answer(accepting(null));
      assert.equal(answer.status, 200, url);
      assert.equal(answer.headers.etag, strongEtag(page.body), url);
      assert.equal(pages.find(url), undefined, url);
    }
    keep(pages, '/vary-encoding', html('x', { vary: 'accept-encoding' }));
    assert.ok(pages.find('/vary-encoding'));
  });

  it('holds at most its bytes: the pages used least recently leave first', () => {
    const pages = createKeptAnswers(64 * 1024);
    for (let i = 0; i < 40; i++) keep(pages, `/reviews/${i}`, html(`<p>${i}</p>`)).answer(accepting('br, gzip'));
    const held = Array.from({ length: 40 }, (_, i) => pages.find(`/reviews/${i}`) !== undefined);
    assert.ok(held.at(-1), 'the newest is kept');
    assert.ok(!held[0], 'the oldest has left');
    assert.ok(held.filter(Boolean).length < 40);
  });
});

describe('an API answer kept by URL', () => {
  const security = { 'x-content-type-options': 'nosniff' };

  it("is the API's own kept body: its answers with the security headers in front, made once", () => {
    const answers = createKeptAnswers(1024 * 1024);
    const body = cachedBody(large('kept-search'), '2026-01-01T00:00:00Z');
    const first = answerCached(accepting('br'), body);
    assert.equal(first.resource, body.resource);
    answers.keep('/api/reviews/search?rating=5', first.resource!, security);
    const kept = answers.find('/api/reviews/search?rating=5')!;
    const br = kept.answer(accepting('br, gzip'));
    assert.equal(kept.answer(accepting('br, gzip')), br, 'the same answer object again');
    assert.deepEqual(Object.keys(br.headers).slice(0, 1), ['x-content-type-options']);
    assert.deepEqual(
      { ...br.headers, 'x-content-type-options': undefined },
      {
        ...first.headers,
        'x-content-type-options': undefined,
      },
    );
    assert.equal(br.body, first.body, "the bytes are the answer cache's, not a copy");
    const notModified = kept.answer(accepting('br', { 'if-none-match': body.etag }));
    assert.equal(notModified.status, 304);
    assert.equal(notModified.headers['x-content-type-options'], 'nosniff');
  });

  it('is counted at three times its body, so a budget holds fewer of them than of their bodies', () => {
    const answers = createKeptAnswers(64 * 1024);
    const bodies = Array.from({ length: 20 }, (_, i) => cachedBody(large(`kept-${i}`), '2026-01-01T00:00:00Z'));
    bodies.forEach((body, i) => answers.keep(`/api/reviews/search?i=${i}`, body.resource, security));
    const held = bodies.filter((_, i) => answers.find(`/api/reviews/search?i=${i}`) !== undefined).length;
    const bodyBytes = bodies[0]!.body.byteLength;
    assert.ok(held > 0 && held <= Math.floor((64 * 1024) / (3 * bodyBytes)), `${held} held of ${bodyBytes} bytes each`);
  });
});

describe('files compressed on request', () => {
  it('hold memory of their own size', () => {
    const bytes = large('feed');
    for (const compressed of [brotli('/api/feed.json', bytes), gzip(bytes)]) {
      assert.ok(compressed.byteLength < 4096);
      assert.equal(compressed.buffer.byteLength, compressed.byteLength);
    }
  });
});

/**
 * What the servers keep between requests so a repeated request is a lookup
 * (src/lib/http/representation.ts): a kept answer is compressed once and its
 * answers made once, a page rendered again to the same bytes is not hashed or
 * compressed again (and one rendered to other bytes never gets the old ETag),
 * and a kept compressed body holds memory of its own size, not zlib's whole
 * output buffer.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { strongEtag } from '../../src/lib/http/etag.ts';
import { answerCached, answerPage, cachedBody, fileAnswers } from '../../src/lib/http/representation.ts';
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
  it('rendered again to the same bytes: the same ETag and the compressed body made once', () => {
    const page = large('<p>page</p>');
    const first = answerPage('/reviews/a', page, undefined, accepting('br, gzip'));
    const again = answerPage('/reviews/a', new Uint8Array(page), undefined, accepting('br, gzip'));
    assert.equal(again.headers.etag, first.headers.etag);
    assert.equal(again.body, first.body);
    assert.deepEqual(brotliDecompressSync(again.body!), Buffer.from(page));
    assert.equal(again.body!.buffer.byteLength, again.body!.byteLength);
  });

  it('rendered to other bytes at the same URL: the ETag and body of the new bytes', () => {
    const before = large('<p>before</p>');
    const after = large('<p>after!</p>');
    assert.equal(before.byteLength, after.byteLength);
    answerPage('/reviews/b', before, undefined, accepting('br'));
    const answer = answerPage('/reviews/b', after, undefined, accepting('br'));
    assert.equal(answer.headers.etag, `${strongEtag(after).slice(0, -1)}-br"`);
    assert.deepEqual(brotliDecompressSync(answer.body!), Buffer.from(after));
    const identity = answerPage('/reviews/b', after, undefined, accepting(null));
    assert.equal(identity.headers.etag, strongEtag(after));
    assert.equal(answerPage('/reviews/b', before, undefined, accepting(null)).headers.etag, strongEtag(before));
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

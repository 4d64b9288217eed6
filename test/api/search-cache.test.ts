/**
 * The search cache's byte budget holds whatever spellings a client sends
 * (issue 14 item 1): valid queries padded to ~15 KB, and thousands of short
 * spellings of one answer. In process over the content build's dataset (the
 * cache is not an HTTP surface), then over real HTTP: padded and plain
 * spellings get one answer, one ETag.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { after, before, describe, it } from 'node:test';
import {
  BODY_CACHE_BYTES,
  BodyCache,
  MAX_ALIAS_KEY_LENGTH,
  MAX_KEPT_BODY_BYTES,
} from '../../src/lib/api/answer-cache.ts';
import { cachedBody } from '../../src/lib/http/representation.ts';
import type { ApiContext } from '../../src/lib/api/context.ts';
import { cacheFor, searchEndpoint } from '../../src/lib/api/reviews-endpoints.ts';
import { BUILDS } from '../helpers/builds.ts';
import { conditional } from '../helpers/http.ts';
import { startServer, type RunningServer } from '../helpers/server.ts';

/** 15,000 empty `&` pairs, then `limit=5`: a ~15 KB spelling of limit=5 (integer values admit no padding). */
const PADDED_LIMIT = `${'&'.repeat(15000)}limit=5`;

/** A fresh dataset object, so each test has a cache of its own. */
function freshContext(): ApiContext {
  const dataset = JSON.parse(readFileSync(resolve(BUILDS.content.outDir, 'client/reviews.json'), 'utf8'));
  return { site: 'https://example.test', dataset };
}

function searchInProcess(context: ApiContext, search: string) {
  const headers = { get: () => null };
  return searchEndpoint({ method: 'GET', path: '/api/reviews/search', search, headers }, context);
}

/** What the keys alone hold (2 bytes a character), counted here rather than trusting the cache's own count. */
function keyBytes(context: ApiContext): number {
  let bytes = 0;
  for (const key of cacheFor(context).keys()) bytes += key.length * 2;
  return bytes;
}

describe('search cache budget, in process', () => {
  it('padded queries with distinct text stay within the byte budget, keys included', () => {
    const context = freshContext();
    // 1,500 × 15 KB of keys alone is 2 × 22 MB: past the 32 MiB budget if raw keys were kept.
    for (let i = 0; i < 1500; i++) {
      const answer = searchInProcess(context, `?${PADDED_LIMIT}&query=q${i.toString(36)}x`);
      assert.equal(answer.status, 200);
    }
    const cache = cacheFor(context);
    assert.ok(cache.bytes <= BODY_CACHE_BYTES, `cache counts ${cache.bytes} bytes`);
    assert.ok(keyBytes(context) <= BODY_CACHE_BYTES / 4, `keys hold ${keyBytes(context)} bytes`);
    for (const key of cache.keys())
      assert.ok(key.length <= MAX_ALIAS_KEY_LENGTH, `a ${key.length}-character key is kept`);
  });

  it('thousands of short spellings of one query keep one body and stay within the budget', () => {
    const context = freshContext();
    // 17,000 aliases of ~2.2 KB each by the cache's count: past the budget, so some must be evicted.
    const spellings = 17_000;
    for (let i = 0; i < spellings; i++) {
      // Up to ~2 KB each: below the alias cap, so each is kept as an alias of the one canonical body.
      const before = '&'.repeat(3 * (i % 660));
      const after = '&'.repeat(3 * Math.floor(i / 660));
      const search = i % 2 === 0 ? `?${before}limit=5${after}&query=roof` : `?query=roof${before}&limit=5${after}`;
      assert.equal(searchInProcess(context, search).status, 200);
    }
    const cache = cacheFor(context);
    const bodies = [...cache.keys()].filter((key) => key.startsWith('search:'));
    assert.equal(bodies.length, 1, 'one canonical body');
    assert.ok([...cache.keys()].length < spellings, 'the oldest spellings were evicted');
    assert.ok(cache.bytes <= BODY_CACHE_BYTES, `cache counts ${cache.bytes} bytes`);
    assert.ok(keyBytes(context) <= BODY_CACHE_BYTES, `keys hold ${keyBytes(context)} bytes`);
  });
});

describe('answers too large to keep', () => {
  it('a since page of 1,000 records (~570 KB at 100k reviews) is made again, not kept; a full search answer is kept', () => {
    // Kept, a walk's large pages replaced thousands of small answers and left their memory scattered (docs/performance.md).
    const cache = new BodyCache();
    const large = cachedBody(new Uint8Array(MAX_KEPT_BODY_BYTES + 1), '2026-01-01T00:00:00Z');
    const small = cachedBody(new Uint8Array(64 * 1024), '2026-01-01T00:00:00Z');
    cache.set('since:1970-01-01', large);
    cache.set('search:[]', small);
    assert.ok(cache.get('since:1970-01-01') === undefined, 'the large answer is kept');
    assert.ok(cache.get('search:[]') === small, 'the search answer is not kept');
    assert.ok(MAX_KEPT_BODY_BYTES < 570_000);
  });
});

describe('search cache over HTTP', () => {
  let server: RunningServer;
  before(async () => {
    server = await startServer('content');
  });
  after(() => server?.stop());

  it('padded and plain spellings of a query answer the same body and ETag, and a 304 to that ETag', async () => {
    const spellings = [
      'limit=5&query=roof',
      'query=roof&limit=5',
      `query=roof${'&'.repeat(300)}&limit=5`,
      `${PADDED_LIMIT}&query=roof`,
    ];
    const answers = [];
    for (const search of [...spellings, ...spellings]) {
      const response = await fetch(`${server.url}/api/reviews/search?${search}`);
      assert.equal(response.status, 200, search.slice(0, 40));
      answers.push({ etag: response.headers.get('etag'), body: await response.text() });
    }
    for (const answer of answers) assert.deepEqual(answer, answers[0]);
    const revalidated = await fetch(`${server.url}/api/reviews/search?${PADDED_LIMIT}&query=roof`, {
      headers: conditional({ 'if-none-match': answers[0]!.etag! }),
    });
    assert.equal(revalidated.status, 304);
  });
});

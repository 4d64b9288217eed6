/**
 * Property-based checks of search against the real server: for random valid
 * parameter sets the answer equals a naive filter over reviews.json, and random
 * query strings (valid or not) never produce a 5xx.
 */
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import fc from 'fast-check';
import { startServer, type RunningServer } from '../helpers/server.ts';
import type { Review } from '../helpers/types.ts';

let server: RunningServer;
let reviews: Review[];
let business: { technicians: Array<{ id: string; name: string }>; services: Array<{ id: string }> };

before(async () => {
  // Hundreds of new queries a second from one address: the per-client limit on them is tested in test/reliability/search-flood.test.ts.
  server = await startServer('content', { SEARCH_MISS_RATE_LIMIT: 'off' });
  const dataset = await (await fetch(`${server.url}/reviews.json`)).json();
  reviews = dataset.reviews;
  business = dataset.business;
});
after(() => server?.stop());

const fold = (s: string) => s.normalize('NFKC').toLowerCase();

/** docs/contract.md's search, read literally, with no index. */
function naive(params: Record<string, string | number>): { total: number; ids: string[] } {
  const technician =
    params.mentions_technician === undefined ? undefined : String(params.mentions_technician).toLowerCase();
  const known = business.technicians.find((t) => t.name.toLowerCase() === technician || t.id === technician);
  const matching = reviews.filter((r) => {
    if (params.rating !== undefined && r.rating !== Number(params.rating)) return false;
    if (params.min_rating !== undefined && r.rating < Number(params.min_rating)) return false;
    if (params.since !== undefined && r.date < String(params.since)) return false;
    if (params.until !== undefined && r.date > String(params.until)) return false;
    if (params.query !== undefined && !fold(`${r.title ?? ''}\n${r.text}`).includes(fold(String(params.query))))
      return false;
    if (technician !== undefined && (!known || !r.technicians.includes(known.name))) return false;
    if (params.mentions_service !== undefined && !r.services.includes(String(params.mentions_service))) return false;
    return true;
  });
  const limit = params.limit === undefined ? 20 : Number(params.limit);
  return { total: matching.length, ids: matching.slice(0, limit).map((r) => r.id) };
}

const day = fc
  .date({ min: new Date('2021-06-01T00:00:00Z'), max: new Date('2027-01-01T00:00:00Z'), noInvalidDate: true })
  .map((d) => d.toISOString().slice(0, 10));

it('search equals a naive filter over reviews.json for random parameter sets', async () => {
  const words = [
    'roof',
    'leak',
    'gutter',
    'crew',
    'Dave',
    'clean',
    'the',
    'estimate',
    'ÉTÉ',
    'nails',
    'x',
    'the roof',
    'Roof. ',
    ' — ',
    'e, t',
  ];
  const params = fc
    .record(
      {
        rating: fc.integer({ min: 1, max: 5 }),
        min_rating: fc.oneof(
          fc.integer({ min: 1, max: 5 }),
          fc.double({ min: 1, max: 5, noNaN: true }).map((n) => Math.round(n * 10) / 10),
        ),
        since: day,
        until: day,
        query: fc.constantFrom(...words),
        mentions_technician: fc.constantFrom('Dave Kowalski', 'maria-santos', 'TOMMY NGUYEN', 'Nobody'),
        mentions_service: fc.constantFrom('gutters', 'roof-repair', 'roof-replacement', 'skylights', 'nope'),
        limit: fc.integer({ min: 1, max: 100 }),
      },
      { requiredKeys: [] },
    )
    .filter(
      (p) =>
        (p.since === undefined || p.until === undefined || p.since <= p.until) &&
        (p.rating === undefined || p.min_rating === undefined || p.rating >= p.min_rating),
    );
  await fc.assert(
    fc.asyncProperty(params, async (p) => {
      const query = new URLSearchParams(Object.entries(p).map(([k, v]) => [k, String(v)]));
      const response = await fetch(`${server.url}/api/reviews/search?${query}`);
      const body = await response.json();
      assert.equal(response.status, 200, JSON.stringify(body));
      const expected = naive(p);
      assert.equal(body.total, expected.total);
      assert.deepEqual(
        body.reviews.map((r: Review) => r.id),
        expected.ids,
      );
    }),
    { numRuns: 150, seed: 20261122 },
  );
});

it('random query strings never give a 5xx', async () => {
  const names = [
    'rating',
    'min_rating',
    'since',
    'until',
    'query',
    'mentions_technician',
    'mentions_service',
    'limit',
    'x',
    '',
    'rating[]',
    '__proto__',
    'constructor',
  ];
  const pair = fc.tuple(
    fc.oneof(fc.constantFrom(...names), fc.string()),
    fc.oneof(
      fc.string(),
      fc.string({ unit: 'binary' }),
      fc.constantFrom('1', '5', '0', '-1', '1e3', '2025-02-29', '2024-02-29', '%', '%zz', '\u0000'),
    ),
  );
  await fc.assert(
    fc.asyncProperty(fc.array(pair, { maxLength: 6 }), async (pairs) => {
      const query = pairs.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&');
      const response = await fetch(`${server.url}/api/reviews/search?${query}`);
      const text = await response.text();
      assert.ok(
        response.status === 200 || response.status === 400,
        `${response.status} for ?${query}: ${text.slice(0, 200)}`,
      );
      JSON.parse(text);
    }),
    { numRuns: 300, seed: 42 },
  );
  for (const raw of ['%', '%E0%A4%A', 'rating=%FF', '&&&', '=', 'a=1&a', `query=${'%41'.repeat(5000)}`]) {
    const response = await fetch(`${server.url}/api/reviews/search?${raw}`);
    assert.ok(response.status < 500, `${response.status} for ?${raw.slice(0, 30)}`);
    await response.arrayBuffer();
  }
});

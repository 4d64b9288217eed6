/**
 * GET /api/reviews/search over real HTTP against the built server: every
 * parameter's valid and invalid forms, each filter alone and combined,
 * ordering, limits, total vs count, and the 400 shape.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startServer, type RunningServer } from '../helpers/server.ts';
import type { Review } from '../helpers/types.ts';

let server: RunningServer;
let reviews: Review[];
let technicians: Array<{ id: string; name: string }>;

before(async () => {
  server = await startServer('content');
  const dataset = await (await fetch(`${server.url}/reviews.json`)).json();
  reviews = dataset.reviews;
  technicians = dataset.business.technicians;
});
after(() => server?.stop());

async function search(query: string) {
  const response = await fetch(`${server.url}/api/reviews/search${query ? `?${query}` : ''}`);
  return { response, body: await response.json() };
}

function newestFirst(list: Review[]): boolean {
  return list.every(
    (r, i) => i === 0 || list[i - 1]!.date > r.date || (list[i - 1]!.date === r.date && list[i - 1]!.id < r.id),
  );
}

describe('search: valid parameters', () => {
  it('with no parameters returns the 20 newest of all, total counting every review', async () => {
    const { response, body } = await search('');
    assert.equal(response.status, 200);
    assert.equal(response.headers.get('content-type'), 'application/json; charset=utf-8');
    assert.deepEqual(Object.keys(body), ['total', 'count', 'limit', 'reviews']);
    assert.equal(body.total, reviews.length);
    assert.equal(body.limit, 20);
    assert.equal(body.count, 20);
    assert.deepEqual(body.reviews, reviews.slice(0, 20), 'the same records, newest first, as reviews.json');
  });

  const filters: Array<[string, (r: Review) => boolean]> = [
    ['rating=1', (r) => r.rating === 1],
    ['rating=5', (r) => r.rating === 5],
    ['min_rating=4', (r) => r.rating >= 4],
    ['min_rating=2.5', (r) => r.rating >= 2.5],
    ['since=2025-01-01', (r) => r.date >= '2025-01-01'],
    ['until=2023-12-31', (r) => r.date <= '2023-12-31'],
    ['since=2024-03-01&until=2024-03-31', (r) => r.date >= '2024-03-01' && r.date <= '2024-03-31'],
    ['query=leak', (r) => `${r.title ?? ''}\n${r.text}`.toLowerCase().includes('leak')],
    ['query=LEAK', (r) => `${r.title ?? ''}\n${r.text}`.toLowerCase().includes('leak')],
    ['mentions_service=gutters', (r) => r.services.includes('gutters')],
    ['mentions_technician=Dave%20Kowalski', (r) => r.technicians.includes('Dave Kowalski')],
    ['mentions_technician=dave-kowalski', (r) => r.technicians.includes('Dave Kowalski')],
    ['mentions_technician=DAVE%20KOWALSKI', (r) => r.technicians.includes('Dave Kowalski')],
    ['mentions_technician=Nobody%20Known', () => false],
    ['mentions_service=no-such-service', () => false],
    [
      'min_rating=4&mentions_service=gutters&since=2023-01-01',
      (r) => r.rating >= 4 && r.services.includes('gutters') && r.date >= '2023-01-01',
    ],
    [
      'rating=5&mentions_technician=maria-santos&query=the',
      (r) =>
        r.rating === 5 &&
        r.technicians.includes('Maria Santos') &&
        `${r.title ?? ''}\n${r.text}`.toLowerCase().includes('the'),
    ],
    ['rating=3&min_rating=3', (r) => r.rating === 3],
  ];
  for (const [query, predicate] of filters) {
    it(`${query}: exactly the matching reviews, newest first`, async () => {
      const expected = reviews.filter(predicate);
      const { response, body } = await search(`${query}&limit=100`);
      assert.equal(response.status, 200, JSON.stringify(body));
      assert.equal(body.total, expected.length);
      assert.equal(body.count, Math.min(100, expected.length));
      assert.deepEqual(
        body.reviews.map((r: Review) => r.id),
        expected.slice(0, 100).map((r) => r.id),
      );
      assert.ok(newestFirst(body.reviews));
    });
  }

  it('the sample content makes the filters meaningful (every case above matches something but the unknown ones)', () => {
    assert.ok(reviews.length >= 150);
    for (const [query, predicate] of filters) {
      if (!/Nobody|no-such/.test(query)) assert.ok(reviews.some(predicate), `${query} matches some review`);
    }
  });

  it('limit bounds count but not total; limit=1 and limit=100 are accepted', async () => {
    for (const limit of [1, 7, 100]) {
      const { body } = await search(`limit=${limit}`);
      assert.equal(body.limit, limit);
      assert.equal(body.count, Math.min(limit, reviews.length));
      assert.equal(body.total, reviews.length);
    }
  });

  it('query matches the title too, and is Unicode-normalised (NFKC) and case-insensitive', async () => {
    const titled = reviews.find((r) => r.title && r.title.length > 6)!;
    const fragment = titled.title!.slice(0, 6).toUpperCase();
    const { body } = await search(`query=${encodeURIComponent(fragment)}&limit=100`);
    assert.ok(body.reviews.some((r: Review) => r.id === titled.id));
    // A full-width "ＲＯＯＦ" folds to "roof" under NFKC.
    const plain = await search('query=roof&limit=100');
    const wide = await search(`query=${encodeURIComponent('ＲＯＯＦ')}&limit=100`);
    assert.equal(wide.body.total, plain.body.total);
    assert.ok(plain.body.total > 0);
  });

  it('parameter order does not change the answer or its ETag', async () => {
    const a = await fetch(`${server.url}/api/reviews/search?rating=5&limit=3`);
    const b = await fetch(`${server.url}/api/reviews/search?limit=3&rating=5`);
    assert.equal(a.headers.get('etag'), b.headers.get('etag'));
    assert.deepEqual(await a.json(), await b.json());
  });
});

describe('search: invalid parameters are a 400 that names the parameter', () => {
  const invalid: Array<[string, string]> = [
    ['rating=0', 'rating'],
    ['rating=6', 'rating'],
    ['rating=4.5', 'rating'],
    ['rating=five', 'rating'],
    ['rating=', 'rating'],
    ['rating=1&rating=2', 'rating'],
    ['min_rating=0.5', 'min_rating'],
    ['min_rating=5.5', 'min_rating'],
    ['min_rating=abc', 'min_rating'],
    ['min_rating=NaN', 'min_rating'],
    ['min_rating=Infinity', 'min_rating'],
    ['since=2025-02-30', 'since'],
    ['since=2025-13-01', 'since'],
    ['since=25-01-01', 'since'],
    ['since=2025-1-1', 'since'],
    ['since=yesterday', 'since'],
    ['until=2025-02-29', 'until'],
    ['since=2025-06-01&until=2025-05-01', 'since'],
    ['rating=2&min_rating=4', 'rating'],
    [`query=${'x'.repeat(201)}`, 'query'],
    ['query=', 'query'],
    ['mentions_technician=', 'mentions_technician'],
    ['mentions_service=', 'mentions_service'],
    ['limit=0', 'limit'],
    ['limit=101', 'limit'],
    ['limit=-1', 'limit'],
    ['limit=2.5', 'limit'],
    ['limit=ten', 'limit'],
    ['limit=1e400', 'limit'],
    // Only plain decimal literals become numbers: what Number() would also take is refused.
    ['rating=1e0', 'rating'],
    ['rating=1.0', 'rating'],
    ['rating=%2B1', 'rating'],
    ['rating=0x1', 'rating'],
    ['rating=%201', 'rating'],
    ['rating=1%20', 'rating'],
    ['rating=0b1', 'rating'],
    ['limit=1e1', 'limit'],
    ['limit=10.0', 'limit'],
    ['min_rating=4e0', 'min_rating'],
    ['min_rating=%2B4', 'min_rating'],
    ['min_rating=.5', 'min_rating'],
    ['min_rating=4.', 'min_rating'],
    ['min_rating=0x4', 'min_rating'],
    ['colour=red', 'colour'],
    ['Rating=5', 'Rating'],
    ['limit=5&limit=5', 'limit'],
  ];
  for (const [query, parameter] of invalid) {
    it(`${query.slice(0, 40)} → 400 naming ${parameter}`, async () => {
      const { response, body } = await search(query);
      assert.equal(response.status, 400);
      assert.equal(response.headers.get('content-type'), 'application/json; charset=utf-8');
      assert.equal(body.error, 'invalid_request');
      assert.ok(Array.isArray(body.issues) && body.issues.length > 0);
      for (const issue of body.issues) {
        assert.equal(typeof issue.code, 'string');
        assert.ok(Array.isArray(issue.path));
        assert.equal(typeof issue.message, 'string');
      }
      assert.ok(
        body.issues.some((issue: { path: string[] }) => issue.path[0] === parameter),
        JSON.stringify(body.issues),
      );
      assert.doesNotMatch(JSON.stringify(body), /at .*\.ts:\d+/, 'no stack trace');
    });
  }

  it('reports every problem at once', async () => {
    const { body } = await search('rating=9&colour=red&limit=0&since=2025-02-30');
    const named = body.issues.map((issue: { path: string[] }) => issue.path[0]).sort();
    assert.deepEqual(named, ['colour', 'limit', 'rating', 'since']);
  });

  it('an Authorization header changes nothing', async () => {
    const plain = await fetch(`${server.url}/api/reviews/search?rating=5`);
    const withAuth = await fetch(`${server.url}/api/reviews/search?rating=5`, {
      headers: { authorization: 'Bearer nonsense' },
    });
    assert.equal(withAuth.status, 200);
    assert.equal(withAuth.headers.get('etag'), plain.headers.get('etag'));
    await Promise.all([plain.arrayBuffer(), withAuth.arrayBuffer()]);
  });
});

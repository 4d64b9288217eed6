/** GET /api/reviews/since/{date}: the incremental-sync listing, oldest first (paging at scale: since-pages.test.ts). */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startServer, type RunningServer } from '../helpers/server.ts';

let server: RunningServer;
let reviews: Array<{ id: string; date: string }>;

before(async () => {
  server = await startServer('content');
  reviews = (await (await fetch(`${server.url}/reviews.json`)).json()).reviews;
});
after(() => server?.stop());

describe('since', () => {
  for (const date of ['2025-01-01', '2024-02-29', '2000-01-01', '2099-12-31']) {
    it(`${date}: every review on or after the date, oldest first`, async () => {
      const response = await fetch(`${server.url}/api/reviews/since/${date}`);
      assert.equal(response.status, 200);
      const body = await response.json();
      assert.deepEqual(Object.keys(body), ['since', 'count', 'has_more', 'next', 'next_date', 'reviews']);
      assert.equal(body.since, date);
      // The sample content fits one page: the last page says so.
      assert.equal(body.has_more, false);
      assert.equal(body.next, null);
      assert.equal(body.next_date, null);
      const expected = reviews
        .filter((r) => r.date >= date)
        .sort((a, b) => (a.date !== b.date ? (a.date < b.date ? -1 : 1) : a.id < b.id ? -1 : 1));
      assert.equal(body.count, expected.length);
      assert.deepEqual(
        body.reviews.map((r: { id: string }) => r.id),
        expected.map((r) => r.id),
      );
    });
  }

  it('includes reviews dated exactly on the date', async () => {
    const date = reviews[Math.floor(reviews.length / 2)]!.date;
    const body = await (await fetch(`${server.url}/api/reviews/since/${date}`)).json();
    assert.equal(body.reviews[0].date, date);
  });

  for (const bad of [
    '2025-02-30',
    '2025-13-01',
    'yesterday',
    '2025-1-1',
    '20250101',
    '%ZZ',
    '2025-01-01T00:00:00Z',
    '%20',
  ]) {
    it(`a malformed date ${JSON.stringify(bad)} is a 400 naming date`, async () => {
      const response = await fetch(`${server.url}/api/reviews/since/${bad}`);
      assert.equal(response.status, 400);
      const body = await response.json();
      assert.equal(body.error, 'invalid_request');
      assert.deepEqual(body.issues[0].path, ['date']);
    });
  }

  it('takes no query parameters', async () => {
    const response = await fetch(`${server.url}/api/reviews/since/2025-01-01?limit=5`);
    assert.equal(response.status, 400);
    assert.deepEqual((await response.json()).issues[0].path, ['limit']);
  });

  it('an empty listing still has validators, from the dataset', async () => {
    const response = await fetch(`${server.url}/api/reviews/since/2099-12-31`);
    const dataset = await (await fetch(`${server.url}/reviews.json`)).json();
    assert.equal(response.headers.get('last-modified'), new Date(dataset.updated).toUTCString());
    assert.ok(response.headers.get('etag'));
    await response.arrayBuffer();
  });
});

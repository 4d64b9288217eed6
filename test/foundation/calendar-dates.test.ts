/**
 * Calendar dates in every year the format allows: years 0001–0099 are real
 * dates (Date.UTC would read them as 1900–1999), and impossible days are not.
 */
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { isRealCalendarDate } from '../../src/lib/reviews/schema.ts';
import { startServer, type RunningServer } from '../helpers/server.ts';

let server: RunningServer;
before(async () => (server = await startServer('small')));
after(() => server?.stop());

it('tells real calendar dates from impossible ones, early years included', () => {
  const cases: Array<[string, boolean]> = [
    ['0001-01-01', true],
    ['0004-02-29', true],
    ['0099-12-31', true],
    ['0100-02-29', false],
    ['0096-02-29', true],
    ['1900-02-29', false],
    ['2000-02-29', true],
    ['2025-02-29', false],
    ['2025-02-30', false],
    ['2025-13-01', false],
    ['0000-01-01', false],
    ['9999-12-31', true],
  ];
  for (const [date, real] of cases) assert.equal(isRealCalendarDate(date), real, date);
});

it('since/0001-01-01 is every review, oldest first; since/0099-02-29 is a 400 naming the date', async () => {
  const all = await (await fetch(`${server.url}/reviews.json`)).json();
  const response = await fetch(`${server.url}/api/reviews/since/0001-01-01`);
  assert.equal(response.status, 200);
  const body = await response.json();
  assert.equal(body.since, '0001-01-01');
  assert.equal(body.reviews.length, all.reviews.length);
  const bad = await fetch(`${server.url}/api/reviews/since/0099-02-29`);
  assert.equal(bad.status, 400);
  assert.match(JSON.stringify(await bad.json()), /not a real calendar date/);
});

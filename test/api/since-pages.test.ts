/**
 * GET /api/reviews/since/{date} at 10,000 reviews: bounded pages, walked by
 * following `next`, give every review exactly once, oldest first; every page
 * answers conditional requests. The paging rule itself (whole days; a day
 * larger than a page is a page of its own) is also walked in-process over the
 * same build's reviews.json with small page sizes, which the generated days
 * (up to a dozen reviews each) then overflow.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { getReviewIndex } from '../../src/lib/reviews/review-index.ts';
import type { ReviewsDataset } from '../../src/lib/reviews/schema.ts';
import { SINCE_PAGE_SIZE } from '../../src/lib/reviews/query.ts';
import { reviewsSince } from '../../src/lib/reviews/since.ts';
import { BUILDS } from '../helpers/builds.ts';
import { startServer, type RunningServer } from '../helpers/server.ts';

interface Page {
  since: string;
  count: number;
  has_more: boolean;
  next: string | null;
  next_date: string | null;
  reviews: Array<{ id: string; date: string; updated: string }>;
}

const SERVERLESS_LIMIT = 4.5 * 1024 * 1024;

let server: RunningServer;
let dataset: ReviewsDataset;

before(async () => {
  server = await startServer('large');
  dataset = JSON.parse(readFileSync(resolve(BUILDS.large.outDir, 'client/reviews.json'), 'utf8')) as ReviewsDataset;
  assert.equal(dataset.reviews.length, 10_000);
});
after(() => server?.stop());

const oldestFirst = (a: { date: string; id: string }, b: { date: string; id: string }) =>
  a.date !== b.date ? (a.date < b.date ? -1 : 1) : a.id < b.id ? -1 : a.id > b.id ? 1 : 0;

/** Follows `next` from since/{date} to the last page, checking each page on the way. */
async function walk(date: string): Promise<{ pages: Page[]; ids: string[] }> {
  const pages: Page[] = [];
  let url: string | null = new URL(`/api/reviews/since/${date}`, server.url).href;
  while (url) {
    const response: Response = await fetch(url);
    assert.equal(response.status, 200, url);
    const bytes = new Uint8Array(await response.arrayBuffer());
    assert.ok(bytes.byteLength < SERVERLESS_LIMIT, `${url}: ${bytes.byteLength} bytes`);
    const text = new TextDecoder().decode(bytes);
    const page = JSON.parse(text) as Page;
    assert.equal(text, `${JSON.stringify(page)}\n`, 'compact JSON, as every body');
    assert.equal(page.count, page.reviews.length);
    assert.equal(page.has_more, page.next !== null);
    assert.equal(page.next, page.next_date === null ? null : `/api/reviews/since/${page.next_date}`);
    await assertConditional(url, response.headers);
    pages.push(page);
    url = page.next === null ? null : new URL(page.next, url).href;
    assert.ok(pages.length <= 100, 'the walk ends');
  }
  return { pages, ids: pages.flatMap((page) => page.reviews.map((review) => review.id)) };
}

/** The page's validators answer 304, with no body and the same validators, and Last-Modified covers every later review. */
async function assertConditional(url: string, headers: Headers) {
  const etag = headers.get('etag');
  const lastModified = headers.get('last-modified');
  assert.ok(etag && lastModified, url);
  const date = decodeURIComponent(new URL(url).pathname.split('/').pop()!);
  const newest = dataset.reviews
    .filter((review) => review.date >= date)
    .reduce((max, review) => (review.updated > max ? review.updated : max), '');
  assert.equal(lastModified, new Date(newest || dataset.updated).toUTCString(), `${url}: Last-Modified`);
  const conditionals: Record<string, string>[] = [{ 'if-none-match': etag }, { 'if-modified-since': lastModified }];
  for (const conditional of conditionals) {
    const again = await fetch(url, { headers: conditional });
    assert.equal(again.status, 304, `${url} with ${JSON.stringify(conditional)}`);
    assert.equal(again.headers.get('etag'), etag);
    assert.equal(await again.text(), '');
  }
}

describe('since pages at 10,000 reviews', () => {
  it('walking `next` from the first day gives every review exactly once, oldest first, in pages of whole days', async () => {
    const { pages, ids } = await walk('0001-01-01');
    assert.ok(pages.length >= 10, `${pages.length} pages: at least 10,000 / ${SINCE_PAGE_SIZE}`);
    assert.equal(new Set(ids).size, ids.length, 'no review twice');
    assert.deepEqual(
      ids,
      [...dataset.reviews].sort(oldestFirst).map((review) => review.id),
      'every review, oldest first',
    );
    for (const [i, page] of pages.entries()) {
      assert.equal(page.has_more, i < pages.length - 1);
      const days = new Set(page.reviews.map((review) => review.date));
      assert.ok(
        page.count <= SINCE_PAGE_SIZE || days.size === 1,
        `page ${i}: ${page.count} reviews over ${days.size} days`,
      );
      const next = pages[i + 1];
      if (next) {
        assert.equal(next.reviews[0]!.date, page.next_date, 'the next page starts on next_date');
        assert.ok(!days.has(page.next_date!), 'a day is never split over two pages');
      }
    }
  });

  it('a walk from a date in the middle gives exactly the reviews on or after it', async () => {
    const date = [...dataset.reviews].sort(oldestFirst)[4321]!.date;
    const { pages, ids } = await walk(date);
    assert.ok(pages.length > 1);
    assert.equal(pages[0]!.since, date);
    assert.deepEqual(
      ids,
      dataset.reviews
        .filter((review) => review.date >= date)
        .sort(oldestFirst)
        .map((review) => review.id),
    );
  });

  it('a date after the newest review is one empty last page, with the dataset as Last-Modified', async () => {
    const { pages } = await walk('2099-01-01');
    assert.deepEqual(pages, [
      { since: '2099-01-01', count: 0, has_more: false, next: null, next_date: null, reviews: [] },
    ]);
  });
});

describe('the paging rule, walked in-process with small pages', () => {
  for (const pageSize of [1, 2, 3, 7, 250]) {
    it(`page size ${pageSize}: every review once; pages of whole days; a day larger than a page is one page`, () => {
      const index = getReviewIndex(dataset);
      const seen: string[] = [];
      let oversizedDays = 0;
      let date: string | null = '0001-01-01';
      while (date !== null) {
        const page = reviewsSince(index, date, pageSize);
        const days = new Set(page.reviews.map((review) => review.date));
        if (page.count > pageSize) {
          assert.equal(days.size, 1, 'only a single day may exceed the page size');
          oversizedDays += 1;
        }
        if (page.has_more) assert.ok(page.count > 0, 'every page but an empty last one makes progress');
        seen.push(...page.reviews.map((review) => review.id));
        date = page.next_date;
      }
      assert.deepEqual(
        seen,
        [...dataset.reviews].sort(oldestFirst).map((review) => review.id),
      );
      // The generated days hold several reviews, so small pages must meet the rule for big days.
      if (pageSize <= 3) assert.ok(oversizedDays > 0, 'some day is larger than the page');
    });
  }
});

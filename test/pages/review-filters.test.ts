/**
 * "All reviews" narrowed by stars, service and technician, over HTTP and in
 * Chromium with JavaScript off: the list pages link to each choice with its
 * count, the narrowed list holds exactly what the search API answers for the
 * same filters, choices combine and come off again, pages follow, and a bad
 * address is a 400 page naming the parameter.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launchChromium } from '../helpers/browser.ts';
import { startServer, type RunningServer } from '../helpers/server.ts';
import type { Review } from '../helpers/types.ts';

let browser: Browser;
let context: BrowserContext;
let server: RunningServer;

before(async () => {
  [browser, server] = await Promise.all([launchChromium(), startServer('content')]);
  context = await browser.newContext({ javaScriptEnabled: false });
});
after(async () => {
  await browser?.close();
  await server?.stop();
});

/** Every review the search API matches, newest first. */
async function apiSearch(query: string): Promise<{ total: number; ids: string[] }> {
  const body = await (await fetch(`${server.url}/api/reviews/search?${query}&limit=100`)).json();
  return { total: body.total, ids: body.reviews.map((r: Review) => r.id) };
}

async function cardIds(page: Page): Promise<string[]> {
  return (await page.locator('article.review').evaluateAll((cards) => cards.map((card) => card.id))).map((id) =>
    id.replace(/^review-/, ''),
  );
}

/** The count shown next to a choice, by its label. */
async function countOf(page: Page, facet: string, label: string): Promise<number> {
  const item = page
    .getByRole('navigation', { name: 'Narrow the reviews' })
    .getByRole('region', { name: facet })
    .locator('li')
    .filter({ hasText: label });
  const text = (await item.locator('.count').textContent()) ?? '';
  return Number(/\((\d+)\)/.exec(text)?.[1]);
}

function facetLink(page: Page, facet: string, label: string) {
  return page
    .getByRole('navigation', { name: 'Narrow the reviews' })
    .getByRole('region', { name: facet })
    .getByRole('link', { name: label });
}

describe('narrowing the review list', () => {
  it('a visitor looking for gutter work finds the gutter reviews from "All reviews", without JavaScript', async () => {
    const page = await context.newPage();
    await page.goto(`${server.url}/reviews/page/1`);
    const gutters = await apiSearch('mentions_service=gutters');
    assert.ok(gutters.total > 0);
    assert.equal(await countOf(page, 'Service', 'Gutter installation and repair'), gutters.total);
    await facetLink(page, 'Service', 'Gutter installation and repair').click();
    await page.waitForLoadState();
    assert.equal(new URL(page.url()).search, '?service=gutters');
    assert.deepEqual(await cardIds(page), gutters.ids.slice(0, 25));
    assert.match((await page.locator('h1').textContent()) ?? '', /about Gutter installation and repair/);
    await page.close();
  });

  it('choices combine, each count is what the search API counts, and an active choice comes off', async () => {
    const page = await context.newPage();
    await page.goto(`${server.url}/reviews?service=gutters`);
    for (const stars of [5, 4, 3, 2, 1]) {
      const { total } = await apiSearch(`mentions_service=gutters&rating=${stars}`);
      assert.equal(await countOf(page, 'Stars', `${stars} star${stars === 1 ? '' : 's'}`), total, `${stars} stars`);
    }
    for (const technician of ['dave-kowalski', 'maria-santos', 'tommy-nguyen']) {
      const { total } = await apiSearch(`mentions_service=gutters&mentions_technician=${technician}`);
      const name = technician
        .split('-')
        .map((w) => w[0]!.toUpperCase() + w.slice(1))
        .join(' ');
      assert.equal(await countOf(page, 'Technician', name), total, technician);
    }
    await facetLink(page, 'Stars', '5 stars').click();
    await page.waitForLoadState();
    assert.equal(new URL(page.url()).search, '?rating=5&service=gutters');
    assert.deepEqual(await cardIds(page), (await apiSearch('mentions_service=gutters&rating=5')).ids.slice(0, 25));
    // The active choice links to the list without it.
    await page
      .getByRole('link', { name: /Gutter installation and repair/ })
      .and(page.locator('[aria-current="true"]'))
      .click();
    await page.waitForLoadState();
    assert.equal(new URL(page.url()).search, '?rating=5');
    await page.close();
  });

  it('a technician narrows the list the way mentions_technician does', async () => {
    const response = await fetch(`${server.url}/reviews?technician=maria-santos`);
    assert.equal(response.status, 200);
    const html = await response.text();
    const ids = [...html.matchAll(/<article class="review" id="review-([^"]+)"/g)].map((m) => m[1]);
    assert.deepEqual(ids, (await apiSearch('mentions_technician=maria-santos')).ids.slice(0, 25));
  });

  it('pages follow one another, the same reviews the search answers, and past the last is a 404', async () => {
    const all = await apiSearch('rating=5');
    assert.ok(all.total > 25, 'the sample has more than a page of 5-star reviews');
    const page = await context.newPage();
    await page.goto(`${server.url}/reviews?rating=5`);
    await page.getByRole('link', { name: 'Next ›' }).click();
    await page.waitForLoadState();
    assert.equal(new URL(page.url()).search, '?rating=5&page=2');
    assert.deepEqual(await cardIds(page), all.ids.slice(25, 50));
    assert.equal(
      await page.getAttribute('link[rel="canonical"]', 'href'),
      'http://localhost:4321/reviews?rating=5&page=2',
    );
    await page.close();
    const last = Math.ceil(all.total / 25);
    assert.equal((await fetch(`${server.url}/reviews?rating=5&page=${last}`)).status, 200);
    const past = await fetch(`${server.url}/reviews?rating=5&page=${last + 1}`);
    assert.equal(past.status, 404);
    assert.equal(past.headers.get('cache-control'), 'no-store');
  });

  it('every review without a choice, and parameters of others (utm_*) are left alone', async () => {
    const response = await fetch(`${server.url}/reviews?utm_source=newsletter`);
    assert.equal(response.status, 200);
    const html = await response.text();
    assert.match(html, /Reviews of Cedar Ridge Roofing/);
    assert.equal([...html.matchAll(/<article class="review"/g)].length, 25);
  });

  it('a value that names nothing is a 400 page that names the parameter', async () => {
    for (const [query, parameter] of [
      ['rating=9', 'rating'],
      ['rating=1e0', 'rating'],
      ['rating=%2B5', 'rating'],
      ['service=nope', 'service'],
      ['technician=Dave%20Kowalski', 'technician'],
      ['page=0', 'page'],
      ['page=two', 'page'],
      ['rating=5&rating=4', 'rating'],
    ] as const) {
      const response = await fetch(`${server.url}/reviews?${query}`);
      assert.equal(response.status, 400, query);
      assert.match(response.headers.get('content-type') ?? '', /^text\/html/);
      const html = await response.text();
      assert.match(
        html,
        new RegExp(`<li>${parameter} `),
        `${query}: ${html.slice(html.indexOf('problems'), html.indexOf('problems') + 300)}`,
      );
      assert.match(html, /<meta name="robots" content="noindex">/);
    }
    const post = await fetch(`${server.url}/reviews?rating=5`, { method: 'POST' });
    assert.equal(post.status, 405);
  });
});

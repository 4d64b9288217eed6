/**
 * A review's own page over the real server and in Chromium: its JSON-LD (a
 * Review of the business, escaped so hostile text stays text), one h1, the
 * same bytes on every request, and the site's 404 page for an unknown id.
 */
import { reviewHeading } from '../../src/lib/format/review-heading.ts';
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { launchChromium } from '../helpers/browser.ts';
import { bytesOf } from '../helpers/http.ts';
import { startServer, type RunningServer } from '../helpers/server.ts';
import type { ReviewsDataset } from '../../src/lib/reviews/schema.ts';

let browser: Browser;
let content: RunningServer;
let small: RunningServer;
let dataset: ReviewsDataset;

before(async () => {
  [browser, content, small] = await Promise.all([launchChromium(), startServer('content'), startServer('small')]);
  dataset = (await (await fetch(`${content.url}/reviews.json`)).json()) as ReviewsDataset;
});
after(async () => {
  await browser?.close();
  await Promise.all([content?.stop(), small?.stop()]);
});

/** The JSON-LD blocks of a page as served (every `<` inside one is a \u escape, so the first `</script>` ends it). */
function jsonLdBlocks(html: string): any[] {
  return [...html.matchAll(/<script type="application\/ld\+json">(.*?)<\/script>/gs)].map((match) =>
    JSON.parse(match[1] as string),
  );
}

const HOSTILE_ID = '2025-06-02-hostile-text';

describe('a review page', () => {
  it('carries its own Review JSON-LD, about the business of the home page, for every review', async () => {
    const [home] = jsonLdBlocks(await (await fetch(`${content.url}/`)).text());
    for (const review of dataset.reviews) {
      const response = await fetch(`${content.url}/reviews/${review.id}`);
      assert.equal(response.status, 200, review.id);
      const blocks = jsonLdBlocks(await response.text());
      assert.equal(blocks.length, 1, `${review.id}: one JSON-LD block`);
      const ld = blocks[0];
      const url = `http://localhost:4321/reviews/${review.id}`;
      assert.equal(ld['@context'], 'https://schema.org');
      assert.equal(ld['@type'], 'Review');
      assert.equal(ld['@id'], url);
      assert.equal(ld.url, url);
      assert.equal(ld.datePublished, review.date);
      assert.equal(ld.dateModified, review.updated === `${review.date}T00:00:00Z` ? undefined : review.updated);
      assert.equal(ld.name, review.title);
      assert.equal(ld.reviewBody, review.text);
      assert.deepEqual(ld.author, { '@type': 'Person', name: review.author.name });
      assert.deepEqual(ld.reviewRating, {
        '@type': 'Rating',
        ratingValue: review.rating,
        bestRating: 5,
        worstRating: 1,
      });
      assert.equal(ld.itemReviewed['@type'], 'RoofingContractor');
      assert.equal(ld.itemReviewed['@id'], home['@id'], 'the same business node as the home page');
      assert.equal(ld.itemReviewed.name, dataset.business.name);
      assert.equal(ld.itemReviewed.url, dataset.business.url);
      assert.equal(ld.itemReviewed.address.streetAddress, dataset.business.address.street);
    }
  });

  it('shows the review under one h1 in Chromium, without JavaScript', async () => {
    const review = dataset.reviews.find((r) => r.title && r.response) ?? dataset.reviews[0]!;
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    const response = await page.goto(`${content.url}/reviews/${review.id}`);
    assert.equal(response?.status(), 200);
    assert.equal(await page.locator('h1').count(), 1);
    assert.equal(await page.locator('h1').textContent(), reviewHeading(review));
    assert.equal(
      await page.getAttribute('link[rel="canonical"]', 'href'),
      `http://localhost:4321/reviews/${review.id}`,
    );
    const ld = JSON.parse((await page.locator('script[type="application/ld+json"]').textContent()) ?? '');
    assert.equal(ld.reviewBody, review.text);
    await context.close();
  });

  it('keeps hostile review text as text in the page, its JSON-LD and its share tags, and runs none of it', async () => {
    const smallDataset = (await (await fetch(`${small.url}/reviews.json`)).json()) as ReviewsDataset;
    const review = smallDataset.reviews.find((r) => r.id === HOSTILE_ID)!;
    assert.match(review.text, /<\/script><script>/, 'the fixture is hostile');
    const page = await browser.newPage();
    const dialogs: string[] = [];
    page.on('dialog', (dialog) => {
      dialogs.push(dialog.message());
      void dialog.dismiss();
    });
    const response = await page.goto(`${small.url}/reviews/${HOSTILE_ID}`);
    assert.equal(response?.status(), 200);
    const pwned = await page.evaluate(() => {
      const w = window as unknown as Record<string, unknown>;
      return [w.__pwned, w.__pwned_title, w.__pwned_author];
    });
    assert.deepEqual(pwned, [undefined, undefined, undefined]);
    assert.deepEqual(dialogs, []);
    assert.equal(await page.locator('script').count(), 1, 'the only script element is the JSON-LD block');
    assert.equal(await page.locator('img').count(), 0);
    assert.equal(await page.locator('h1').textContent(), review.title);
    const ld = JSON.parse((await page.locator('script[type="application/ld+json"]').textContent()) ?? '');
    assert.equal(ld.reviewBody, review.text);
    assert.equal(ld.name, review.title);
    assert.equal(ld.author.name, review.author.name);
    // The share tags hold the same text, as attribute values, whole.
    assert.equal(await page.getAttribute('meta[property="og:title"]', 'content'), `${review.title} (5 out of 5)`);
    assert.ok(
      (await page.getAttribute('meta[property="og:description"]', 'content'))?.startsWith(
        `${review.author.name} rated `,
      ),
    );
    assert.equal(await page.title(), `${review.title}: ${smallDataset.business.name}`);
    await page.close();
  });

  it('is the same bytes on every request (nothing in it comes from a clock)', async () => {
    const path = `/reviews/${dataset.reviews[0]!.id}`;
    const first = await bytesOf(await fetch(content.url + path));
    await new Promise((resolveWait) => setTimeout(resolveWait, 1100));
    // Another URL of the same page (a query the page ignores): rendered again, not the page kept for the first.
    const second = await bytesOf(await fetch(`${content.url}${path}?utm_source=test`));
    assert.ok(first.equals(second));
  });

  it('is read only: other methods are a 405 naming GET and HEAD, never the page', async () => {
    const path = `/reviews/${dataset.reviews[0]!.id}`;
    for (const method of ['POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS']) {
      const response = await fetch(content.url + path, { method, ...(method === 'OPTIONS' ? {} : { body: '{}' }) });
      assert.equal(response.status, 405, method);
      assert.equal(response.headers.get('allow'), 'GET, HEAD', method);
      assert.equal(((await response.json()) as { error: string }).error, 'method_not_allowed', method);
    }
  });
});

describe('an unknown review id', () => {
  it('answers the site’s 404 page with status 404, the same bytes as /404.html', async () => {
    const page404 = await bytesOf(await fetch(`${content.url}/404.html`));
    // (An unknown /reviews/{id}.json is a data URL: its JSON 404 is tested in review-json.test.ts.)
    for (const path of ['/reviews/no-such-review', '/reviews/2025-99-99-x', '/no-such-page']) {
      const response = await fetch(content.url + path);
      assert.equal(response.status, 404, path);
      assert.equal(response.headers.get('content-type'), 'text/html; charset=utf-8', path);
      assert.ok((await bytesOf(response)).equals(page404), `${path} is the 404 page`);
    }
    const review404 = await fetch(`${content.url}/reviews/no-such-review`);
    assert.equal(
      review404.headers.get('cache-control'),
      'no-store',
      'a review published later must not meet a cached 404',
    );
    await review404.arrayBuffer();
  });

  it('shows the 404 page in Chromium, kept out of search engines', async () => {
    const page = await browser.newPage();
    const response = await page.goto(`${content.url}/reviews/no-such-review`);
    assert.equal(response?.status(), 404);
    assert.equal(await page.locator('h1').textContent(), 'Page not found');
    assert.equal(await page.getAttribute('meta[name="robots"]', 'content'), 'noindex');
    assert.equal(
      await page.getByRole('main').getByRole('link', { name: 'All reviews' }).getAttribute('href'),
      '/reviews/page/1',
    );
    await page.close();
  });
});

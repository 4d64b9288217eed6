/**
 * Small things a reader sees on the pages, in Chromium without JavaScript: the
 * footer's links separated by spaced dots, where a review was written by the platform's
 * name, list cards without a band above their heading, and a review page's h1
 * that is its title, not a link to itself.
 */
import { METHOD_LABEL } from '../../src/lib/reviews/verification-labels.ts';
import type { VerificationMethod } from '../../src/lib/reviews/schema.ts';
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, BrowserContext } from 'playwright-core';
import { launchChromium } from '../helpers/browser.ts';
import { startServer, type RunningServer } from '../helpers/server.ts';
import type { ReviewsDataset } from '../../src/lib/reviews/schema.ts';

let browser: Browser;
let context: BrowserContext;
let server: RunningServer;
let dataset: ReviewsDataset;

before(async () => {
  [browser, server] = await Promise.all([launchChromium(), startServer('content')]);
  context = await browser.newContext({ javaScriptEnabled: false, viewport: { width: 1280, height: 900 } });
  dataset = (await (await fetch(`${server.url}/reviews.json`)).json()) as ReviewsDataset;
});
after(async () => {
  await browser?.close();
  await server?.stop();
});

describe('page details', () => {
  it('the footer separates its links with a spaced dot', async () => {
    const page = await context.newPage();
    await page.goto(`${server.url}/`);
    const footer = ((await page.locator('footer').first().innerText()) ?? '').replace(/\s+/g, ' ');
    assert.match(footer, /All reviews · Trends · Contact · For developers/);
    assert.doesNotMatch(footer, /\S·|·\S/, footer);
    await page.close();
  });

  it('names where a review was written as a reader does: posted on Google, written here', async () => {
    const page = await context.newPage();
    await page.goto(`${server.url}/reviews/page/1`);
    const expected: Record<string, string> = {
      google: 'Posted on Google',
      yelp: 'Posted on Yelp',
      nextdoor: 'Posted on Nextdoor',
      website: 'Written here',
      email: 'Sent to the business by email',
    };
    const seen = new Set<string>();
    for (const review of dataset.reviews.slice(0, 25)) {
      const meta = await page.locator(`#review-${review.id} .trust`).innerText();
      assert.ok(
        meta.endsWith(
          `Verified customer · ${expected[review.source] ?? review.source} · ${METHOD_LABEL[review.verification.method as VerificationMethod]}`,
        ),
        `${review.id} (${review.source}): ${meta}`,
      );
      seen.add(review.source);
    }
    assert.ok(seen.has('google'), 'the first page holds a Google review');
    await page.close();
  });

  it('a card of the review list has its heading at the top of its box, no band above it', async () => {
    const page = await context.newPage();
    await page.goto(`${server.url}/reviews/page/2`);
    const gaps = await page.locator('article.review').evaluateAll((cards) =>
      cards.map((card) => {
        const style = getComputedStyle(card);
        const contentTop =
          card.getBoundingClientRect().top + parseFloat(style.borderTopWidth) + parseFloat(style.paddingTop);
        return card.querySelector('h2')!.getBoundingClientRect().top - contentTop;
      }),
    );
    assert.equal(gaps.length, 25);
    for (const gap of gaps) assert.ok(gap >= 0 && gap < 2, `the heading starts ${gap}px below the card's padding`);
    await page.close();
  });

  it("a review page's h1 is its title as text, not a link to the page itself", async () => {
    const review = dataset.reviews.find((r) => r.title)!;
    const page = await context.newPage();
    await page.goto(`${server.url}/reviews/${review.id}`);
    assert.equal(await page.locator('h1').count(), 1);
    assert.equal(await page.locator('h1 a').count(), 0);
    assert.equal(await page.locator('h1').textContent(), review.title);
    await page.close();
  });
});

/**
 * The home page in a real browser: it renders the business and its rating
 * without client JavaScript, works on a phone, and hostile review text stays text.
 */
import { reviewHeading } from '../../src/lib/format/review-heading.ts';
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { launchChromium } from '../helpers/browser.ts';
import { startServer, type RunningServer } from '../helpers/server.ts';

let browser: Browser;
let content: RunningServer;
let small: RunningServer;

before(async () => {
  [browser, content, small] = await Promise.all([launchChromium(), startServer('content'), startServer('small')]);
});
after(async () => {
  await browser?.close();
  await Promise.all([content?.stop(), small?.stop()]);
});

describe('home page', () => {
  it('shows the business, the aggregate rating and its distribution, with JavaScript off', async () => {
    const dataset = await (await fetch(`${content.url}/reviews.json`)).json();
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    const response = await page.goto(`${content.url}/`);
    assert.equal(response?.status(), 200);
    assert.equal(await page.locator('h1').first().textContent(), dataset.business.name);
    assert.equal(
      await page.getByTestId('rating-value').textContent(),
      dataset.aggregate_rating.rating_value.toFixed(1),
    );
    const distribution = await page.getByRole('list', { name: 'Rating distribution' }).locator('li').allTextContents();
    assert.equal(distribution.length, 5);
    assert.match(distribution[0] ?? '', new RegExp(`5 stars\\s*${dataset.aggregate_rating.distribution['5']}`));
    const newest = await page.locator('article.review').count();
    assert.equal(newest, 10);
    assert.equal(await page.locator('article.review h3').first().textContent(), reviewHeading(dataset.reviews[0]));
    await context.close();
  });

  it('has landmarks, a language, feed discovery and valid JSON-LD', async () => {
    const page = await browser.newPage();
    await page.goto(`${content.url}/`);
    assert.equal(await page.getAttribute('html', 'lang'), 'en');
    for (const role of ['banner', 'navigation', 'main', 'contentinfo'] as const) {
      assert.ok((await page.getByRole(role).count()) >= 1, `landmark ${role}`);
    }
    assert.equal(await page.locator('img:not([alt])').count(), 0, 'every image has alt text');
    assert.equal(
      await page.getAttribute('link[rel="alternate"][type="application/atom+xml"]', 'href'),
      'http://localhost:4321/feed.xml',
    );
    assert.equal(
      await page.getAttribute('link[rel="alternate"][type="application/feed+json"]', 'href'),
      'http://localhost:4321/api/feed.json',
    );
    assert.equal(await page.getAttribute('link[rel="hub"]', 'href'), 'http://localhost:4321/api/websub/hub');
    const jsonLd = JSON.parse((await page.locator('script[type="application/ld+json"]').textContent()) ?? '');
    assert.equal(jsonLd['@type'], 'RoofingContractor');
    assert.equal(jsonLd.aggregateRating['@type'], 'AggregateRating');
    assert.equal(jsonLd.review.length, 10);
    assert.equal(jsonLd.review[0]['@type'], 'Review');
    await page.close();
  });

  it('shows the insights as /insights.json has them: summary, aspects with their sentences, technicians, FAQ', async () => {
    const insights = await (await fetch(`${content.url}/insights.json`)).json();
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto(`${content.url}/`);
    const summary = page.getByRole('region', { name: 'In short' });
    assert.match(
      (await summary.textContent()) ?? '',
      new RegExp(insights.summary.text.slice(0, 40).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')),
    );
    const aspects = page.getByRole('region', { name: 'What customers say about each part of the job' });
    const mentioned = insights.aspects.filter((a: { mentions: number }) => a.mentions > 0);
    assert.equal(await aspects.getByRole('heading', { level: 3 }).count(), mentioned.length);
    // Bars are decoration; their figures are text, for every reader.
    const first = mentioned.sort((a: { mentions: number }, b: { mentions: number }) => b.mentions - a.mentions)[0];
    const pct = Math.round((first.positive / first.mentions) * 100);
    assert.match((await aspects.locator('li').first().textContent()) ?? '', new RegExp(`${pct}% positive`));
    // "Why?" opens the sentences that carried the aspect, without JavaScript.
    await aspects.locator('details summary').first().click();
    const example = first.examples[0];
    assert.ok(
      await aspects
        .locator('details[open] q')
        .filter({ hasText: example.sentence.slice(0, 30) })
        .count(),
    );
    const technicians = page.getByRole('table', { name: 'Technicians by number of reviews that name them' });
    const top = [...insights.entities.technicians].sort((a, b) => b.review_count - a.review_count)[0];
    assert.equal(await technicians.locator('tbody th').first().textContent(), top.name);
    const faq = page.getByRole('region', { name: 'Frequently asked questions' });
    assert.equal(await faq.getByRole('heading', { level: 3 }).count(), insights.faq.length);
    assert.ok(insights.faq.length > 0);
    await context.close();
  });

  it('shows dates as people read them, with the ISO date for machines', async () => {
    const dataset = await (await fetch(`${content.url}/reviews.json`)).json();
    const page = await browser.newPage();
    await page.goto(`${content.url}/`);
    const time = page.locator('article.review .meta time').first();
    assert.equal(await time.getAttribute('datetime'), dataset.reviews[0].date);
    const [year, month, day] = dataset.reviews[0].date.split('-').map(Number);
    const expected = new Date(Date.UTC(year, month - 1, day)).toLocaleDateString('en-US', {
      timeZone: 'UTC',
      month: 'long',
      day: 'numeric',
      year: 'numeric',
    });
    assert.equal(await time.textContent(), expected);
    await page.close();
  });

  it('fits a phone screen without sideways scrolling', async () => {
    const context = await browser.newContext({
      viewport: { width: 360, height: 740 },
      deviceScaleFactor: 2,
      isMobile: true,
    });
    const page = await context.newPage();
    await page.goto(`${content.url}/`);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    assert.ok(overflow <= 0, `page is ${overflow}px wider than the screen`);
    await context.close();
  });

  it('shows a review holding </script><script> as text, and runs none of it', async () => {
    const page = await browser.newPage();
    const dialogs: string[] = [];
    page.on('dialog', (dialog) => {
      dialogs.push(dialog.message());
      void dialog.dismiss();
    });
    await page.goto(`${small.url}/`);
    const pwned = await page.evaluate(() => {
      const w = window as unknown as Record<string, unknown>;
      return [w.__pwned, w.__pwned_title, w.__pwned_author];
    });
    assert.deepEqual(pwned, [undefined, undefined, undefined]);
    assert.deepEqual(dialogs, []);
    const card = page.locator('#review-2025-06-02-hostile-text');
    assert.match((await card.textContent()) ?? '', /<\/script><script>window.__pwned = true<\/script>/);
    assert.equal(await card.locator('script, img').count(), 0);
    const scripts = await page.locator('script').count();
    assert.equal(scripts, 1, 'the only script element is the JSON-LD block');
    const jsonLd = JSON.parse((await page.locator('script[type="application/ld+json"]').textContent()) ?? '');
    const hostile = jsonLd.review.find((r: { reviewBody: string }) => r.reviewBody.includes('__pwned'));
    assert.match(
      hostile.reviewBody,
      /^Dave fixed the flashing\. <\/script><script>window.__pwned = true<\/script> <!-- not a comment -->/,
    );
    await page.close();
  });

  it('serves the paged list and a review permalink', async () => {
    const page = await browser.newPage();
    const list = await page.goto(`${content.url}/reviews/page/2`);
    assert.equal(list?.status(), 200);
    assert.equal(await page.locator('article.review').count(), 25);
    const href = await page.locator('article.review h2 a').first().getAttribute('href');
    const permalink = await page.goto(`${content.url}${href}`);
    assert.equal(permalink?.status(), 200);
    assert.equal(await page.locator('article.review').count(), 1);
    const missing = await page.goto(`${content.url}/reviews/no-such-review`);
    assert.equal(missing?.status(), 404);
    await page.close();
  });
});

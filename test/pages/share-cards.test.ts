/**
 * The Open Graph and Twitter card tags a chat app or social network reads when
 * a link is shared, read back in Chromium: every page names the business and
 * its rating; a review's page carries that review's own rating and an excerpt.
 */
import { reviewHeading } from '../../src/lib/format/review-heading.ts';
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { launchChromium } from '../helpers/browser.ts';
import { startServer, type RunningServer } from '../helpers/server.ts';
import type { ReviewsDataset } from '../../src/lib/reviews/schema.ts';
import { excerpt } from '../../src/lib/seo/social.ts';

let browser: Browser;
let server: RunningServer;
let dataset: ReviewsDataset;

before(async () => {
  [browser, server] = await Promise.all([launchChromium(), startServer('content')]);
  dataset = (await (await fetch(`${server.url}/reviews.json`)).json()) as ReviewsDataset;
});
after(async () => {
  await browser?.close();
  await server?.stop();
});

/** The card tags of a page as a browser parses them: `og:*`/`article:*` by property, `twitter:*` by name. */
async function cardOf(path: string) {
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  const response = await page.goto(server.url + path);
  assert.equal(response?.status(), 200, path);
  const tags = await page.evaluate(() =>
    [...document.querySelectorAll('head meta')].flatMap((meta) => {
      const key = meta.getAttribute('property') ?? meta.getAttribute('name') ?? '';
      return /^(og|article|twitter):/.test(key) ? [[key, meta.getAttribute('content') ?? '']] : [];
    }),
  );
  const canonical = await page.getAttribute('link[rel="canonical"]', 'href');
  await context.close();
  const keys = tags.map(([key]) => key);
  assert.equal(new Set(keys).size, keys.length, `${path}: no tag twice`);
  return { tag: Object.fromEntries(tags) as Record<string, string>, canonical };
}

describe('share cards', () => {
  it('every page names the business and its rating', async () => {
    const { business, aggregate_rating: rating } = dataset;
    const sentence = `Rated ${rating.rating_value.toFixed(1)} out of 5 from ${rating.review_count} verified customer reviews.`;
    for (const path of ['/', '/reviews/page/2', '/api-reference']) {
      const { tag, canonical } = await cardOf(path);
      assert.equal(tag['og:site_name'], business.name, path);
      assert.equal(tag['og:type'], 'website', path);
      assert.ok(tag['og:description']?.startsWith(sentence), `${path}: ${tag['og:description']}`);
      assert.equal(tag['og:url'], canonical, `${path}: og:url is the canonical URL`);
      assert.ok(tag['og:title'], path);
      assert.equal(tag['twitter:card'], 'summary');
      assert.equal(tag['twitter:title'], tag['og:title']);
      assert.equal(tag['twitter:description'], tag['og:description']);
      assert.equal(tag['twitter:label1'], 'Rating');
      assert.equal(tag['twitter:data1'], `${rating.rating_value.toFixed(1)} out of 5`);
      assert.equal(tag['twitter:label2'], 'Verified reviews');
      assert.equal(tag['twitter:data2'], String(rating.review_count));
    }
    const home = await cardOf('/');
    assert.equal(home.tag['og:title'], `${business.name}: verified customer reviews`);
    assert.ok(business.name.includes('&'), 'the sample business name needs escaping in an attribute');
  });

  it('a review page carries the review’s own rating and an excerpt of its text', async () => {
    const { business } = dataset;
    // A long one (its excerpt is cut), a short one, and one with a later change (article:modified_time).
    const long =
      dataset.reviews.find((r) => r.text.length > 400 && r.rating <= 3) ??
      dataset.reviews.find((r) => r.text.length > 400)!;
    const short = dataset.reviews.find((r) => r.text.length < 150)!;
    const changed = dataset.reviews.find((r) => r.updated !== `${r.date}T00:00:00Z`)!;
    for (const review of [long, short, changed]) {
      const { tag, canonical } = await cardOf(`/reviews/${review.id}`);
      const title = reviewHeading(review);
      assert.equal(tag['og:type'], 'article');
      assert.equal(tag['og:site_name'], business.name);
      assert.equal(tag['og:title'], `${title} (${review.rating} out of 5)`);
      assert.equal(tag['og:url'], canonical);
      assert.equal(canonical, `http://localhost:4321/reviews/${review.id}`);
      const description = tag['og:description'] ?? '';
      assert.ok(
        description.startsWith(`${review.author.name} rated ${business.name} ${review.rating} out of 5 on `),
        description,
      );
      const flat = review.text.replace(/\s+/g, ' ').trim();
      if (review === long) {
        assert.ok(description.endsWith('…'), 'a long text is cut');
        assert.ok(
          flat.startsWith(description.slice(description.indexOf(': ') + 2, -1)),
          'the excerpt is the start of the text',
        );
        assert.ok([...description].length < 300);
      } else if (review === short) {
        assert.ok(description.endsWith(`: ${flat}`), 'a short text is whole');
      }
      assert.equal(tag['article:published_time'], review.date);
      assert.equal(
        tag['article:modified_time'],
        review.updated === `${review.date}T00:00:00Z` ? undefined : review.updated,
      );
      assert.equal(
        tag['twitter:data1'],
        `${'★'.repeat(review.rating)}${'☆'.repeat(5 - review.rating)} ${review.rating} out of 5`,
      );
      assert.equal(tag['twitter:data2'], business.name);
    }
    assert.notEqual(changed, undefined, 'the sample content has a review changed after its day');
  });
});

describe('excerpt', () => {
  it('keeps short text whole and on one line', () => {
    assert.equal(excerpt('  Good   roof.\n\nThanks ', 50), 'Good roof. Thanks');
  });
  it('cuts at a word boundary within the limit, never inside an emoji', () => {
    const cut = excerpt('The crew was great and the roof looks wonderful after the storm', 30);
    assert.equal(cut, 'The crew was great and the…');
    assert.ok([...cut].length <= 30);
    const emoji = excerpt('👍'.repeat(40), 10);
    assert.equal(emoji, `${'👍'.repeat(9)}…`);
  });
});

/**
 * The widget embedded the way the owner embeds it: a page on a second origin
 * loads {site}/widget.js from the built server and renders what the service
 * publishes, across origins; filters mean what the search API means; hostile
 * text stays text; errors fall back to a link without throwing.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import type { Review, ReviewsDataset } from '../../src/lib/reviews/schema.ts';
import { cutText } from '../../src/lib/widget/dataset.ts';
import { launchChromium } from '../helpers/browser.ts';
import { startServer, type RunningServer } from '../helpers/server.ts';
import {
  hostPageHtml,
  oneDecimal,
  startHostSite,
  startOrigin,
  watchConsole,
  widgetsSettled,
  type Origin,
} from './helpers.ts';

/** A hung browser or server fails the suite instead of stalling `npm test`. */
const SUITE_TIMEOUT_MS = 180_000;

let browser: Browser;
let content: RunningServer;
let small: RunningServer;
let host: Awaited<ReturnType<typeof startHostSite>>;
let dataset: ReviewsDataset;

before(async () => {
  [browser, content, small, host] = await Promise.all([
    launchChromium(),
    startServer('content'),
    startServer('small'),
    startHostSite(),
  ]);
  dataset = (await (await fetch(`${content.url}/reviews.json`)).json()) as ReviewsDataset;
});
after(async () => {
  await browser?.close();
  await Promise.all([content?.stop(), small?.stop(), host?.close()]);
});

async function open(url: string): Promise<{ page: Page; console: ReturnType<typeof watchConsole> }> {
  const page = await browser.newPage();
  const seen = watchConsole(page);
  await page.goto(url);
  await widgetsSettled(page);
  return { page, console: seen };
}

/** The review ids a widget shows, read from its "Full review" links. */
async function shownIds(page: Page, nth = 0): Promise<string[]> {
  const hrefs = await page
    .locator('roofing-reviews')
    .nth(nth)
    .locator('[part="review-link"]')
    .evaluateAll((links) => links.map((a) => a.getAttribute('href') ?? ''));
  return hrefs.map((href) => decodeURIComponent(new URL(href).pathname.replace(/^\/reviews\//, '')));
}

describe('the widget on another origin', { timeout: SUITE_TIMEOUT_MS }, () => {
  it('shows the business, the rating, the count linking to the site and the newest reviews as /reviews.json has them, from the small /widget.json alone', async () => {
    const page = await browser.newPage();
    const seen = watchConsole(page);
    const dataRequests: Promise<{ url: string; origin: string | undefined }>[] = [];
    page.on('request', (request) => {
      if (request.url().startsWith(content.url) && request.resourceType() !== 'script')
        dataRequests.push(request.allHeaders().then((headers) => ({ url: request.url(), origin: headers.origin })));
    });
    await page.goto(host.page(hostPageHtml(content.url, [{ limit: '4' }])));
    await widgetsSettled(page);

    assert.notEqual(new URL(page.url()).origin, new URL(content.url).origin, 'the host page is another origin');
    // A cross-origin fetch: the browser sent Origin and accepted the service's CORS answer.
    assert.deepEqual(await Promise.all(dataRequests), [
      { url: `${content.url}/widget.json`, origin: new URL(page.url()).origin },
    ]);

    const widget = page.locator('roofing-reviews');
    assert.equal(await widget.locator('[part="name"]').textContent(), dataset.business.name);
    const rating = oneDecimal(dataset.aggregate_rating.rating_value);
    assert.equal(await widget.locator('[part="rating"]').textContent(), rating);
    assert.equal(await widget.getByRole('img', { name: `Rated ${rating} out of 5` }).count(), 1);
    const count = widget.locator('[part="count"]');
    assert.equal(
      await count.textContent(),
      `${dataset.aggregate_rating.review_count.toLocaleString('en-US')} verified reviews`,
    );
    assert.equal(await count.getAttribute('href'), `${content.url}/`);

    assert.deepEqual(
      await shownIds(page),
      dataset.reviews.slice(0, 4).map((r) => r.id),
    );
    const newest = dataset.reviews[0]!;
    const first = widget.locator('[part="review"]').first();
    assert.equal(await first.locator('[part="review-text"]').textContent(), cutText(newest.text));
    assert.equal(await first.locator('[part="review-author"]').textContent(), newest.author.name);
    assert.deepEqual(
      await first.locator('[part="review-title"]').allTextContents(),
      newest.title ? [newest.title] : [],
    );
    assert.equal(await first.locator('time').getAttribute('datetime'), newest.date);
    assert.equal(await first.getByRole('img', { name: `${newest.rating} out of 5 stars` }).count(), 1);
    assert.equal(
      await first.locator('[part="review-link"]').getAttribute('href'),
      `${content.url}/reviews/${encodeURIComponent(newest.id)}`,
    );
    assert.deepEqual(seen, { warnings: [], errors: [] });
    await page.close();
  });

  it('shows what the search API answers for min-rating, service and technician', async () => {
    // The technician named in most reviews, and the service most of those reviews are about: a filter that finds some, not all.
    const byTechnician = countBy(dataset.reviews.flatMap((r) => r.technicians));
    const technician = top(byTechnician);
    const theirs = dataset.reviews.filter((r) => r.technicians.includes(technician));
    const service = top(countBy(theirs.flatMap((r) => r.services)));
    const technicianId = dataset.business.technicians.find((t) => t.name === technician)!.id;

    const cases: { attributes: Record<string, string>; query: string }[] = [
      {
        attributes: { 'min-rating': '5', service, technician, limit: '5' },
        query: `min_rating=5&mentions_service=${service}&mentions_technician=${encodeURIComponent(technician)}&limit=5`,
      },
      {
        attributes: { technician: technicianId.toUpperCase(), limit: '3', layout: 'compact' },
        query: `mentions_technician=${technicianId.toUpperCase()}&limit=3`,
      },
      { attributes: { 'min-rating': '2', limit: '10' }, query: 'min_rating=2&limit=10' },
    ];
    const url = host.page(
      hostPageHtml(
        content.url,
        cases.map((c) => c.attributes),
      ),
    );
    const { page, console: seen } = await open(url);
    for (const [index, { query }] of cases.entries()) {
      const expected = (
        (await (await fetch(`${content.url}/api/reviews/search?${query}`)).json()) as { reviews: Review[] }
      ).reviews.map((r) => r.id);
      assert.ok(expected.length > 0, `the search ${query} finds something`);
      assert.deepEqual(await shownIds(page, index), expected, query);
    }
    // A filter narrows the list, never the figures: the header is the whole business.
    const filtered = page.locator('roofing-reviews').first();
    assert.equal(
      await filtered.locator('[part="rating"]').textContent(),
      oneDecimal(dataset.aggregate_rating.rating_value),
    );
    assert.notDeepEqual(
      await shownIds(page, 0),
      dataset.reviews.slice(0, 5).map((r) => r.id),
      'the filter changed what is shown',
    );
    assert.deepEqual(seen, { warnings: [], errors: [] });
    await page.close();
  });

  it('leaves caching to the browser: a second view within the max-age reads /widget.json from the HTTP cache', async () => {
    // (After the minute, the browser revalidates with If-None-Match and gets a 304: measured by hand, see docs/widget.md.)
    const context = await browser.newContext();
    const url = host.page(hostPageHtml(content.url, [{ limit: '2' }]));
    const views: { status: number; fromDiskCache: boolean }[] = [];
    for (let view = 0; view < 2; view++) {
      const page = await context.newPage();
      const cdp = await context.newCDPSession(page);
      await cdp.send('Network.enable');
      cdp.on('Network.responseReceived', (event) => {
        if (event.response.url === `${content.url}/widget.json`)
          views.push({ status: event.response.status, fromDiskCache: event.response.fromDiskCache ?? false });
      });
      await page.goto(url);
      await widgetsSettled(page);
      await page.close();
    }
    assert.deepEqual(views, [
      { status: 200, fromDiskCache: false },
      { status: 200, fromDiskCache: true },
    ]);
    await context.close();
  });

  it('follows attribute changes after it has rendered', async () => {
    const { page } = await open(host.page(hostPageHtml(content.url, [{ limit: '3' }])));
    await page.locator('roofing-reviews').evaluate((el) => {
      el.setAttribute('limit', '1');
      el.setAttribute('layout', 'compact');
    });
    await page.waitForFunction(
      () => document.querySelector('roofing-reviews')?.shadowRoot?.querySelectorAll('[part="review"]').length === 1,
    );
    assert.equal(await page.locator('roofing-reviews .box.compact').count(), 1);
    await page.close();
  });

  it('keeps review text, titles and names as text (the small build has a hostile review)', async () => {
    const reviews = ((await (await fetch(`${small.url}/reviews.json`)).json()) as ReviewsDataset).reviews;
    const hostile = reviews.find((r) => r.id === '2025-06-02-hostile-text')!;
    const page = await browser.newPage();
    const dialogs: string[] = [];
    page.on('dialog', (dialog) => {
      dialogs.push(dialog.message());
      void dialog.dismiss();
    });
    await page.goto(host.page(hostPageHtml(small.url, [{ limit: '10' }])));
    await widgetsSettled(page);
    const card = page
      .locator('roofing-reviews [part="review"]')
      .filter({ has: page.locator(`a[href$="/reviews/${hostile.id}"]`) });
    assert.equal(await card.locator('[part="review-text"]').textContent(), hostile.text);
    assert.equal(await card.locator('[part="review-title"]').textContent(), hostile.title);
    assert.equal(await card.locator('[part="review-author"]').textContent(), hostile.author.name);
    assert.match(hostile.text, /<\/script><script>window.__pwned = true<\/script>/);
    const injected = await page
      .locator('roofing-reviews')
      .evaluate((el) => el.shadowRoot!.querySelectorAll('script, img, iframe, [onerror]').length);
    assert.equal(injected, 0);
    await page.waitForTimeout(200);
    const pwned = await page.evaluate(() => {
      const w = window as unknown as Record<string, unknown>;
      return [w.__pwned, w.__pwned_title, w.__pwned_author];
    });
    assert.deepEqual(pwned, [undefined, undefined, undefined]);
    assert.deepEqual(dialogs, []);
    await page.close();
  });

  it('leaves a working link for visitors without JavaScript', async () => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto(host.page(hostPageHtml(content.url, [{ limit: '3' }])));
    const link = page.getByRole('link', { name: 'Read our verified customer reviews' });
    assert.ok(await link.isVisible());
    assert.equal(await link.getAttribute('href'), `${content.url}/`);
    await context.close();
  });
});

describe('the widget when something is wrong', { timeout: SUITE_TIMEOUT_MS }, () => {
  let broken: Origin;
  let widgetJs: Buffer;
  let mode: '503' | 'reset' = '503';

  before(async () => {
    widgetJs = Buffer.from(await (await fetch(`${content.url}/widget.js`)).arrayBuffer());
    // A service whose widget.js loads but whose data does not: a 5xx, or a connection cut mid-request.
    broken = await startOrigin((req, res) => {
      if (req.url === '/widget.js') {
        res.writeHead(200, { 'content-type': 'text/javascript', 'access-control-allow-origin': '*' });
        res.end(widgetJs);
      } else if (mode === 'reset') {
        req.socket.destroy();
      } else {
        res.writeHead(503, {
          'content-type': 'application/json',
          'access-control-allow-origin': '*',
          'cache-control': 'no-store',
        });
        res.end('{"error":"unavailable"}\n');
      }
    });
  });
  after(() => broken?.close());

  /** The owner's link, shown through the slot, and the widget's fallback part. */
  async function assertFallback(page: Page, site: string): Promise<void> {
    const widget = page.locator('roofing-reviews');
    assert.equal(await widget.locator('[part="fallback"]').count(), 1);
    const link = page.getByRole('link', { name: 'Read our verified customer reviews' });
    assert.ok(await link.isVisible(), 'the fallback link shows');
    assert.equal(await link.getAttribute('href'), `${site}/`);
    assert.equal(await widget.locator('[part="review"]').count(), 0);
  }

  for (const [attribute, value] of [
    ['limit', 'lots'],
    ['limit', '0'],
    ['layout', 'slider'],
    ['theme', 'blue'],
    ['locale', 'fr'],
    ['min-rating', '6'],
    ['service', 'no-such-service'],
    ['technician', 'Nobody Atall'],
  ] as const) {
    it(`a bad ${attribute}="${value}" shows the fallback and one warning naming the attribute`, async () => {
      const { page, console: seen } = await open(host.page(hostPageHtml(content.url, [{ [attribute]: value }])));
      await assertFallback(page, content.url);
      assert.equal(seen.warnings.length, 1, seen.warnings.join('\n'));
      assert.ok(seen.warnings[0]!.includes(`${attribute}="${value}"`), seen.warnings[0]);
      assert.deepEqual(seen.errors, []);
      await page.close();
    });
  }

  it('a 5xx shows the fallback, warns once and throws nothing into the page', async () => {
    mode = '503';
    const { page, console: seen } = await open(host.page(hostPageHtml(broken.url, [{ limit: '3' }])));
    await assertFallback(page, broken.url);
    assert.equal(seen.warnings.length, 1, seen.warnings.join('\n'));
    assert.match(seen.warnings[0]!, /widget\.json answered HTTP 503/);
    assert.deepEqual(seen.errors, []);
    await page.close();
  });

  it('an unreachable service shows the fallback, warns once and throws nothing into the page', async () => {
    mode = 'reset';
    const { page, console: seen } = await open(
      host.page(hostPageHtml(broken.url, [{ limit: '3', service: 'gutters' }])),
    );
    await assertFallback(page, broken.url);
    assert.equal(seen.warnings.length, 1, seen.warnings.join('\n'));
    assert.match(seen.warnings[0]!, /could not reach/);
    assert.deepEqual(seen.errors, []);
    await page.close();
  });

  it('two copies of widget.js on one page define the element once, without an error', async () => {
    // The same URL twice is one module to the browser; a second URL (an old snippet, a query) is a second copy.
    const second = hostPageHtml(content.url, [{ limit: '2' }])
      .match(/<script type="module"[^]*?<\/roofing-reviews>/)![0]
      .replace('widget.js', 'widget.js?copy=2');
    const twice = hostPageHtml(content.url, [{ limit: '1' }]).replace('</main>', `${second}</main>`);
    const { page, console: seen } = await open(host.page(twice));
    assert.equal(await page.locator('roofing-reviews [part="review"]').count(), 3);
    assert.deepEqual(seen, { warnings: [], errors: [] });
    await page.close();
  });
});

function countBy(values: string[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const value of values) counts.set(value, (counts.get(value) ?? 0) + 1);
  return counts;
}

function top(counts: Map<string, number>): string {
  return [...counts].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))[0]![0];
}

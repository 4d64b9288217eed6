/**
 * widget.js as a static file of the build (size budget, validators, CORS, no
 * HTML parsing of data), its guide kept true, and /widget, the owner's page.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { brotliDecompressSync, gzipSync } from 'node:zlib';
import type { Browser } from 'playwright-core';
import { launchChromium } from '../helpers/browser.ts';
import { ROOT } from '../helpers/builds.ts';
import { conditional, rawGet, sha256Etag } from '../helpers/http.ts';
import { startServer, type RunningServer } from '../helpers/server.ts';
import type { ReviewsDataset } from '../../src/lib/reviews/schema.ts';
import { widgetDataset } from '../../src/lib/widget/dataset.ts';
import { widgetSnippet } from '../../src/widget/snippet.ts';
import { axeViolations, describeViolations, widgetsSettled } from './helpers.ts';

/** The budget: what a visitor downloads for the widget, gzip-compressed. */
const GZIP_BUDGET_BYTES = 8 * 1024;

let content: RunningServer;
/** A hung browser or server fails the suite instead of stalling `npm test`. */
const SUITE_TIMEOUT_MS = 180_000;

let browser: Browser;
let source: Buffer;

before(async () => {
  [browser, content] = await Promise.all([launchChromium(), startServer('content')]);
  source = (await rawGet(content.port, '/widget.js', {})).body;
});
after(async () => {
  await browser?.close();
  await content?.stop();
});

describe('widget.js', { timeout: SUITE_TIMEOUT_MS }, () => {
  it(`fits the size budget: at most ${GZIP_BUDGET_BYTES} bytes gzip, as served and as gzip -9 makes it`, async () => {
    const served = await rawGet(content.port, '/widget.js', { 'accept-encoding': 'gzip' });
    assert.equal(served.headers['content-encoding'], 'gzip');
    assert.ok(served.body.length <= GZIP_BUDGET_BYTES, `served gzip: ${served.body.length} bytes`);
    const recompressed = gzipSync(source, { level: 9 }).length;
    assert.ok(recompressed <= GZIP_BUDGET_BYTES, `gzip -9: ${recompressed} bytes`);
    assert.ok(source.length > 2000, `a real bundle (${source.length} bytes)`);
  });

  it('is a static file: JavaScript, open to every origin, with a content-hash ETag that answers 304', async () => {
    const response = await fetch(`${content.url}/widget.js`);
    assert.equal(response.status, 200);
    assert.equal(response.headers.get('content-type'), 'text/javascript; charset=utf-8');
    assert.equal(response.headers.get('access-control-allow-origin'), '*');
    assert.equal(response.headers.get('cache-control'), 'public, max-age=60, s-maxage=300, stale-while-revalidate=600');
    const plain = await rawGet(content.port, '/widget.js', {});
    assert.equal(plain.headers.etag, sha256Etag(plain.body));
    const again = await fetch(`${content.url}/widget.js`, {
      headers: conditional({ 'if-none-match': String(plain.headers.etag) }),
    });
    assert.equal(again.status, 304);
  });

  it('is one self-contained module that never parses data as HTML', () => {
    const text = source.toString('utf8');
    assert.doesNotMatch(
      text,
      /\b(innerHTML|outerHTML|insertAdjacentHTML|document\.write|createContextualFragment|setHTMLUnsafe|parseHTMLUnsafe)\b/,
    );
    // Nothing of the server side came along: no zod, no static imports of other files.
    assert.doesNotMatch(text, /\bzod\b|(^|[;}])import\s*[{*\w]|from\s*"/);
    assert.match(text, /customElements\.define\("roofing-reviews"/);
  });

  it('has every custom property and part it styles listed in docs/widget.md, and nothing else listed', () => {
    const text = source.toString('utf8');
    const guide = readFileSync(resolve(ROOT, 'docs/widget.md'), 'utf8');
    const inBundle = {
      properties: new Set(text.match(/--roofing-reviews-[a-z-]+/g)),
      parts: new Set([...text.matchAll(/part:"([a-z-]+)"/g)].map((m) => m[1]!)),
    };
    const inGuide = {
      properties: new Set(guide.match(/--roofing-reviews-[a-z-]+/g)),
      parts: new Set([...guide.matchAll(/`::part\(([a-z-]+)\)`/g)].map((m) => m[1]!)),
    };
    assert.ok(inBundle.properties.size >= 8 && inBundle.parts.size >= 10, 'the bundle was read');
    assert.deepEqual([...inGuide.properties].sort(), [...inBundle.properties].sort());
    assert.deepEqual([...inGuide.parts].sort(), [...inBundle.parts].sort());
  });
});

describe('/widget.json, the widget’s data', { timeout: SUITE_TIMEOUT_MS }, () => {
  it('is a static data file like /reviews.json: JSON, CORS, the same caching, a content-hash ETag, brotli', async () => {
    const response = await fetch(`${content.url}/widget.json`);
    assert.equal(response.status, 200);
    assert.equal(response.headers.get('content-type'), 'application/json; charset=utf-8');
    assert.equal(response.headers.get('access-control-allow-origin'), '*');
    const reviews = await fetch(`${content.url}/reviews.json`);
    assert.equal(response.headers.get('cache-control'), reviews.headers.get('cache-control'));
    assert.equal(response.headers.get('last-modified'), reviews.headers.get('last-modified'));
    const plain = await rawGet(content.port, '/widget.json', {});
    assert.equal(plain.headers.etag, sha256Etag(plain.body));
    const again = await fetch(`${content.url}/widget.json`, {
      headers: conditional({ 'if-none-match': String(plain.headers.etag) }),
    });
    assert.equal(again.status, 304);
    const br = await rawGet(content.port, '/widget.json', { 'accept-encoding': 'br' });
    assert.equal(br.headers['content-encoding'], 'br');
    assert.deepEqual(brotliDecompressSync(br.body), plain.body);
  });

  it('holds the business, the aggregate and the newest ten reviews trimmed to what the widget shows', async () => {
    const dataset = (await (await fetch(`${content.url}/reviews.json`)).json()) as ReviewsDataset;
    const widget = widgetDataset.parse(await (await fetch(`${content.url}/widget.json`)).json());
    assert.equal(widget.business.name, dataset.business.name);
    assert.deepEqual(widget.business.write_review, dataset.business.write_review);
    assert.equal(widget.aggregate_rating.rating_value, dataset.aggregate_rating.rating_value);
    assert.equal(widget.aggregate_rating.review_count, dataset.aggregate_rating.review_count);
    assert.deepEqual(
      widget.reviews.map((r) => r.id),
      dataset.reviews.slice(0, 10).map((r) => r.id),
    );
    for (const review of widget.reviews) {
      assert.deepEqual(
        Object.keys(review).sort(),
        ['author', 'date', 'id', 'rating', 'text', 'title'].filter((k) => k !== 'title' || 'title' in review),
      );
      assert.ok(review.text.length <= 361, `${review.id}: ${review.text.length} characters`);
    }
    assert.ok(plainSize(widget) < 8 * 1024, `${plainSize(widget)} bytes`);
  });
});

const plainSize = (value: unknown) => Buffer.byteLength(JSON.stringify(value));

describe('/widget, the owner’s page', { timeout: SUITE_TIMEOUT_MS }, () => {
  const SITE = 'http://localhost:4321';

  it('shows the snippet for the real site URL with today’s rating, and the snippet always equals the form', async () => {
    const context = await browser.newContext();
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: content.url });
    const page = await context.newPage();
    const response = await page.goto(`${content.url}/widget`);
    assert.equal(response?.status(), 200);
    await widgetsSettled(page);
    const dataset = (await (await fetch(`${content.url}/reviews.json`)).json()) as ReviewsDataset;
    const summary = {
      ratingValue: dataset.aggregate_rating.rating_value,
      reviewCount: dataset.aggregate_rating.review_count,
    };

    // The test build's SITE_URL is the default, http://localhost:4321, whatever port this server runs on.
    const code = page.locator('#widget-snippet');
    assert.equal(await code.textContent(), widgetSnippet(SITE, { limit: '3' }, summary));
    assert.match(
      (await code.textContent()) ?? '',
      new RegExp(
        `>★ ${dataset.aggregate_rating.rating_value.toFixed(1)} from ${dataset.aggregate_rating.review_count} verified reviews</a>`,
      ),
    );

    // Live previews of every layout, running this site's widget.js.
    for (const layout of ['list', 'compact', 'grid', 'carousel', 'badge', 'collector'])
      assert.equal(await page.locator(`.layouts roofing-reviews .box.${layout}`).count(), 1, layout);
    // The configured widget at a phone's and a desktop's width, light and dark.
    assert.equal(await page.locator('roofing-reviews.preview .box.light').count(), 2);
    assert.equal(await page.locator('roofing-reviews.preview .box.dark').count(), 2);

    await page.getByRole('radio', { name: /Compact/ }).check();
    await page.getByLabel('Number of reviews').fill('2');
    await page.getByLabel('Lowest rating shown').selectOption('4');
    await page.getByLabel('Service').selectOption('gutters');
    await page.getByLabel('Language').selectOption('es');
    const expected = widgetSnippet(
      SITE,
      { layout: 'compact', limit: '2', 'min-rating': '4', service: 'gutters', locale: 'es' },
      summary,
    );
    assert.equal(await code.textContent(), expected);
    await page.waitForFunction(() =>
      [...document.querySelectorAll('roofing-reviews.preview')].every((el) =>
        el.shadowRoot?.querySelector('.compact[lang="es"]:not([aria-busy])'),
      ),
    );

    await page.getByRole('button', { name: 'Copy snippet' }).click();
    await page
      .getByRole('status')
      .filter({ hasText: 'Snippet copied.' })
      .waitFor({ timeout: 5000 })
      .catch(() => {});
    assert.equal(await page.getByRole('status').textContent(), 'Snippet copied.');
    assert.equal(await page.evaluate(() => navigator.clipboard.readText()), expected);
    await context.close();
  });

  it('says beside the field what is wrong with a number of reviews, and gives no snippet to copy meanwhile', async () => {
    const page = await browser.newPage();
    await page.goto(`${content.url}/widget`);
    const limit = page.getByLabel('Number of reviews');
    const copy = page.getByRole('button', { name: 'Copy snippet' });
    const code = page.locator('#widget-snippet');
    for (const value of ['20', '0', 'lots', '']) {
      await limit.fill(value);
      assert.equal(await limit.getAttribute('aria-invalid'), 'true', value);
      assert.match((await page.locator('#limit-message').textContent()) ?? '', /enter|Enter/);
      assert.equal(await copy.isDisabled(), true, value);
      assert.match((await code.textContent()) ?? '', /^No snippet while a setting is wrong/);
    }
    // A later choice while the number is wrong is not lost: fixing the number gives the whole form.
    await page.getByLabel('Lowest rating shown').selectOption('5');
    await limit.fill('4');
    assert.equal(await limit.getAttribute('aria-invalid'), 'false');
    assert.equal(await copy.isDisabled(), false);
    assert.match((await code.textContent()) ?? '', /<roofing-reviews limit="4" min-rating="5" style=/);
    // The badge shows no reviews: its number of reviews is neither asked nor written.
    await limit.fill('99');
    await page.getByRole('radio', { name: /Badge/ }).check();
    assert.equal(await limit.isDisabled(), true);
    assert.equal(await copy.isDisabled(), false);
    assert.match((await code.textContent()) ?? '', /<roofing-reviews layout="badge" min-rating="5" style=/);
    await page.close();
  });

  it('links to the widget guide, which the site serves', async () => {
    const page = await browser.newPage();
    await page.goto(`${content.url}/widget`);
    const href = await page.getByRole('link', { name: 'widget guide' }).first().getAttribute('href');
    assert.equal(href, '/widget/guide');
    const guide = await page.goto(`${content.url}${href}`);
    assert.equal(guide?.status(), 200);
    assert.equal(await page.getByRole('heading', { level: 1 }).textContent(), 'The reviews widget');
    assert.ok((await page.locator('table').count()) >= 4, 'the attribute, layout, comparison and styling tables');
    await page.close();
  });

  it('has no axe-core violations', async () => {
    const page = await browser.newPage();
    await page.goto(`${content.url}/widget`);
    await widgetsSettled(page);
    const violations = await axeViolations(page);
    assert.deepEqual(violations, [], describeViolations(violations));
    await page.close();
  });

  it('is valid HTML for the Nu Html Checker', async () => {
    const html = (await rawGet(content.port, '/widget', {})).body.toString('utf8');
    const dir = mkdtempSync(join(tmpdir(), 'widget-vnu-'));
    const file = join(dir, 'widget.html');
    writeFileSync(file, html);
    const run = spawnSync(
      'java',
      ['-jar', resolve(ROOT, 'node_modules/vnu-jar/build/dist/vnu.jar'), '--errors-only', '--format', 'json', file],
      { encoding: 'utf8' },
    );
    rmSync(dir, { recursive: true, force: true });
    const messages = (JSON.parse(run.stderr || '{"messages":[]}') as { messages: { message: string }[] }).messages;
    assert.deepEqual(
      messages.map((m) => m.message),
      [],
    );
  });
});

/**
 * widget.js as a static file of the build (size budget, validators, CORS, no
 * HTML parsing of data), its guide kept true, and /widget, the owner's page.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { gzipSync } from 'node:zlib';
import type { Browser } from 'playwright-core';
import { launchChromium } from '../helpers/browser.ts';
import { ROOT } from '../helpers/builds.ts';
import { conditional, rawGet, sha256Etag } from '../helpers/http.ts';
import { startServer, type RunningServer } from '../helpers/server.ts';
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

describe('/widget, the owner’s page', { timeout: SUITE_TIMEOUT_MS }, () => {
  it('shows the snippet for the real site URL, copies it, and previews what the settings choose', async () => {
    const context = await browser.newContext();
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: content.url });
    const page = await context.newPage();
    const response = await page.goto(`${content.url}/widget`);
    assert.equal(response?.status(), 200);
    await widgetsSettled(page);

    // The test build's SITE_URL is the default, http://localhost:4321, whatever port this server runs on.
    const code = page.locator('#widget-snippet');
    assert.equal(await code.textContent(), widgetSnippet('http://localhost:4321', { limit: '3' }));
    assert.match(
      (await code.textContent()) ?? '',
      /^<script type="module" src="http:\/\/localhost:4321\/widget\.js"><\/script>\n<roofing-reviews limit="3">/,
    );

    // Live previews of both layouts, running this site's widget.js.
    assert.equal(await page.locator('.layouts roofing-reviews .box.list').count(), 1);
    assert.equal(await page.locator('.layouts roofing-reviews .box.compact').count(), 1);

    await page.getByRole('radio', { name: /Compact/ }).check();
    await page.getByLabel('Number of reviews').fill('2');
    await page.getByLabel('Lowest rating shown').selectOption('5');
    const expected = widgetSnippet('http://localhost:4321', { limit: '2', 'min-rating': '5', layout: 'compact' });
    assert.equal(await code.textContent(), expected);
    await page.waitForFunction(
      () =>
        document.querySelector('#widget-preview')?.shadowRoot?.querySelectorAll('.compact [part="review"]').length ===
        2,
    );
    const stars = await page
      .locator('#widget-preview [part="review-stars"]')
      .evaluateAll((els) => els.map((el) => el.getAttribute('aria-label')));
    assert.deepEqual(stars, ['5 out of 5 stars', '5 out of 5 stars']);

    await page.getByRole('button', { name: 'Copy snippet' }).click();
    // The status is set once the clipboard's promise resolves, a moment after the click.
    await page
      .getByRole('status')
      .filter({ hasText: 'Snippet copied.' })
      .waitFor({ timeout: 5000 })
      .catch(() => {});
    assert.equal(await page.getByRole('status').textContent(), 'Snippet copied.');
    assert.equal(await page.evaluate(() => navigator.clipboard.readText()), expected);
    await context.close();
  });

  it('has no axe-core violations', async () => {
    const page = await browser.newPage();
    await page.goto(`${content.url}/widget`);
    await widgetsSettled(page);
    const violations = await axeViolations(page);
    assert.deepEqual(violations, [], describeViolations(violations));
    await page.close();
  });
});

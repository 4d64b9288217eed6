/**
 * The floor every page type of the site stands on, in Chromium at 320, 375,
 * 768 and 1280 px, light and dark: nothing scrolls sideways, axe-core finds
 * no violation, the page has a meta description, and the Nu Html Checker
 * finds no error in what the server sends.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { launchChromium } from '../helpers/browser.ts';
import { startServer, type RunningServer } from '../helpers/server.ts';
import { vnuErrors } from '../helpers/vnu.ts';
import { axeViolations, describeViolations } from '../widget/helpers.ts';

let browser: Browser;
let server: RunningServer;
/** Page type → path, with the status it answers. */
let pageTypes: Record<string, { path: string; status: number }>;

before(async () => {
  [browser, server] = await Promise.all([launchChromium(), startServer('content')]);
  const dataset = await (await fetch(`${server.url}/reviews.json`)).json();
  const untitled = dataset.reviews.find((r: { title?: string }) => !r.title);
  pageTypes = {
    home: { path: '/', status: 200 },
    'all reviews': { path: '/reviews/page/2', status: 200 },
    'narrowed, searched and sorted list': {
      path: '/reviews?service=roof-repair&query=roof&sort=highest',
      status: 200,
    },
    'a bad list address': { path: '/reviews?rating=9', status: 400 },
    'a review': { path: `/reviews/${untitled.id}?from=${encodeURIComponent('rating=5&page=2')}`, status: 200 },
    'for developers': { path: '/developers', status: 200 },
    'API reference': { path: '/api-reference', status: 200 },
    'not found': { path: '/no-such-page', status: 404 },
  };
});
after(async () => {
  await browser?.close();
  await server?.stop();
});

const WIDTHS = [320, 375, 768, 1280] as const;

describe('every page type', () => {
  for (const colorScheme of ['light', 'dark'] as const) {
    it(`has no sideways scroll, no axe violation and a meta description at ${WIDTHS.join(', ')} px, ${colorScheme}`, async () => {
      for (const width of WIDTHS) {
        const context = await browser.newContext({ viewport: { width, height: 800 }, colorScheme });
        const page = await context.newPage();
        for (const [name, { path, status }] of Object.entries(pageTypes)) {
          const response = await page.goto(`${server.url}${path}`);
          assert.equal(response?.status(), status, `${name} answers ${status}`);
          const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
          assert.ok(overflow <= 0, `${name} at ${width} px ${colorScheme} scrolls sideways by ${overflow} px`);
          const description = await page.getAttribute('meta[name="description"]', 'content');
          assert.ok(description && description.length > 20, `${name} has a meta description`);
          const violations = await axeViolations(page);
          assert.deepEqual(violations, [], `${name} at ${width} px ${colorScheme}:\n${describeViolations(violations)}`);
        }
        await context.close();
      }
    });
  }

  it('has no Nu Html Checker error', async () => {
    const pages: Record<string, string> = {};
    for (const [name, { path }] of Object.entries(pageTypes))
      pages[name] = await (await fetch(`${server.url}${path}`)).text();
    const errors = await vnuErrors(pages);
    for (const [name, messages] of Object.entries(errors))
      assert.deepEqual(
        messages.map((m) => `${m.message} (${m.extract ?? ''})`),
        [],
        `${name} (${pageTypes[name]!.path})`,
      );
  });
});

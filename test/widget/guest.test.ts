/**
 * The widget as a guest on someone else's page: the host's CSS stays out
 * (only the documented custom properties and parts come in), the page does
 * not jump when the data arrives, it follows the visitor's colour scheme and
 * motion settings, and axe-core finds nothing to report (WCAG 2.2 A/AA).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launchChromium } from '../helpers/browser.ts';
import { startServer, type RunningServer } from '../helpers/server.ts';
import {
  axeViolations,
  describeViolations,
  hostPageHtml,
  startHostSite,
  watchConsole,
  widgetsSettled,
} from './helpers.ts';

/** A hung browser or server fails the suite instead of stalling `npm test`. */
const SUITE_TIMEOUT_MS = 180_000;

let browser: Browser;
let content: RunningServer;
let host: Awaited<ReturnType<typeof startHostSite>>;

before(async () => {
  [browser, content, host] = await Promise.all([launchChromium(), startServer('content'), startHostSite()]);
});
after(async () => {
  await browser?.close();
  await Promise.all([content?.stop(), host?.close()]);
});

/** A host stylesheet that restyles everything it can reach, inherited properties included. */
const HOSTILE_CSS = `
  html { font-size: 10px; }
  body { color: rgb(255, 0, 0); font: italic 30px/3 fantasy; letter-spacing: 4px; word-spacing: 9px; text-transform: uppercase;
         text-align: right; white-space: pre; text-shadow: 1px 1px red; cursor: wait; visibility: visible; }
  * { box-sizing: content-box !important; margin: 7px; }
  p, li, ul, a, span, section, div, time { display: none !important; color: lime !important; }
  a { text-decoration: none; }
  .box, .reviews, .text, [part] { display: none !important; }
`;

const PROBES = [
  '[part="name"]',
  '[part="count"]',
  '[part="review-text"]',
  '[part="review-author"]',
  'time',
  '[part="review"]',
  '[part="box"]',
];
const PROPERTIES = [
  'color',
  'font-family',
  'font-size',
  'font-style',
  'line-height',
  'letter-spacing',
  'word-spacing',
  'text-transform',
  'text-align',
  'white-space',
  'text-shadow',
  'display',
  'text-decoration-line',
  'box-sizing',
  'cursor',
];

async function computedInside(page: Page): Promise<Record<string, Record<string, string>>> {
  return page.locator('roofing-reviews').evaluate(
    (el, { probes, properties }) => {
      const out: Record<string, Record<string, string>> = {};
      for (const probe of probes) {
        const node = el.shadowRoot!.querySelector(probe)!;
        const style = getComputedStyle(node);
        out[probe] = Object.fromEntries(properties.map((p) => [p, style.getPropertyValue(p)]));
        out[probe]!.height = String(node.getBoundingClientRect().height);
      }
      return out;
    },
    { probes: PROBES, properties: PROPERTIES },
  );
}

async function openHost(context: Browser | BrowserContext, html: string): Promise<Page> {
  const page = await context.newPage();
  await page.goto(host.page(html));
  await widgetsSettled(page);
  return page;
}

describe('the widget on a hostile page', { timeout: SUITE_TIMEOUT_MS }, () => {
  it('looks the same inside whatever the host page styles', async () => {
    const clean = await openHost(browser, hostPageHtml(content.url, [{ limit: '2' }]));
    const hostile = await openHost(browser, hostPageHtml(content.url, [{ limit: '2' }], { css: HOSTILE_CSS }));
    const [expected, actual] = await Promise.all([computedInside(clean), computedInside(hostile)]);
    assert.deepEqual(actual, expected);
    // The comparison is not vacuous: the host's CSS did change the host page.
    assert.equal(await hostile.locator('h1').evaluate((h1) => getComputedStyle(h1).textTransform), 'uppercase');
    assert.notEqual(expected['[part="review-text"]']!.color, 'rgb(255, 0, 0)');
    await Promise.all([clean.close(), hostile.close()]);
  });

  it('takes the documented custom properties and ::part()s from the host', async () => {
    const css = `roofing-reviews { --roofing-reviews-accent: rgb(1, 2, 3); --roofing-reviews-bg: rgb(250, 250, 240); --roofing-reviews-font: monospace; }
      roofing-reviews::part(name) { text-transform: uppercase; }
      roofing-reviews::part(review) { border-top-color: rgb(9, 8, 7); }`;
    const page = await openHost(browser, hostPageHtml(content.url, [{ limit: '2' }], { css }));
    const styles = await page.locator('roofing-reviews').evaluate((el) => {
      const at = (selector: string) => getComputedStyle(el.shadowRoot!.querySelector(selector)!);
      return {
        link: at('[part="count"]').color,
        background: at('[part="box"]').backgroundColor,
        font: at('[part="review-text"]').fontFamily,
        name: at('[part="name"]').textTransform,
        review: at('[part="review"]').borderTopColor,
      };
    });
    assert.deepEqual(styles, {
      link: 'rgb(1, 2, 3)',
      background: 'rgb(250, 250, 240)',
      font: 'monospace',
      name: 'uppercase',
      review: 'rgb(9, 8, 7)',
    });
    await page.close();
  });
});

describe('the widget and the page around it', { timeout: SUITE_TIMEOUT_MS }, () => {
  /**
   * Holds /widget.json until released, so the loading state can be measured.
   * (Routing turns the browser's HTTP cache off, so this context is used for nothing else.)
   */
  async function heldContext(options: Parameters<Browser['newContext']>[0] = {}) {
    const context = await browser.newContext(options);
    let release!: () => void;
    const released = new Promise<void>((resolveRelease) => (release = resolveRelease));
    await context.route(`${content.url}/widget.json`, async (route) => {
      await released;
      await route.continue();
    });
    return { context, release };
  }

  for (const attributes of [
    { limit: '3' },
    { layout: 'compact', limit: '5' },
    { limit: '10', 'min-rating': '1', technician: 'dave-kowalski', service: 'gutters' },
  ]) {
    it(`keeps its height while the reviews come in, with the page below it on screen: ${JSON.stringify(attributes)}`, async () => {
      // Tall enough that the paragraph after the widget is on screen: the height is held, not let go.
      const { context, release } = await heldContext({ viewport: { width: 1280, height: 2600 } });
      const page = await context.newPage();
      await page.goto(
        host.page(
          hostPageHtml(content.url, [attributes], {
            before: '<p>Above</p>',
            css: 'roofing-reviews{max-width:36rem}',
          }).replace('</main>', '<p id="below">Below</p></main>'),
        ),
      );
      await page.waitForFunction(() =>
        document.querySelector('roofing-reviews')?.shadowRoot?.querySelector('.box[aria-busy="true"]'),
      );
      const below = () => page.locator('#below').evaluate((el) => el.getBoundingClientRect().top);
      const [loading, belowLoading] = [
        await page.locator('roofing-reviews').evaluate((el) => el.getBoundingClientRect().height),
        await below(),
      ];
      assert.ok(belowLoading < 2600, 'the paragraph below is on screen');
      release();
      await widgetsSettled(page);
      await page.waitForTimeout(200);
      const loaded = await page.locator('roofing-reviews').evaluate((el) => el.getBoundingClientRect().height);
      const reviews = await page.locator('roofing-reviews [part="review"]').count();
      assert.ok(reviews > 0);
      assert.ok(
        Math.abs(loaded - loading) < 0.5,
        `height ${loading}px while loading, ${loaded}px with ${reviews} reviews`,
      );
      assert.equal(await below(), belowLoading);
      assert.ok(loading > 200, `a real reservation (${loading}px)`);
      await context.close();
    });
  }

  it('animates the loading placeholder only for visitors who have not asked for reduced motion', async () => {
    const names: Record<string, string> = {};
    for (const reducedMotion of ['no-preference', 'reduce'] as const) {
      const { context, release } = await heldContext({ reducedMotion });
      const page = await context.newPage();
      await page.goto(host.page(hostPageHtml(content.url, [{ limit: '2' }])));
      await page.waitForFunction(() =>
        document.querySelector('roofing-reviews')?.shadowRoot?.querySelector('.box[aria-busy="true"]'),
      );
      names[reducedMotion] = await page
        .locator('roofing-reviews')
        .evaluate((el) => getComputedStyle(el.shadowRoot!.querySelector('.bar')!).animationName);
      release();
      await context.close();
    }
    assert.deepEqual(names, { 'no-preference': 'pulse', reduce: 'none' });
  });

  it('follows the visitor’s colour scheme', async () => {
    const colours: Record<string, string[]> = {};
    for (const colorScheme of ['light', 'dark'] as const) {
      const context = await browser.newContext({ colorScheme });
      const page = await openHost(context, hostPageHtml(content.url, [{ limit: '1' }]));
      colours[colorScheme] = await page.locator('roofing-reviews').evaluate((el) => {
        const box = el.shadowRoot!.querySelector('[part="box"]')!;
        return [getComputedStyle(box).backgroundColor, getComputedStyle(box).color];
      });
      await context.close();
    }
    assert.deepEqual(colours, {
      light: ['rgb(255, 255, 255)', 'rgb(27, 31, 36)'],
      dark: ['rgb(27, 31, 36)', 'rgb(244, 241, 236)'],
    });
  });

  it('is reached by keyboard in reading order, with a visible focus ring', async () => {
    const page = await openHost(browser, hostPageHtml(content.url, [{ limit: '2' }]));
    const focused = async () =>
      page.evaluate(() => {
        const inner = document.activeElement?.shadowRoot?.activeElement;
        return inner
          ? { part: inner.getAttribute('part'), outline: getComputedStyle(inner).outlineStyle }
          : { part: document.activeElement?.tagName ?? null, outline: '' };
      });
    const order = [];
    for (let i = 0; i < 4; i++) {
      await page.keyboard.press('Tab');
      order.push(await focused());
    }
    assert.deepEqual(order, [
      { part: 'count', outline: 'solid' },
      { part: 'about', outline: 'solid' },
      { part: 'review-link', outline: 'solid' },
      { part: 'review-link', outline: 'solid' },
    ]);
    await page.close();
  });

  for (const colorScheme of ['light', 'dark'] as const) {
    it(`has no axe-core violations (${colorScheme} scheme, both layouts, a filter)`, async () => {
      const context = await browser.newContext({ colorScheme });
      const page = await context.newPage();
      const seen = watchConsole(page);
      await page.goto(
        host.page(
          hostPageHtml(content.url, [
            { limit: '3' },
            { layout: 'compact', limit: '3' },
            { 'min-rating': '5', limit: '2' },
          ]),
        ),
      );
      await widgetsSettled(page);
      assert.equal(await page.locator('roofing-reviews [part="review"]').count(), 8);
      const violations = await axeViolations(page);
      assert.deepEqual(violations, [], describeViolations(violations));
      assert.deepEqual(seen.errors, []);
      await context.close();
    });
  }

  it('has no axe-core violations in its fallback state', async () => {
    const page = await browser.newPage();
    await page.goto(host.page(hostPageHtml(content.url, [{ limit: 'many' }])));
    await widgetsSettled(page);
    const violations = await axeViolations(page);
    assert.deepEqual(violations, [], describeViolations(violations));
    await page.close();
  });
});

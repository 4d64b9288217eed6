/**
 * /trends in Chromium: the charts are there with JavaScript off and on, each
 * with its title, reading and table of the same figures as insights.json;
 * axe-core finds nothing in light and dark; no element overlaps another (tick
 * labels inside the charts included); nothing shifts while it loads; the page
 * keeps its weight budget; and at 10k reviews it is built and its charts are
 * drawn in a small share of the build's time.
 */
import assert from 'node:assert/strict';
import { gzipSync } from 'node:zlib';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { trendCharts } from '../../src/lib/insights/trends-charts.ts';
import { launchChromium } from '../helpers/browser.ts';
import { startServer, type RunningServer } from '../helpers/server.ts';
import { axeViolations, describeViolations } from '../widget/helpers.ts';

let browser: Browser;
let content: RunningServer;
let small: RunningServer;
let large: RunningServer;

before(async () => {
  [browser, content, small, large] = await Promise.all([
    launchChromium(),
    startServer('content'),
    startServer('small'),
    startServer('large'),
  ]);
});
after(async () => {
  await browser?.close();
  await Promise.all([content?.stop(), small?.stop(), large?.stop()]);
});

/** What a visitor downloads for the page, gzip-compressed: the home page's order of size (12 KB on content/). */
const GZIP_BUDGET_BYTES = 24 * 1024;
/** At 10k reviews the charts cover more months, not more reviews: the budget grows by the span only. */
const GZIP_BUDGET_LARGE_BYTES = 40 * 1024;

const CHARTS = ['trend-rating', 'trend-volume', 'trend-aspects', 'trend-reply-rate', 'trend-reply-time'];

async function checkCharts(page: Page, insights: any) {
  for (const id of CHARTS) {
    const section = page.locator(`section[aria-labelledby="${id}-heading"]`);
    assert.equal(await section.count(), 1, id);
    assert.ok(((await section.locator('h2').textContent()) ?? '').length > 5, `${id} has a title`);
    assert.ok(((await section.locator('p.reading').first().textContent()) ?? '').length > 20, `${id} has a reading`);
    assert.equal(await section.locator('table caption').count(), 1, `${id} has its table`);
  }
  const svgs = page.locator('main svg');
  assert.equal(await svgs.count(), 4 + insights.aspects.length, 'four charts and one small chart per aspect');
  for (const svg of await svgs.all()) {
    const box = await svg.boundingBox();
    assert.ok(box && box.width > 100 && box.height > 50, 'each chart is drawn');
    assert.equal(await svg.getAttribute('aria-hidden'), 'true');
  }
  // The rating table: one row per quarter with insights.json's figures.
  const rows = await page.locator('section[aria-labelledby="trend-rating-heading"] tbody tr').allTextContents();
  assert.equal(rows.length, insights.trends.quarters.length);
  insights.trends.quarters.forEach((q: any, i: number) => {
    const [year, n] = q.quarter.split('-');
    assert.equal(
      rows[i],
      `${n} ${year}${q.review_count}${q.average_rating === null ? '—' : q.average_rating.toFixed(2)}`,
    );
  });
  const r = insights.trends.recent;
  const reading = await page.getByTestId('trend-rating-reading').textContent();
  assert.ok(
    reading?.includes(r.current.average_rating.toFixed(2)) && reading.includes(r.previous.average_rating.toFixed(2)),
    reading ?? '',
  );
  const direction = r.change.average_rating > 0 ? 'up' : r.change.average_rating < 0 ? 'down' : 'unchanged';
  assert.ok(reading?.startsWith(`Rating ${direction}`), reading ?? '');
  const volume = await page.getByTestId('trend-volume-reading').textContent();
  assert.ok(volume?.startsWith(`${r.current.review_count} review`), volume ?? '');
  const replies = await page.getByTestId('trend-reply-rate-reading').textContent();
  assert.ok(replies?.startsWith(`${Math.round(r.current.reply_rate * 100)}% of the reviews`), replies ?? '');
}

/** Pairs of visible boxes that intersect: elements of main that are not inside one another, and the text of each chart. */
async function overlaps(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const found: string[] = [];
    const name = (e: Element) =>
      `${e.tagName.toLowerCase()}${e.id ? `#${e.id}` : ''} "${(e.textContent ?? '').trim().slice(0, 30)}"`;
    const visible = (e: Element) => {
      const r = e.getBoundingClientRect();
      return r.width > 1 && r.height > 1 && getComputedStyle(e).visibility !== 'hidden';
    };
    const intersect = (a: DOMRect, b: DOMRect) =>
      a.left < b.right - 0.5 && b.left < a.right - 0.5 && a.top < b.bottom - 0.5 && b.top < a.bottom - 0.5;
    const blocks = [...document.querySelectorAll('main h1, main h2, main h3, main p, main svg, main li')].filter(
      visible,
    );
    for (let i = 0; i < blocks.length; i++) {
      for (let j = i + 1; j < blocks.length; j++) {
        const [a, b] = [blocks[i], blocks[j]];
        if (a.contains(b) || b.contains(a)) continue;
        if (intersect(a.getBoundingClientRect(), b.getBoundingClientRect()))
          found.push(`${name(a)} overlaps ${name(b)}`);
      }
    }
    for (const svg of document.querySelectorAll('main svg')) {
      const texts = [...svg.querySelectorAll('text')].filter(visible);
      for (let i = 0; i < texts.length; i++) {
        for (let j = i + 1; j < texts.length; j++) {
          if (intersect(texts[i].getBoundingClientRect(), texts[j].getBoundingClientRect()))
            found.push(`chart text ${name(texts[i])} overlaps ${name(texts[j])}`);
        }
      }
    }
    return found;
  });
}

describe('/trends', () => {
  it('is linked from the home page', async () => {
    const page = await browser.newPage();
    await page.goto(`${content.url}/`);
    const link = page.locator('a[href="/trends"]');
    assert.equal(await link.count(), 1);
    await link.click();
    assert.equal(await page.locator('h1').textContent(), 'How the reviews move over time');
    await page.close();
  });

  for (const javaScriptEnabled of [false, true]) {
    it(`shows every chart with its title, reading and table, JavaScript ${javaScriptEnabled ? 'on' : 'off'}`, async () => {
      const insights = await (await fetch(`${content.url}/insights.json`)).json();
      const context = await browser.newContext({ javaScriptEnabled });
      const page = await context.newPage();
      const response = await page.goto(`${content.url}/trends`);
      assert.equal(response?.status(), 200);
      await checkCharts(page, insights);
      assert.equal(await page.locator('script:not([type="application/ld+json"])').count(), 0, 'no client script');
      await context.close();
    });
  }

  for (const colorScheme of ['light', 'dark'] as const) {
    it(`axe-core finds no violations and no element overlaps another, ${colorScheme}, desktop and phone`, async () => {
      for (const viewport of [
        { width: 1280, height: 900 },
        { width: 360, height: 740 },
      ]) {
        const context = await browser.newContext({ colorScheme, viewport });
        const page = await context.newPage();
        await page.goto(`${content.url}/trends`);
        const violations = await axeViolations(page);
        assert.deepEqual(violations, [], describeViolations(violations));
        assert.deepEqual(await overlaps(page), []);
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
        assert.ok(overflow <= 0, `page is ${overflow}px wider than the screen`);
        // The charts follow the scheme: their text is the page's text colour.
        const [body, axis] = await page.evaluate(() => [
          getComputedStyle(document.body).color,
          getComputedStyle(document.querySelector('main svg text')!).fill,
        ]);
        assert.equal(axis, body);
        await context.close();
      }
    });
  }

  it('shifts no layout while it loads (every chart has its size before it paints)', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    await page.addInitScript(() => {
      (window as any).__shift = 0;
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries() as any[])
          if (!entry.hadRecentInput) (window as any).__shift += entry.value;
      }).observe({ type: 'layout-shift', buffered: true });
    });
    await page.goto(`${content.url}/trends`, { waitUntil: 'load' });
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => setTimeout(r, 200))));
    assert.equal(await page.evaluate(() => (window as any).__shift), 0);
    for (const svg of await page.locator('main svg').all()) {
      assert.match((await svg.getAttribute('width')) ?? '', /^\d+$/);
      assert.match((await svg.getAttribute('height')) ?? '', /^\d+$/);
    }
    await context.close();
  });

  it('keeps its weight budget', async () => {
    for (const [server, budget] of [
      [content, GZIP_BUDGET_BYTES],
      [large, GZIP_BUDGET_LARGE_BYTES],
    ] as const) {
      const html = Buffer.from(await (await fetch(`${server.url}/trends`)).arrayBuffer());
      const gzip = gzipSync(html, { level: 9 }).length;
      assert.ok(gzip <= budget, `${server.url}/trends: ${gzip} bytes gzip (${html.length} raw), budget ${budget}`);
    }
  });

  it('keeps hostile review text off the page and runs no script (small fixture)', async () => {
    const page = await browser.newPage();
    const dialogs: string[] = [];
    page.on('dialog', (d) => {
      dialogs.push(d.message());
      void d.dismiss();
    });
    assert.equal((await page.goto(`${small.url}/trends`))?.status(), 200);
    assert.equal(
      await page.evaluate(
        () => (window as any).__pwned ?? (window as any).__pwned_title ?? (window as any).__pwned_author,
      ),
      undefined,
    );
    assert.deepEqual(dialogs, []);
    assert.equal(await page.locator('main script, main img, main foreignObject').count(), 0);
    await page.close();
  });

  it('at 10k reviews: the page is built, and its charts take a small share of the build', async (t) => {
    const page = await browser.newPage();
    assert.equal((await page.goto(`${large.url}/trends`))?.status(), 200);
    const insights = await (await fetch(`${large.url}/insights.json`)).json();
    assert.equal(await page.locator('main svg').count(), 4 + insights.aspects.length);
    assert.deepEqual(await overlaps(page), []);
    await page.close();
    // docs/performance.md: the 10k build takes 12-13 s of wall time idle; the charts must not be what moves it.
    const labels = insights.aspects.map((a: { id: string; label: string }) => ({ id: a.id, label: a.label }));
    trendCharts(insights.trends, labels);
    const started = performance.now();
    trendCharts(insights.trends, labels);
    const ms = performance.now() - started;
    t.diagnostic(`charts of ${insights.trends.months.length} months at 10k reviews: ${Math.round(ms)} ms`);
    assert.ok(ms < 1000, `${Math.round(ms)} ms`);
  });
});

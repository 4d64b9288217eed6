/**
 * /trends in Chromium: every chart is there with JavaScript off and on, with
 * its title, reading, one drawing for the column's width, a tooltip on each
 * value, its numbers under "Show the numbers" (reachable from the keyboard)
 * and its CSV link; at 320, 375, 768 and 1280 px, light and dark, no text in
 * main renders under 12 px, nothing overlaps, nothing scrolls sideways and
 * axe-core finds nothing; the Nu Html Checker finds no error; nothing shifts
 * while it loads; the page keeps its weight budget; and at 10k reviews it is
 * built and its charts are drawn in a small share of the build's time.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { trendCharts } from '../../src/lib/insights/trends-charts.ts';
import { launchChromium } from '../helpers/browser.ts';
import { ROOT } from '../helpers/builds.ts';
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

/** What a visitor downloads for the page, gzip-compressed (21 KB on content/, 34 KB at 10k reviews, measured). */
const GZIP_BUDGET_BYTES = 24 * 1024;
/** At 10k reviews the charts cover more months, not more reviews: the budget grows by the span only. */
const GZIP_BUDGET_LARGE_BYTES = 40 * 1024;

const CHARTS = [
  'trend-velocity',
  'trend-volume',
  'trend-rating',
  'trend-reply-rate',
  'trend-reply-time',
  'trend-aspects',
];
const WIDTHS = [320, 375, 768, 1280];

async function checkCharts(page: Page, insights: any) {
  const trends = insights.trends;
  for (const id of CHARTS) {
    const section = page.locator(`section[aria-labelledby="${id}-heading"]`);
    assert.equal(await section.count(), 1, id);
    assert.ok(((await section.locator('h2').textContent()) ?? '').length > 5, `${id} has a title`);
    assert.ok(((await section.locator('p.reading').first().textContent()) ?? '').length > 20, `${id} has a reading`);
    assert.equal(await section.locator('details > summary').textContent(), 'Show the numbers');
    assert.equal(await section.locator('details table caption').count(), 1, `${id} has its table`);
    const csv = await section.locator('p.trend-csv a').getAttribute('href');
    const response = await fetch(`${new URL(page.url()).origin}${csv}`);
    assert.equal(response.status, 200, `${id}: ${csv}`);
    assert.match(response.headers.get('content-type') ?? '', /^text\/csv/);
  }
  // One drawing shows per chart (and per aspect), whatever the width.
  const visible = await page.locator('main svg:visible').count();
  assert.equal(visible, 5 + insights.aspects.length, 'five charts and one small chart per aspect');
  for (const svg of await page.locator('main svg:visible').all()) {
    const box = await svg.boundingBox();
    assert.ok(box && box.width > 100 && box.height > 50, 'each chart is drawn');
    assert.equal(await svg.getAttribute('aria-hidden'), 'true');
  }
  // Every value has its tooltip: a <title> in its bar or dot.
  const titles = async (id: string) =>
    page.locator(`section[aria-labelledby="${id}-heading"] svg:visible title`).allTextContents();
  assert.equal((await titles('trend-volume')).length, trends.months.length);
  assert.equal((await titles('trend-velocity')).length, 12);
  const withRating = trends.quarters.filter((q: any) => q.average_rating !== null);
  assert.deepEqual((await titles('trend-rating')).slice(0, 1), [
    `${withRating[0].quarter.slice(5)} ${withRating[0].quarter.slice(0, 4)}: ${withRating[0].average_rating.toFixed(2)} stars from ${withRating[0].review_count} review${withRating[0].review_count === 1 ? '' : 's'}`,
  ]);
  const replyTimes = trends.quarters.filter((q: any) => q.median_reply_hours !== null).length;
  assert.equal((await titles('trend-reply-time')).length, 2 * replyTimes, 'median and 90th percentile of each quarter');
  // The rating table: one row per quarter with insights.json's figures.
  const rows = await page.locator('section[aria-labelledby="trend-rating-heading"] tbody tr').allTextContents();
  assert.equal(rows.length, trends.quarters.length);
  trends.quarters.forEach((q: any, i: number) => {
    const [year, n] = q.quarter.split('-');
    assert.equal(
      rows[i],
      `${n} ${year}${q.review_count}${q.average_rating === null ? '—' : q.average_rating.toFixed(2)}`,
    );
  });
  // The comparisons, in words, as insights.json says them.
  const r = trends.recent;
  for (const c of r.comparisons) {
    const card = page.getByTestId(`trend-compare-${c.id}`);
    const text = (await card.textContent()) ?? '';
    for (const v of [c.vs_previous, c.vs_year_ago])
      assert.ok(
        text.includes(v.direction === 'not_enough_reviews' ? 'not enough reviews' : v.direction),
        `${c.id}: ${text}`,
      );
    assert.equal(await card.locator(`[title="${c.vs_year_ago.text}"]`).count(), 1, 'the sentence on hover');
  }
  const volume = await page.getByTestId('trend-volume-reading').textContent();
  assert.ok(volume?.startsWith(`${r.current.review_count} review`), volume ?? '');
  const replies = await page.getByTestId('trend-reply-rate-reading').textContent();
  assert.ok(replies?.startsWith(`${Math.round(r.current.reply_rate * 100)}% of the reviews`), replies ?? '');
  // What waits for an answer: the oldest first, linked to its page.
  const waiting = page.locator('.trend-unanswered li a');
  assert.equal(await waiting.count(), Math.min(20, trends.unanswered_low_rated.length));
  if (trends.unanswered_low_rated.length > 0)
    assert.equal(await waiting.first().getAttribute('href'), trends.unanswered_low_rated[0].path);
}

/** Pairs of visible boxes that intersect: blocks of main not inside one another, and the text of each chart. */
async function overlaps(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const found: string[] = [];
    const name = (e: Element) =>
      `${e.tagName.toLowerCase()}${e.id ? `#${e.id}` : ''} "${(e.textContent ?? '').trim().slice(0, 30)}"`;
    const visible = (e: Element) => {
      const r = e.getBoundingClientRect();
      // checkVisibility: the content of a closed <details> keeps its boxes, but is not rendered.
      return r.width > 1 && r.height > 1 && e.checkVisibility({ visibilityProperty: true });
    };
    const intersect = (a: DOMRect, b: DOMRect) =>
      a.left < b.right - 0.5 && b.left < a.right - 0.5 && a.top < b.bottom - 0.5 && b.top < a.bottom - 0.5;
    const blocks = [
      ...document.querySelectorAll('main h1, main h2, main h3, main p, main svg, main li, main summary, main table'),
    ].filter(visible);
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

/** The smallest rendered text size in main, px: an SVG's text scaled by its drawn width over its viewBox. */
async function smallestText(page: Page): Promise<{ px: number; where: string }> {
  return page.evaluate(() => {
    let smallest = { px: Infinity, where: '' };
    const consider = (px: number, e: Element) => {
      if (px < smallest.px) smallest = { px, where: `${e.tagName} "${(e.textContent ?? '').trim().slice(0, 30)}"` };
    };
    for (const e of document.querySelectorAll('main *')) {
      const r = e.getBoundingClientRect();
      if (r.width < 1 || r.height < 1 || !e.checkVisibility({ visibilityProperty: true })) continue;
      if (![...e.childNodes].some((n) => n.nodeType === 3 && n.textContent!.trim())) continue;
      const svg = e.closest('svg');
      const scale = svg ? svg.getBoundingClientRect().width / svg.viewBox.baseVal.width : 1;
      consider(parseFloat(getComputedStyle(e).fontSize) * scale, e);
    }
    return smallest;
  });
}

describe('/trends', () => {
  it('is linked from the home page', async () => {
    const page = await browser.newPage();
    await page.goto(`${content.url}/`);
    // The header's menu, and the footer's.
    const link = page.locator('header a[href="/trends"]');
    assert.equal(await link.count(), 1);
    await link.click();
    assert.equal(await page.locator('h1').textContent(), 'How the reviews move over time');
    await page.close();
  });

  for (const javaScriptEnabled of [false, true]) {
    it(`shows every chart with its title, reading, tooltips, numbers and CSV, JavaScript ${javaScriptEnabled ? 'on' : 'off'}`, async () => {
      const insights = await (await fetch(`${content.url}/insights.json`)).json();
      const context = await browser.newContext({ javaScriptEnabled, viewport: { width: 1280, height: 900 } });
      const page = await context.newPage();
      const response = await page.goto(`${content.url}/trends`);
      assert.equal(response?.status(), 200);
      await checkCharts(page, insights);
      assert.equal(await page.locator('script:not([type="application/ld+json"])').count(), 0, 'no client script');
      await context.close();
    });
  }

  it("opens each chart's numbers from the keyboard", async () => {
    const page = await browser.newPage({ viewport: { width: 375, height: 800 } });
    await page.goto(`${content.url}/trends`);
    const summary = page.locator('section[aria-labelledby="trend-volume-heading"] summary');
    await summary.focus();
    assert.equal(await page.locator('section[aria-labelledby="trend-volume-heading"] table').isVisible(), false);
    await page.keyboard.press('Enter');
    assert.equal(await page.locator('section[aria-labelledby="trend-volume-heading"] table').isVisible(), true);
    await page.close();
  });

  for (const colorScheme of ['light', 'dark'] as const) {
    it(`at ${WIDTHS.join(', ')} px, ${colorScheme}: text 12 px or more, nothing overlaps or scrolls sideways, axe finds nothing`, async () => {
      for (const width of WIDTHS) {
        const context = await browser.newContext({ colorScheme, viewport: { width, height: 900 } });
        const page = await context.newPage();
        await page.goto(`${content.url}/trends`);
        const violations = await axeViolations(page);
        assert.deepEqual(violations, [], describeViolations(violations));
        assert.deepEqual(await overlaps(page), [], `${width} px`);
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
        assert.ok(overflow <= 0, `${width} px: page is ${overflow}px wider than the screen`);
        const smallest = await smallestText(page);
        assert.ok(smallest.px >= 12, `${width} px: ${smallest.where} renders at ${smallest.px.toFixed(1)} px`);
        // Each chart fills its column: its drawing is as wide as the section.
        for (const id of ['trend-volume', 'trend-rating']) {
          const [svg, section] = await Promise.all([
            page.locator(`section[aria-labelledby="${id}-heading"] svg:visible`).boundingBox(),
            page.locator(`section[aria-labelledby="${id}-heading"]`).boundingBox(),
          ]);
          assert.ok(
            Math.abs(svg!.width - section!.width) < 1,
            `${id} at ${width} px: ${svg!.width} of ${section!.width}`,
          );
        }
        // The charts follow the scheme: their text is the page's text colour.
        const [body, axis] = await page.evaluate(() => [
          getComputedStyle(document.body).color,
          getComputedStyle(document.querySelector('main svg:not([hidden]) text')!).fill,
        ]);
        assert.equal(axis, body);
        // With every table open, still nothing overlaps and nothing scrolls sideways.
        await page.evaluate(() => document.querySelectorAll('main details').forEach((d) => d.setAttribute('open', '')));
        assert.deepEqual(await overlaps(page), [], `${width} px, tables open`);
        assert.ok(
          (await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)) <= 0,
          `${width} px, tables open: sideways scroll`,
        );
        await context.close();
      }
    });
  }

  it('is valid HTML: the Nu Html Checker reports no error', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'trends-vnu-'));
    try {
      const files = [];
      for (const [name, server] of [
        ['content', content],
        ['large', large],
      ] as const) {
        const file = join(dir, `${name}.html`);
        writeFileSync(file, await (await fetch(`${server.url}/trends`)).text());
        files.push(file);
      }
      const vnu = resolve(ROOT, 'node_modules/vnu-jar/build/dist/vnu.jar');
      const result = spawnSync('java', ['-jar', vnu, '--errors-only', '--format', 'json', ...files], {
        encoding: 'utf8',
      });
      const messages = JSON.parse(result.stderr || result.stdout || '{"messages":[]}').messages;
      assert.deepEqual(
        messages.map((m: { message: string; url: string }) => `${m.url}: ${m.message}`),
        [],
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

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

  it('at 10k reviews: the page is built and readable at 375 and 1280 px, and its charts take a small share of the build', async (t) => {
    const insights = await (await fetch(`${large.url}/insights.json`)).json();
    for (const width of [375, 1280]) {
      const page = await browser.newPage({ viewport: { width, height: 900 } });
      assert.equal((await page.goto(`${large.url}/trends`))?.status(), 200);
      assert.equal(await page.locator('main svg:visible').count(), 5 + insights.aspects.length);
      assert.deepEqual(await overlaps(page), [], `${width} px`);
      const smallest = await smallestText(page);
      assert.ok(smallest.px >= 12, `${width} px: ${smallest.where} renders at ${smallest.px.toFixed(1)} px`);
      assert.ok((await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)) <= 0);
      await page.close();
    }
    // docs/performance.md: the 10k build takes 12-13 s of wall time idle; the charts must not be what moves it.
    // Three widths of six charts and nine small multiples: 1.3-1.9 s measured with the 2 cores shared (load 26).
    const labels = insights.aspects.map((a: { id: string; label: string }) => ({ id: a.id, label: a.label }));
    trendCharts(insights.trends, labels);
    const started = performance.now();
    trendCharts(insights.trends, labels);
    const ms = performance.now() - started;
    t.diagnostic(`charts of ${insights.trends.months.length} months at 10k reviews: ${Math.round(ms)} ms`);
    assert.ok(ms < 3000, `${Math.round(ms)} ms`);
  });
});

/**
 * The home page's layout in Chromium at a phone's, a tablet's and a desktop's
 * width, judged by bounding boxes: the header bar holds its links on single
 * lines, the h1 keeps clear of the bar, no two texts of the header, headings
 * and rating distribution overlap, and each distribution row keeps its label,
 * bar and count on one line, side by side. A screenshot of each width is kept
 * under .test-builds/artifacts/ for a person to look at when this fails.
 */
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { launchChromium } from '../helpers/browser.ts';
import { TEST_BUILDS_DIR } from '../helpers/builds.ts';
import { startServer, type RunningServer } from '../helpers/server.ts';

const ARTIFACTS = join(TEST_BUILDS_DIR, 'artifacts', 'layout');
const WIDTHS = [375, 768, 1280] as const;
/** Less than this between the header bar and the h1 reads as touching. */
const MIN_GAP_BELOW_HEADER = 12;

let browser: Browser;
let server: RunningServer;

before(async () => {
  mkdirSync(ARTIFACTS, { recursive: true });
  [browser, server] = await Promise.all([launchChromium(), startServer('content')]);
});
after(async () => {
  await browser?.close();
  await server?.stop();
});

interface Box {
  top: number;
  bottom: number;
  left: number;
  right: number;
}
interface TextBox {
  what: string;
  lines: number;
  boxes: Box[];
}

/**
 * For each element the selector finds: the boxes of its text as laid out, one
 * per line fragment, and how many lines that text takes. Text a screen reader
 * alone reads (.visually-hidden) is left out: it is laid out off to the side.
 */
function textBoxes(page: Page, selector: string): Promise<TextBox[]> {
  return page.evaluate((selector) => {
    return [...document.querySelectorAll(selector)].map((element) => {
      const boxes: Box[] = [];
      const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        if (!node.textContent?.trim() || node.parentElement?.closest('.visually-hidden')) continue;
        const range = document.createRange();
        range.selectNodeContents(node);
        for (const r of range.getClientRects()) {
          if (r.width > 0 && r.height > 0) boxes.push({ top: r.top, bottom: r.bottom, left: r.left, right: r.right });
        }
      }
      const lines = new Set(boxes.map((b) => Math.round((b.top + b.bottom) / 2))).size;
      return {
        what: `${selector} "${(element.textContent ?? '').trim().replace(/\s+/g, ' ').slice(0, 30)}"`,
        lines,
        boxes,
      };
    });
  }, selector);
}

function box(page: Page, selector: string): Promise<Box> {
  return page
    .locator(selector)
    .first()
    .evaluate((element) => {
      const r = element.getBoundingClientRect();
      return { top: r.top, bottom: r.bottom, left: r.left, right: r.right };
    });
}

/** Overlap by more than a rounding pixel. */
function overlap(a: Box, b: Box): boolean {
  return (
    Math.min(a.right, b.right) - Math.max(a.left, b.left) > 1 &&
    Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top) > 1
  );
}

function within(inner: Box, outer: Box): boolean {
  return (
    inner.top >= outer.top - 0.5 &&
    inner.bottom <= outer.bottom + 0.5 &&
    inner.left >= outer.left - 0.5 &&
    inner.right <= outer.right + 0.5
  );
}

describe('home page layout', () => {
  for (const width of WIDTHS) {
    it(`at ${width} px: header, headings and rating distribution neither overlap nor wrap out of their rows`, async () => {
      const context = await browser.newContext({ viewport: { width, height: 900 }, javaScriptEnabled: false });
      const page = await context.newPage();
      await page.goto(`${server.url}/`);
      await page.screenshot({ path: join(ARTIFACTS, `home-${width}.png`) });

      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      assert.ok(overflow <= 0, `the page is ${overflow}px wider than the window`);

      // The header bar: each link on one line, inside the bar.
      const bar = await box(page, '.site-header');
      const headerTexts = await textBoxes(page, '.site-header a');
      assert.ok(headerTexts.length >= 2);
      for (const text of headerTexts) {
        assert.equal(text.lines, 1, `${text.what} takes ${text.lines} lines`);
        for (const b of text.boxes) assert.ok(within(b, bar), `${text.what} leaves the header bar`);
      }

      // The h1 clear of the bar, inside the page's width.
      const h1 = await box(page, 'main h1');
      assert.ok(
        h1.top - bar.bottom >= MIN_GAP_BELOW_HEADER,
        `the h1 is ${Math.round(h1.top - bar.bottom)}px below the header bar`,
      );
      assert.ok(h1.left >= 0 && h1.right <= width, 'the h1 fits the window');

      // No two texts of the header, the headings and the distribution overlap.
      const texts = [
        ...headerTexts,
        ...(await textBoxes(page, 'main h1, main .lede, .facts h2, .distribution li > * > span:not(.bar)')),
      ];
      for (let i = 0; i < texts.length; i++) {
        for (let j = i + 1; j < texts.length; j++) {
          for (const a of texts[i]!.boxes) {
            for (const b of texts[j]!.boxes) assert.ok(!overlap(a, b), `${texts[i]!.what} overlaps ${texts[j]!.what}`);
          }
        }
      }

      // Each distribution row: label, bar and count on one line, side by side, the bars in one column.
      const rows = await page.locator('.distribution li').evaluateAll((items) =>
        items.map((li) => {
          const [label, bar, count] = [...li.firstElementChild!.children].map((child) => {
            const r = child.getBoundingClientRect();
            return { top: r.top, bottom: r.bottom, left: r.left, right: r.right };
          });
          const r = li.getBoundingClientRect();
          return {
            row: { top: r.top, bottom: r.bottom, left: r.left, right: r.right },
            label: label!,
            bar: bar!,
            count: count!,
          };
        }),
      );
      assert.equal(rows.length, 5);
      const labels = await textBoxes(page, '.distribution li > * > span:first-child');
      const counts = await textBoxes(page, '.distribution li > * > span:last-child');
      for (const [i, row] of rows.entries()) {
        assert.equal(labels[i]!.lines, 1, `${labels[i]!.what} takes ${labels[i]!.lines} lines`);
        assert.equal(counts[i]!.lines, 1, `${counts[i]!.what} takes ${counts[i]!.lines} lines`);
        for (const cell of [row.label, row.bar, row.count])
          assert.ok(within(cell, row.row), `row ${i + 1}: a cell leaves its row`);
        assert.ok(
          row.label.right <= row.bar.left && row.bar.right <= row.count.left,
          `row ${i + 1}: label, bar and count not side by side`,
        );
        assert.ok(
          row.bar.right - row.bar.left >= 40,
          `row ${i + 1}: the bar is ${Math.round(row.bar.right - row.bar.left)}px wide`,
        );
        assert.ok(
          Math.abs(row.bar.left - rows[0]!.bar.left) < 1 && Math.abs(row.bar.right - rows[0]!.bar.right) < 1,
          `row ${i + 1}: its bar is out of the column`,
        );
      }
      await context.close();
    });
  }
});

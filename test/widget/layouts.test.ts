/**
 * Every layout on hostile host pages, in Chromium: inside its box and no
 * horizontal scroll at phone to desktop widths, on a plain page, a CSS-grid
 * page and a page with aggressive global CSS; no layout shift while its data
 * is 2 s late; axe; the carousel's keyboard and rotation; the Spanish labels.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import type { ReviewsDataset } from '../../src/lib/reviews/schema.ts';
import { LAYOUTS } from '../../src/widget/options.ts';
import type { SnippetAttributes } from '../../src/widget/snippet.ts';
import { ROTATE_MS } from '../../src/widget/carousel.ts';
import { launchChromium } from '../helpers/browser.ts';
import { startServer, type RunningServer } from '../helpers/server.ts';
import { axeViolations, describeViolations, hostPageHtml, startHostSite, widgetsSettled } from './helpers.ts';

const SUITE_TIMEOUT_MS = 300_000;
const WIDTHS = [280, 320, 375, 768, 1280];

/** The three kinds of host page the widget must survive. */
const HOSTS: Record<string, string> = {
  plain: 'body{margin:0 8px}',
  // Tracks of `1fr` are minmax(auto, 1fr): a widget with a wide min-content would widen its column past the page.
  grid: 'main{display:grid;grid-template-columns:1fr;gap:16px}@media (min-width:700px){main{grid-template-columns:2fr 1fr}}',
  aggressive: '* { box-sizing: content-box; font-size: 20px } body { font-family: serif; line-height: 2 }',
};

const EVERY: SnippetAttributes[] = LAYOUTS.flatMap((layout) =>
  (['light', 'dark'] as const).map((theme) => ({ layout, theme, limit: '3' })),
);

let browser: Browser;
let content: RunningServer;
let host: Awaited<ReturnType<typeof startHostSite>>;
let dataset: ReviewsDataset;

before(async () => {
  [browser, content, host] = await Promise.all([launchChromium(), startServer('content'), startHostSite()]);
  dataset = (await (await fetch(`${content.url}/reviews.json`)).json()) as ReviewsDataset;
});
after(async () => {
  await browser?.close();
  await Promise.all([content?.stop(), host?.close()]);
});

/** Elements of a widget's shadow tree that stick out of the widget's own box, and the page's overflow. */
async function overflow(page: Page) {
  return page.evaluate(() => {
    const out: string[] = [];
    document.querySelectorAll('roofing-reviews').forEach((el, i) => {
      const outer = el.getBoundingClientRect();
      if (outer.right > document.documentElement.clientWidth + 0.5) out.push(`widget ${i} ends at ${outer.right}px`);
      for (const node of el.shadowRoot!.querySelectorAll<HTMLElement>('*:not(.vh, .vh *, slot, style)')) {
        const r = node.getBoundingClientRect();
        if (r.width === 0 && r.height === 0) continue;
        // Text cut by its own box (an ellipsis, a clamp) is measured by that box.
        let clipper = node.parentElement;
        while (clipper && getComputedStyle(clipper).overflowX === 'visible') clipper = clipper.parentElement;
        if (clipper) continue;
        if (r.left < outer.left - 0.5 || r.right > outer.right + 0.5)
          out.push(
            `widget ${i} (${el.getAttribute('layout')}): ${node.tagName}.${node.className} ${r.left}–${r.right} outside ${outer.left}–${outer.right}`,
          );
      }
    });
    return { out, scroll: document.documentElement.scrollWidth, width: document.documentElement.clientWidth };
  });
}

describe('every layout and theme on hostile pages', { timeout: SUITE_TIMEOUT_MS }, () => {
  for (const [kind, css] of Object.entries(HOSTS)) {
    it(`stays inside its box without horizontal scroll on a ${kind} page at ${WIDTHS.join(', ')} px`, async () => {
      const url = host.page(hostPageHtml(content.url, EVERY, { css }));
      const page = await browser.newPage();
      for (const width of WIDTHS) {
        await page.setViewportSize({ width, height: 800 });
        await page.goto(url);
        await widgetsSettled(page);
        assert.equal(await page.locator('roofing-reviews [part="box"]:not([aria-busy])').count(), EVERY.length);
        const seen = await overflow(page);
        assert.deepEqual(seen.out, [], `${kind} page at ${width} px`);
        assert.ok(
          seen.scroll <= seen.width,
          `${kind} page at ${width} px scrolls sideways: ${seen.scroll} > ${seen.width}`,
        );
      }
      await page.close();
    });
  }

  for (const width of [375, 1280])
    it(`has no axe-core violations, every layout in both themes, at ${width} px`, async () => {
      const page = await browser.newPage({ viewport: { width, height: 900 } });
      await page.goto(host.page(hostPageHtml(content.url, EVERY)));
      await widgetsSettled(page);
      const violations = await axeViolations(page);
      assert.deepEqual(violations, [], describeViolations(violations));
      await page.close();
    });
});

/** Collects the page's layout shifts without recent input (what CLS sums), from its first paint. */
async function watchShifts(context: BrowserContext): Promise<void> {
  await context.addInitScript(() => {
    const w = window as unknown as { shifts: { value: number; sources: string[] }[] };
    w.shifts = [];
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries() as unknown as {
        value: number;
        hadRecentInput: boolean;
        sources: { node?: Node }[];
      }[])
        if (!entry.hadRecentInput)
          w.shifts.push({
            value: entry.value,
            sources: entry.sources.map((s) => (s.node as Element | undefined)?.tagName ?? String(s.node?.nodeName)),
          });
    }).observe({ type: 'layout-shift', buffered: true });
  });
}

const cls = (page: Page) =>
  page.evaluate(() => {
    const { shifts } = window as unknown as { shifts: { value: number; sources: string[] }[] };
    return { value: shifts.reduce((sum, s) => sum + s.value, 0), sources: shifts.flatMap((s) => s.sources) };
  });

/**
 * A context whose widget.js answers half a second late (so the page is first
 * painted with the snippet's reserved room) and /widget.json `ms` late.
 */
async function lateContext(width: number, ms = 2000): Promise<BrowserContext> {
  const context = await browser.newContext({ viewport: { width, height: 800 } });
  for (const [path, delay] of [
    ['/widget.js', 500],
    ['/widget.json', ms],
  ] as const)
    await context.route(`${content.url}${path}`, async (route) => {
      await new Promise((resolveDelay) => setTimeout(resolveDelay, delay));
      await route.continue();
    });
  await watchShifts(context);
  return context;
}

/** The rest of an owner's page: text filling the screen below the widget, as most pages have. */
const REST = Array.from(
  { length: 40 },
  (_, i) => `<p>Paragraph ${i + 1} of the owner's page: we have roofed this valley for thirty years.</p>`,
).join('');

// The cases mostly wait for their late data: four at once (each is its own context, six pages).
describe('no layout shift while the data is late', { timeout: SUITE_TIMEOUT_MS, concurrency: 4 }, () => {
  const TWENTY = `${HOSTS.aggressive} roofing-reviews { --roofing-reviews-font-size: 20px }`;
  const CASES: [kind: string, css: string, width: number, limit: string][] = [
    ['plain', HOSTS.plain!, 375, '2'],
    ['plain', HOSTS.plain!, 1280, '2'],
    ['grid', HOSTS.grid!, 375, '2'],
    ['grid', HOSTS.grid!, 1280, '2'],
    ['aggressive', HOSTS.aggressive!, 280, '2'],
    ['aggressive', HOSTS.aggressive!, 320, '2'],
    ['aggressive, 20 px widget text', TWENTY, 280, '1'],
    ['aggressive, 20 px widget text', TWENTY, 320, '1'],
  ];
  for (const [kind, css, width, limit] of CASES)
    it(`keeps CLS below 0.01 with widget.js 0.5 s and /widget.json 2 s late, each layout with the page below it on screen: ${kind} page, ${width} px`, async () => {
      const context = await lateContext(width);
      const started = Date.now();
      const results = await Promise.all(
        LAYOUTS.map(async (layout) => {
          const page = await context.newPage();
          const html = hostPageHtml(content.url, [{ layout, limit }], { css, before: '<p>Above the widget.</p>' });
          // No heading above, so that even the tallest layouts at 280 px end on screen, and a page's worth of text below.
          const near = html
            .replace(/<h1>.*?<\/h1>/, '')
            .replace('</main>', `<p id="below">Below the widget.</p>${REST}</main>`);
          await page.goto(host.page(near));
          await widgetsSettled(page);
          await page.waitForTimeout(300);
          // What follows the widget is on screen: a change of the widget's height would have moved it in view.
          const below = await page.locator('#below').evaluate((el) => el.getBoundingClientRect().top < innerHeight);
          return { layout, below, ...(await cls(page)) };
        }),
      );
      assert.ok(Date.now() - started >= 1900, 'the data really was late');
      for (const { layout, below, value, sources } of results) {
        assert.ok(below, `${layout}: the paragraph after the widget is on screen`);
        assert.ok(value < 0.01, `${layout}: CLS ${value} (${sources.join(', ')})`);
      }
      await context.close();
    });
});

describe('the snippet’s reservation', { timeout: SUITE_TIMEOUT_MS }, () => {
  /** Each widget's height: its box, or the element alone when widget.js never came. */
  const heights = (page: Page) =>
    page
      .locator('roofing-reviews')
      .evaluateAll((widgets) =>
        widgets.map((el) => (el.shadowRoot?.querySelector('[part="box"]') ?? el).getBoundingClientRect().height),
      );

  for (const [kind, css, extra] of [
    ['plain', HOSTS.plain!, {}],
    [
      'aggressive page, Spanish, 20 px widget text,',
      `${HOSTS.aggressive} roofing-reviews { --roofing-reviews-font-size: 20px }`,
      { locale: 'es' },
    ],
  ] as const)
    it(`holds every layout at its tallest, at every width: ${kind} page`, async () => {
      const widgets = LAYOUTS.map((layout) => ({ layout, limit: '3', ...extra }));
      const url = host.page(hostPageHtml(content.url, widgets, { css }));
      for (const width of WIDTHS) {
        // The room alone: widget.js never comes.
        const bare = await browser.newContext({ viewport: { width, height: 800 } });
        await bare.route(`${content.url}/widget.js`, (route) => route.abort());
        const first = await bare.newPage();
        await first.goto(url);
        const reserved = await heights(first);
        await bare.close();

        const context = await browser.newContext({ viewport: { width, height: 800 } });
        const page = await context.newPage();
        await page.goto(url);
        await widgetsSettled(page);
        const shown = await heights(page);
        await context.close();
        LAYOUTS.forEach((layout, i) =>
          assert.ok(
            reserved[i]! + 0.5 >= shown[i]!,
            `${layout} at ${width} px: ${reserved[i]}px reserved, ${shown[i]}px shown`,
          ),
        );
      }
    });
});

describe('the room a widget does not use', { timeout: SUITE_TIMEOUT_MS }, () => {
  /** Heights of the element and of its box, and where the marker paragraph is on screen. */
  const measure = (page: Page) =>
    page.evaluate(() => {
      const element = document.querySelector('roofing-reviews')!;
      return {
        element: element.getBoundingClientRect().height,
        box: element.shadowRoot!.querySelector('[part="box"]')!.getBoundingClientRect().height,
        marker: document.querySelector('#marker')!.getBoundingClientRect().top,
      };
    });

  it('stays below the widget while the page after it is on screen, and closes once scrolled past, moving nothing on screen', async () => {
    const context = await lateContext(1280, 1000);
    const page = await context.newPage();
    const html = hostPageHtml(content.url, [{ limit: '2' }], { css: HOSTS.plain! }).replace(
      '</main>',
      '<p id="below">Below the widget.</p><div style="height:1200px"></div><p id="marker">Further down.</p><div style="height:3000px"></div></main>',
    );
    await page.goto(host.page(html));
    await widgetsSettled(page);
    await page.waitForTimeout(300);
    const held = await measure(page);
    assert.ok(held.element - held.box > 24, `room held under the box: ${held.element}px element, ${held.box}px box`);

    const before = await page.evaluate(() => {
      scrollTo(0, 1500);
      return document.querySelector('#marker')!.getBoundingClientRect().top;
    });
    await page.waitForFunction(() => {
      const element = document.querySelector('roofing-reviews')!;
      const box = element.shadowRoot!.querySelector('[part="box"]')!;
      return Math.abs(element.getBoundingClientRect().height - box.getBoundingClientRect().height) < 0.5;
    });
    const after = await measure(page);
    assert.equal(after.marker, before, 'what is on screen stays where it was (scroll anchoring)');
    const { value, sources } = await cls(page);
    assert.ok(value < 0.01, `CLS ${value} (${sources.join(', ')})`);
    await context.close();
  });

  it('closes at once when the widget ends below the screen', async () => {
    const context = await lateContext(1280, 1000);
    const page = await context.newPage();
    const html = hostPageHtml(content.url, [{ limit: '2' }], {
      css: HOSTS.plain!,
      before: '<div style="height:600px"></div>',
    }).replace('</main>', '<p id="marker">Below the widget.</p></main>');
    await page.goto(host.page(html));
    await widgetsSettled(page);
    await page.waitForTimeout(300);
    const { element, box } = await measure(page);
    assert.ok(Math.abs(element - box) < 0.5, `${element}px element, ${box}px box`);
    const { value, sources } = await cls(page);
    assert.ok(value < 0.01, `CLS ${value} (${sources.join(', ')})`);
    await context.close();
  });
});

describe('the carousel', { timeout: SUITE_TIMEOUT_MS }, () => {
  /**
   * The page's clock is Playwright's: it runs on its own, and a wait for the
   * rotation's interval is a jump ahead, which fires every timer due.
   */
  async function carouselPage(context: BrowserContext) {
    await context.clock.install();
    const page = await context.newPage();
    await page.goto(host.page(hostPageHtml(content.url, [{ layout: 'carousel', limit: '4' }])));
    await widgetsSettled(page);
    const widget = page.locator('roofing-reviews');
    const visible = () =>
      widget.locator('[aria-roledescription="slide"]:not([hidden])').evaluate((el) => el.getAttribute('aria-label'));
    const live = () => widget.locator('.slides').evaluate((el) => el.getAttribute('aria-live'));
    return { page, widget, visible, live };
  }

  it('rotates on its own, stops on hover and focus, moves with the arrow keys and stops for good with its button', async () => {
    const context = await browser.newContext();
    const { page, widget, visible, live } = await carouselPage(context);
    assert.equal(await visible(), '1 of 4');
    assert.equal(await live(), 'off', 'no announcements while it rotates');
    await page.clock.runFor(ROTATE_MS);
    await page.waitForFunction(
      () =>
        document
          .querySelector('roofing-reviews')!
          .shadowRoot!.querySelector('[aria-roledescription="slide"]:not([hidden])')!
          .getAttribute('aria-label') === '2 of 4',
      undefined,
      { timeout: 5_000 },
    );

    await widget.locator('.slides').hover();
    assert.equal(await live(), 'polite', 'hover stops it');
    await page.mouse.move(0, 0);
    assert.equal(await live(), 'off', 'leaving resumes it');

    const rotation = widget.getByRole('button', { name: 'Stop automatic rotation' });
    await rotation.focus();
    assert.equal(await live(), 'polite', 'focus stops it');
    await page.keyboard.press('ArrowRight');
    assert.equal(await visible(), '3 of 4');
    await page.keyboard.press('ArrowLeft');
    await page.keyboard.press('ArrowLeft');
    assert.equal(await visible(), '1 of 4');
    await page.keyboard.press('ArrowLeft');
    assert.equal(await visible(), '4 of 4', 'wraps around');
    await widget.getByRole('button', { name: 'Next review' }).click();
    assert.equal(await visible(), '1 of 4');

    await rotation.click();
    assert.equal(await widget.getByRole('button', { name: 'Start automatic rotation' }).count(), 1);
    await page.locator('h1').click();
    await page.mouse.move(0, 0);
    assert.equal(await live(), 'polite', 'stopped by its button: stays stopped when focus and pointer leave');
    await page.clock.runFor(ROTATE_MS + 500);
    assert.equal(await visible(), '1 of 4');
    await context.close();
  });

  it('is as high as its tallest slide, and a turn does not change its height', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, reducedMotion: 'reduce' });
    const { widget } = await carouselPage(context);
    // The shown slide: the height of all slides, and the blank between its text's last line and its author.
    const measure = () =>
      widget.locator('.slides').evaluate((slides) => {
        const slide = slides.querySelector('[aria-roledescription="slide"]:not([hidden])')!;
        const text = slide.querySelector('[part="review-text"]')!;
        const range = document.createRange();
        range.selectNodeContents(text);
        const lastLine = Math.min(range.getBoundingClientRect().bottom, text.getBoundingClientRect().bottom);
        return {
          height: slides.getBoundingClientRect().height,
          blank: slide.querySelector('[part="review-author"]')!.getBoundingClientRect().top - lastLine,
        };
      });
    const seen = [await measure()];
    for (let i = 1; i < 4; i++) {
      await widget.getByRole('button', { name: 'Next review' }).click();
      seen.push(await measure());
    }
    assert.deepEqual(new Set(seen.map((s) => s.height)).size, 1, `heights ${seen.map((s) => s.height).join(', ')}`);
    // A text's glyphs sit inside its 1.5em line boxes: a few px of half-leading are no blank.
    const least = Math.min(...seen.map((s) => s.blank));
    assert.ok(Math.abs(least) < 5, `the tallest slide has ${least}px of blank under its text`);
    await context.close();
  });

  it('does not rotate for visitors who prefer reduced motion', async () => {
    const context = await browser.newContext({ reducedMotion: 'reduce' });
    const { page, widget, visible, live } = await carouselPage(context);
    assert.equal(await live(), 'polite');
    assert.equal(await widget.getByRole('button', { name: 'Start automatic rotation' }).count(), 1);
    await page.clock.runFor(ROTATE_MS + 500);
    assert.equal(await visible(), '1 of 4');
    await context.close();
  });
});

describe('layouts, options and language', { timeout: SUITE_TIMEOUT_MS }, () => {
  it('badge: stars, the average with one decimal and the count, linked; collector: the business’s review link', async () => {
    const page = await browser.newPage();
    await page.goto(host.page(hostPageHtml(content.url, [{ layout: 'badge' }, { layout: 'collector' }])));
    await widgetsSettled(page);
    const rating = dataset.aggregate_rating.rating_value.toFixed(1);
    const badge = page.locator('roofing-reviews').first();
    assert.equal(await badge.locator('[part="rating"]').textContent(), rating);
    assert.equal(await badge.locator('[part="review"]').count(), 0);
    assert.equal(await badge.getByRole('link').getAttribute('href'), `${content.url}/`);
    const write = dataset.business.write_review!;
    const button = page
      .locator('roofing-reviews')
      .nth(1)
      .getByRole('link', { name: `Review us on ${write.platform}` });
    assert.equal(await button.getAttribute('href'), write.url);
    await page.close();
  });

  it('collector: a label that wraps stays centred in its button, the star on its first line', async () => {
    const page = await browser.newPage({ viewport: { width: 280, height: 600 } });
    await page.goto(host.page(hostPageHtml(content.url, [{ layout: 'collector', locale: 'es' }])));
    await widgetsSettled(page);
    const seen = await page.locator('roofing-reviews [part="collector"]').evaluate((button) => {
      const range = document.createRange();
      range.selectNodeContents(button);
      const lines = [...range.getClientRects()];
      const outer = button.getBoundingClientRect();
      const last = lines.at(-1)!;
      return {
        lines: new Set(lines.map((l) => Math.round(l.top))).size,
        off: last.left + last.width / 2 - (outer.left + outer.width / 2),
      };
    });
    assert.ok(seen.lines > 1, 'the label wraps at 280 px');
    assert.ok(Math.abs(seen.off) < 2, `its last line is ${seen.off}px off the button's centre`);
    await page.close();
  });

  it('the header links to the site’s page on how reviews are verified, by its absolute address', async () => {
    const page = await browser.newPage();
    await page.goto(host.page(hostPageHtml(content.url, [{}, { layout: 'grid' }, { layout: 'carousel' }])));
    await widgetsSettled(page);
    for (let i = 0; i < 3; i++) {
      const about = page.locator('roofing-reviews').nth(i).locator('[part="header"]').getByRole('link', {
        name: 'How reviews are verified',
      });
      assert.equal(await about.getAttribute('href'), `${content.url}/about-reviews`);
      assert.ok(await about.isVisible(), `widget ${i}: the link is shown`);
    }
    await page.close();
  });

  for (const width of [375, 1280])
    it(`list: the box is as high as its reviews, each review as high as its text, at ${width} px`, async () => {
      const page = await browser.newPage({ viewport: { width, height: 900 } });
      await page.goto(host.page(hostPageHtml(content.url, [{ limit: '5' }])));
      await widgetsSettled(page);
      const seen = await page.locator('roofing-reviews').evaluate((el) => {
        const root = el.shadowRoot!;
        const rect = (node: Element) => node.getBoundingClientRect();
        const items = [...root.querySelectorAll('[part="review"]')];
        return {
          // Each review: its border, its padding and its lines, nothing else.
          slack: items.map((item) => {
            const style = getComputedStyle(item);
            const lines = [...item.children].reduce((sum, child) => sum + rect(child).height, 0);
            return rect(item).height - lines - parseFloat(style.paddingTop) - parseFloat(style.borderTopWidth);
          }),
          // "See all" right after the last review, and the box's padding right after it.
          toFoot: rect(root.querySelector('.foot')!).top - rect(items.at(-1)!).bottom,
          toBottom: rect(root.querySelector('[part="box"]')!).bottom - rect(root.querySelector('.foot')!).bottom,
        };
      });
      for (const slack of seen.slack) assert.ok(Math.abs(slack) < 1, `a review with ${slack}px of blank`);
      assert.ok(Math.abs(seen.toFoot) < 1, `${seen.toFoot}px between the last review and "See all"`);
      assert.ok(Math.abs(seen.toBottom - 17) < 1, `${seen.toBottom}px under "See all"`);
      await page.close();
    });

  it('grid: cards in as many columns as fit, wrapping to rows, inside the box, filters and limit honoured', async () => {
    const page = await browser.newPage();
    await page.goto(
      host.page(
        hostPageHtml(content.url, [
          { layout: 'grid', limit: '3' },
          { layout: 'grid', limit: '4', 'min-rating': '5' },
        ]),
      ),
    );
    const columns = async () => {
      await page.reload();
      await widgetsSettled(page);
      return page.locator('roofing-reviews').evaluateAll((widgets) =>
        widgets.map((el) => {
          const list = el.shadowRoot!.querySelector<HTMLElement>('[part="list"]')!;
          const cards = [...list.querySelectorAll('[part="review"]')].map((card) => card.getBoundingClientRect());
          return {
            columns: new Set(cards.map((c) => Math.round(c.left))).size,
            rows: new Set(cards.map((c) => Math.round(c.top))).size,
            cards: cards.length,
            stars: [...list.querySelectorAll('[part="review-stars"]')].map((s) => s.getAttribute('aria-label')),
            inside: cards.every(
              (c) =>
                c.left >= list.getBoundingClientRect().left - 0.5 &&
                c.right <= list.getBoundingClientRect().right + 0.5,
            ),
            scrolls: list.scrollWidth > list.clientWidth || getComputedStyle(list).overflowX !== 'visible',
          };
        }),
      );
    };
    await page.setViewportSize({ width: 375, height: 900 });
    const phone = await columns();
    await page.setViewportSize({ width: 768, height: 900 });
    const tablet = await columns();
    await page.setViewportSize({ width: 1280, height: 900 });
    const desktop = await columns();
    assert.deepEqual(
      [phone, tablet, desktop].map((widths) => widths.map(({ columns, rows }) => [columns, rows])),
      [
        [
          [1, 3],
          [1, 4],
        ],
        [
          [2, 2],
          [2, 2],
        ],
        [
          [3, 1],
          [4, 1],
        ],
      ],
    );
    for (const widget of [...phone, ...tablet, ...desktop]) {
      assert.ok(widget.inside && !widget.scrolls, JSON.stringify(widget));
    }
    assert.deepEqual(desktop[1]!.stars, Array(desktop[1]!.cards).fill('5 out of 5 stars'));
    assert.equal(desktop[1]!.cards, 4);
    await page.close();
  });

  it('locale="es": Spanish labels, figures and dates through Intl; theme="dark" whatever the visitor prefers', async () => {
    const context = await browser.newContext({ colorScheme: 'light' });
    const page = await context.newPage();
    await page.goto(host.page(hostPageHtml(content.url, [{ locale: 'es', theme: 'dark', limit: '1' }])));
    await widgetsSettled(page);
    const widget = page.locator('roofing-reviews');
    const rating = new Intl.NumberFormat('es', { minimumFractionDigits: 1, maximumFractionDigits: 1 }).format(
      dataset.aggregate_rating.rating_value,
    );
    assert.equal(await widget.locator('[part="rating"]').textContent(), rating);
    assert.match((await widget.locator('[part="count"]').textContent()) ?? '', /opiniones verificadas$/);
    assert.equal(await widget.locator('[part="box"]').getAttribute('lang'), 'es');
    assert.equal(await widget.getByRole('link', { name: /^Leer opinión de / }).count(), 1);
    assert.equal(
      await widget.getByRole('link', { name: 'Cómo se verifican las opiniones' }).getAttribute('href'),
      `${content.url}/about-reviews`,
    );
    const background = await widget.locator('[part="box"]').evaluate((el) => getComputedStyle(el).backgroundColor);
    assert.equal(background, 'rgb(27, 31, 36)');
    await context.close();
  });
});

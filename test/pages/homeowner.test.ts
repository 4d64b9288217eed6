/**
 * The site as a homeowner uses it, in Chromium with JavaScript off: reviews
 * come first on a phone; /reviews sorts and searches with a plain form, the
 * keyword matching exactly what the API's `query` matches; pages are numbered;
 * the distribution bars and a review's chips are links to their filter; every
 * review says it is verified and where it was written; a review page leads
 * back to the list and on to its neighbours; the navigation is for people.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launchChromium } from '../helpers/browser.ts';
import { startServer, type RunningServer } from '../helpers/server.ts';
import type { Review } from '../../src/lib/reviews/schema.ts';

let browser: Browser;
let context: BrowserContext;
let server: RunningServer;
let reviews: Review[];

before(async () => {
  [browser, server] = await Promise.all([launchChromium(), startServer('content')]);
  context = await browser.newContext({ javaScriptEnabled: false });
  reviews = (await (await fetch(`${server.url}/reviews.json`)).json()).reviews;
});
after(async () => {
  await browser?.close();
  await server?.stop();
});

/** Every review the search API matches, newest first (the sample holds fewer than 100 per query used here). */
async function apiIds(query: string): Promise<string[]> {
  const body = await (await fetch(`${server.url}/api/reviews/search?${query}&limit=100`)).json();
  assert.ok(body.total <= 100, `${query}: more than one API page`);
  return body.reviews.map((r: Review) => r.id);
}

/** The ids of the cards on every page of a list, following its "Next" links. */
async function listIds(page: Page, path: string): Promise<string[]> {
  const ids: string[] = [];
  await page.goto(`${server.url}${path}`);
  for (;;) {
    ids.push(...(await page.locator('article.review').evaluateAll((cards) => cards.map((c) => c.id.slice(7)))));
    const next = page.getByRole('navigation', { name: 'Pages' }).getByRole('link', { name: 'Next ›' });
    if ((await next.count()) === 0) return ids;
    const href = await next.getAttribute('href');
    await next.click();
    // A click waits for the next page to start loading, not to finish: its list is read once it has.
    await page.waitForURL(new URL(href!, page.url()).href);
  }
}

const ratingOf = (id: string) => reviews.find((r) => r.id === id)!.rating;

describe('reviews first', () => {
  it('at 375 px the rating summary and the first review are within the first two screens of the home page', async () => {
    const phone = await browser.newContext({ viewport: { width: 375, height: 667 }, javaScriptEnabled: false });
    const page = await phone.newPage();
    await page.goto(`${server.url}/`);
    const top = (selector: string) =>
      page
        .locator(selector)
        .first()
        .evaluate((el) => el.getBoundingClientRect().top + window.scrollY);
    assert.ok((await top('#rating-heading')) < 667, 'rating summary on the first screen');
    assert.ok((await top('article.review')) < 2 * 667, `first review at ${await top('article.review')}`);
    assert.ok((await top('article.review')) < (await top('#aspects-heading')), 'insights follow the reviews');
    // On /reviews the filters fold away on a phone: the first review comes before any choice.
    await page.goto(`${server.url}/reviews?service=gutters`);
    const choices = page.getByRole('navigation', { name: 'Narrow the reviews' });
    assert.equal(await choices.getByRole('link', { name: 'Roof repair' }).isVisible(), false);
    assert.ok((await top('article.review')) < 2 * 667);
    await phone.close();
  });
});

describe('sort and search on /reviews', () => {
  it('the keyword means what the API query means: the same reviews, in the same order, with a filter too', async () => {
    const page = await context.newPage();
    for (const [pageQuery, api] of [
      ['query=leak', 'query=leak'],
      ['query=GUTTER', 'query=GUTTER'],
      ['query=roof&service=roof-repair', 'query=roof&mentions_service=roof-repair'],
      ['query=crew&rating=5&technician=maria-santos', 'query=crew&rating=5&mentions_technician=maria-santos'],
    ] as const) {
      assert.deepEqual(await listIds(page, `/reviews?${pageQuery}`), await apiIds(api), pageQuery);
    }
    await page.close();
  });

  it('each order holds the same reviews, ordered as it says, newest first among equals', async () => {
    const page = await context.newPage();
    const newest = await apiIds('query=roof');
    const place = new Map(newest.map((id, i) => [id, i]));
    assert.deepEqual(await listIds(page, '/reviews?query=roof&sort=oldest'), [...newest].reverse());
    const highest = await listIds(page, '/reviews?query=roof&sort=highest');
    assert.deepEqual(
      highest,
      [...newest].sort((a, b) => ratingOf(b) - ratingOf(a) || place.get(a)! - place.get(b)!),
    );
    const lowest = await listIds(page, '/reviews?query=roof&sort=lowest');
    assert.deepEqual(
      lowest,
      [...newest].sort((a, b) => ratingOf(a) - ratingOf(b) || place.get(a)! - place.get(b)!),
    );
    const replied = await listIds(page, '/reviews?query=roof&sort=replied');
    const hasReply = (id: string) => (reviews.find((r) => r.id === id)!.response ? 1 : 0);
    assert.deepEqual(
      replied,
      [...newest].sort((a, b) => hasReply(b) - hasReply(a) || place.get(a)! - place.get(b)!),
    );
    assert.ok(hasReply(replied[0]!) === 1);
    await page.close();
  });

  it('a plain GET form searches within the filter in use and keeps the order; the counts follow the keyword', async () => {
    const page = await context.newPage();
    await page.goto(`${server.url}/reviews?service=gutters`);
    await page.getByLabel('Search the reviews').fill('downspout');
    await page.getByLabel('Order').selectOption('lowest');
    await page.getByRole('button', { name: 'Show reviews' }).click();
    await page.waitForLoadState();
    const url = new URL(page.url());
    assert.equal(url.pathname, '/reviews');
    assert.equal(url.searchParams.get('service'), 'gutters');
    assert.equal(url.searchParams.get('query'), 'downspout');
    assert.equal(url.searchParams.get('sort'), 'lowest');
    const ids = await page.locator('article.review').evaluateAll((cards) => cards.map((c) => c.id.slice(7)));
    assert.deepEqual(new Set(ids), new Set(await apiIds('mentions_service=gutters&query=downspout')));
    const fiveStars = page
      .getByRole('navigation', { name: 'Narrow the reviews' })
      .getByRole('region', { name: 'Stars' })
      .locator('li')
      .filter({ hasText: '5 stars' });
    assert.equal(
      Number(/\((\d+)\)/.exec((await fiveStars.locator('.count').textContent()) ?? '')?.[1]),
      (await apiIds('mentions_service=gutters&query=downspout&rating=5')).length,
    );
    // A choice keeps the keyword and the order.
    const href = await fiveStars.getByRole('link').getAttribute('href');
    assert.equal(href, '/reviews?rating=5&service=gutters&query=downspout&sort=lowest');
    await page.close();
  });

  it('a bad keyword or order is the friendly 400 page naming it', async () => {
    for (const [query, parameter] of [
      [`query=${'x'.repeat(201)}`, 'query'],
      ['query=a&query=b', 'query'],
      ['sort=best', 'sort'],
    ] as const) {
      const response = await fetch(`${server.url}/reviews?${query}`);
      assert.equal(response.status, 400, query);
      assert.equal(response.headers.get('cache-control'), 'no-store');
      assert.match(await response.text(), new RegExp(`<li>${parameter} `), query);
    }
    // An empty box is no keyword.
    assert.equal((await fetch(`${server.url}/reviews?query=&sort=newest`)).status, 200);
  });

  it('pages are numbered, with first and last', async () => {
    const page = await context.newPage();
    await page.goto(`${server.url}/reviews/page/4`);
    const pager = page.getByRole('navigation', { name: 'Pages' });
    const last = Math.ceil(reviews.length / 25);
    assert.equal(await pager.getByRole('link', { name: '« First' }).getAttribute('href'), '/reviews/page/1');
    assert.equal(await pager.getByRole('link', { name: 'Last »' }).getAttribute('href'), `/reviews/page/${last}`);
    assert.equal(await pager.locator('[aria-current="page"]').textContent(), 'Page 4');
    assert.equal(
      await pager.getByRole('link', { name: 'Page 2', exact: true }).getAttribute('href'),
      '/reviews/page/2',
    );
    await page.goto(`${server.url}/reviews?rating=5&sort=oldest`);
    assert.equal(
      await page
        .getByRole('navigation', { name: 'Pages' })
        .getByRole('link', { name: 'Page 2', exact: true })
        .getAttribute('href'),
      '/reviews?rating=5&sort=oldest&page=2',
    );
    await page.close();
  });
});

describe('filters you can tap and trust on every review', () => {
  it('the distribution bars on the home page and on /reviews link to their star filter, with count and percentage', async () => {
    const rating = (await (await fetch(`${server.url}/reviews.json`)).json()).aggregate_rating;
    const page = await context.newPage();
    for (const path of ['/', '/reviews/page/1', '/reviews']) {
      await page.goto(`${server.url}${path}`);
      const bar = page.getByRole('list', { name: 'Rating distribution' }).getByRole('link').first();
      assert.equal(await bar.getAttribute('href'), '/reviews?rating=5', path);
      const share = Math.round((rating.distribution['5'] / rating.review_count) * 100);
      assert.match(
        (await bar.textContent()) ?? '',
        new RegExp(`5 stars\\s*${rating.distribution['5']}\\s*\\(${share}%\\)`),
      );
    }
    await page.close();
  });

  it('service and technician chips link to their filter', async () => {
    const review = reviews.find((r) => r.services.length > 0 && r.technicians.length > 0)!;
    const business = (await (await fetch(`${server.url}/reviews.json`)).json()).business;
    const page = await context.newPage();
    await page.goto(`${server.url}/reviews/${review.id}`);
    const chips = page.getByRole('list', { name: 'Services and technicians' });
    const service = business.services.find((s: { id: string }) => s.id === review.services[0]);
    assert.equal(
      await chips.getByRole('link', { name: service.name }).getAttribute('href'),
      `/reviews?service=${service.id}`,
    );
    const technician = business.technicians.find((t: { name: string }) => t.name === review.technicians[0]);
    assert.equal(
      await chips.getByRole('link', { name: technician.name }).getAttribute('href'),
      `/reviews?technician=${technician.id}`,
    );
    await page.close();
  });

  it('a card says the review is verified and where it was written; an untitled one is headed by its first words', async () => {
    const untitled = reviews.find((r) => !r.title)!;
    const page = await context.newPage();
    await page.goto(`${server.url}/reviews/${untitled.id}`);
    const card = page.locator('article.review');
    const heading = (await card.locator('h1').textContent()) ?? '';
    assert.doesNotMatch(heading, /Review by/);
    assert.ok(untitled.text.startsWith(heading.replace(/…$/, '')), `${heading} starts ${untitled.text.slice(0, 60)}`);
    const trust = (await card.locator('.trust').textContent()) ?? '';
    assert.match(trust, /Verified customer/);
    assert.equal(await card.locator('.verified').count(), 1);
    const words: Record<string, RegExp> = {
      google: /Posted on Google/,
      yelp: /Posted on Yelp/,
      nextdoor: /Posted on Nextdoor/,
      website: /Written here/,
      email: /by email/,
    };
    assert.match(trust, words[untitled.source] ?? /Posted on/);
    await page.close();
  });

  it('a review written elsewhere links to the original where the source gives a link', async () => {
    const small = await startServer('small');
    try {
      const dataset = await (await fetch(`${small.url}/reviews.json`)).json();
      const linked = dataset.reviews.filter((r: Review & { source_url?: string }) => r.source_url);
      assert.ok(linked.length > 0, 'the small fixture has a review with a source_url');
      for (const review of linked) {
        const html = await (await fetch(`${small.url}/reviews/${review.id}`)).text();
        assert.match(html, /Verified customer/);
        assert.ok(html.includes(`href="${review.source_url.replaceAll('&', '&amp;')}"`), review.id);
      }
    } finally {
      await small.stop();
    }
  });

  it("shows the owner's responsiveness from the trends and the Write a review link", async () => {
    const insights = await (await fetch(`${server.url}/insights.json`)).json();
    const current = insights.trends.recent.current;
    const page = await context.newPage();
    await page.goto(`${server.url}/`);
    assert.match(
      (await page.getByTestId('responsiveness').textContent()) ?? '',
      new RegExp(`Replies to ${Math.round(current.reply_rate * 100)}% of reviews`),
    );
    const business = (await (await fetch(`${server.url}/reviews.json`)).json()).business;
    assert.equal(
      await page
        .getByRole('link', { name: `Write a review on ${business.write_review.platform}` })
        .getAttribute('href'),
      business.write_review.url,
    );
    await page.close();
  });
});

describe('a review page you can move on from', () => {
  it('leads back to the list the visitor came from, and to the previous and next review in it', async () => {
    const fives = await apiIds('rating=5&query=roof');
    const page = await context.newPage();
    await page.goto(`${server.url}/reviews?rating=5&query=roof`);
    await page.locator('article.review h2 a').nth(1).click();
    await page.waitForLoadState();
    assert.equal(new URL(page.url()).pathname, `/reviews/${fives[1]}`);
    const back = page.getByRole('link', { name: /Back to the reviews you were reading/ });
    assert.equal(await back.getAttribute('href'), '/reviews?rating=5&query=roof');
    await page.getByRole('link', { name: /Next review/ }).click();
    await page.waitForLoadState();
    assert.equal(new URL(page.url()).pathname, `/reviews/${fives[2]}`);
    await page.getByRole('link', { name: /Previous review/ }).click();
    await page.waitForLoadState();
    await page.getByRole('link', { name: /Previous review/ }).click();
    await page.waitForLoadState();
    assert.equal(new URL(page.url()).pathname, `/reviews/${fives[0]}`);
    assert.equal(await page.getByRole('link', { name: /Previous review/ }).count(), 0);
    assert.equal(await page.getAttribute('link[rel="canonical"]', 'href'), `http://localhost:4321/reviews/${fives[0]}`);
    // Without a list, every review newest first, back to the static page that holds it.
    await page.goto(`${server.url}/reviews/${reviews[30]!.id}`);
    assert.equal(await page.getByRole('link', { name: '← All reviews' }).getAttribute('href'), '/reviews/page/2');
    assert.equal(
      new URL((await page.getByRole('link', { name: /Next review/ }).getAttribute('href'))!, server.url).pathname,
      `/reviews/${reviews[31]!.id}`,
    );
    // A `from` that is no list is ignored.
    const odd = await fetch(`${server.url}/reviews/${reviews[30]!.id}?from=rating%3D9`);
    assert.equal(odd.status, 200);
    await page.close();
  });
});

describe('navigation for people', () => {
  it('the header links Reviews, Trends and Contact; the developer surfaces are one footer link away', async () => {
    const page = await context.newPage();
    await page.goto(`${server.url}/`);
    const nav = page.getByRole('navigation', { name: 'Site' });
    assert.deepEqual(await nav.getByRole('link').allTextContents(), ['Reviews', 'Trends', 'Contact']);
    assert.equal(await page.locator('#contact').count(), 1);
    assert.equal(await page.locator('footer code').count(), 0, 'no hub address in the footer');
    await page.getByRole('contentinfo').getByRole('link', { name: 'For developers' }).click();
    await page.waitForLoadState();
    assert.equal(new URL(page.url()).pathname, '/developers');
    for (const href of ['/api-reference', '/reviews.json', '/insights.json', '/feed.xml', '/api/feed.json', '/widget'])
      assert.ok((await page.locator(`main a[href="${href}"]`).count()) > 0, href);
    assert.match((await page.locator('main').textContent()) ?? '', /\/api\/websub\/hub/);
    assert.match((await page.locator('main').textContent()) ?? '', /\/mcp/);
    await page.close();
  });

  it('the 404 page offers all reviews and the keyword box', async () => {
    const page = await context.newPage();
    const response = await page.goto(`${server.url}/no-such-page`);
    assert.equal(response?.status(), 404);
    assert.equal(
      await page.getByRole('main').getByRole('link', { name: 'All reviews' }).getAttribute('href'),
      '/reviews/page/1',
    );
    await page.getByLabel('Search the reviews').fill('skylight');
    await page.getByRole('button', { name: 'Show reviews' }).click();
    await page.waitForLoadState();
    assert.equal(new URL(page.url()).search, '?query=skylight');
    assert.ok((await page.locator('article.review').count()) > 0);
    await page.close();
  });

  it('follows the dark colour scheme', async () => {
    const colours: string[] = [];
    for (const colorScheme of ['light', 'dark'] as const) {
      const scheme = await browser.newContext({ colorScheme, javaScriptEnabled: false });
      const page = await scheme.newPage();
      await page.goto(`${server.url}/reviews/page/1`);
      colours.push(await page.evaluate(() => getComputedStyle(document.documentElement).backgroundColor));
      await scheme.close();
    }
    assert.deepEqual(colours, ['rgb(255, 255, 255)', 'rgb(21, 24, 28)']);
  });
});

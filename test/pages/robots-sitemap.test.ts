/**
 * robots.txt and the sitemap over the real server: the sitemap names exactly
 * the site's pages (home, API reference, every list page, every review), each
 * of which answers 200, with content dates; past 50,000 URLs it becomes an index.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { xml2js, type Element } from 'xml-js';
import { rawGet } from '../helpers/http.ts';
import { startServer, type RunningServer } from '../helpers/server.ts';
import type { ReviewsDataset } from '../../src/lib/reviews/schema.ts';
import { sitemapXml, type SitemapUrl } from '../../src/lib/seo/sitemap.ts';

const SITE = 'http://localhost:4321';
let server: RunningServer;
let dataset: ReviewsDataset;

before(async () => {
  server = await startServer('content');
  dataset = (await (await fetch(`${server.url}/reviews.json`)).json()) as ReviewsDataset;
});
after(() => server?.stop());

const children = (element: Element | undefined, name: string) =>
  (element?.elements ?? []).filter((e) => e.name === name);
const text = (element: Element | undefined, name: string) => {
  const child = children(element, name)[0];
  return child ? String(child.elements?.[0]?.text ?? '') : undefined;
};
/** The sitemap's root element and its entries as { loc, lastmod }. */
function parseSitemap(xml: string, root: 'urlset' | 'sitemapindex', entry: 'url' | 'sitemap') {
  const doc = xml2js(xml) as Element;
  const top = children(doc, root)[0];
  assert.ok(top, `a ${root}`);
  assert.equal(top.attributes?.xmlns, 'http://www.sitemaps.org/schemas/sitemap/0.9');
  return children(top, entry).map((e) => ({ loc: text(e, 'loc') as string, lastmod: text(e, 'lastmod') }));
}

describe('robots.txt', () => {
  it('lets crawlers read the site, keeps them out of endless and non-page paths, and names the sitemap', async () => {
    const response = await fetch(`${server.url}/robots.txt`);
    assert.equal(response.status, 200);
    assert.equal(response.headers.get('content-type'), 'text/plain; charset=utf-8');
    assert.ok(response.headers.get('etag'));
    const lines = (await response.text()).split('\n');
    assert.equal(lines[0], 'User-agent: *');
    const disallowed = lines.filter((l) => l.startsWith('Disallow: ')).map((l) => l.slice('Disallow: '.length));
    assert.deepEqual(disallowed.sort(), ['/admin/', '/api/cron/', '/api/reviews/', '/api/websub/', '/mcp']);
    for (const open of [
      '/',
      '/reviews/page/1',
      `/reviews/${dataset.reviews[0]!.id}`,
      '/reviews.json',
      '/api/feed.json',
      '/feed.xml',
      '/sitemap.xml',
    ]) {
      assert.ok(!disallowed.some((prefix) => open.startsWith(prefix)), `${open} is open to crawlers`);
    }
    assert.ok(lines.includes(`Sitemap: ${SITE}/sitemap.xml`));
  });
});

describe('sitemap.xml', () => {
  it('lists exactly the site’s pages, each once, with content dates', async () => {
    const response = await fetch(`${server.url}/sitemap.xml`);
    assert.equal(response.status, 200);
    assert.equal(response.headers.get('content-type'), 'application/xml; charset=utf-8');
    const xml = await response.text();
    assert.ok(xml.startsWith('<?xml version="1.0" encoding="UTF-8"?>\n'));
    const urls = parseSitemap(xml, 'urlset', 'url');
    const pages = Math.ceil(dataset.reviews.length / 25);
    assert.ok(pages > 1, 'the sample content has several list pages');
    const expected = [
      `${SITE}/`,
      `${SITE}/api-reference`,
      `${SITE}/developers`,
      `${SITE}/about-reviews`,
      ...Array.from({ length: pages }, (_, i) => `${SITE}/reviews/page/${i + 1}`),
      ...dataset.reviews.map((r) => `${SITE}/reviews/${r.id}`),
    ];
    assert.deepEqual(
      urls.map((u) => u.loc),
      expected,
    );
    const byLoc = new Map(urls.map((u) => [u.loc, u.lastmod]));
    for (const review of dataset.reviews) assert.equal(byLoc.get(`${SITE}/reviews/${review.id}`), review.updated);
    assert.equal(byLoc.get(`${SITE}/`), dataset.updated);
    assert.equal(byLoc.get(`${SITE}/reviews/page/1`), dataset.updated);
    for (const page of ['/developers', '/about-reviews'])
      assert.equal((await fetch(`${server.url}${page}`)).status, 200, `${page} is a page the site serves`);
  });

  it('names only pages that answer 200 as HTML, and the last list page is the last one', async () => {
    const urls = parseSitemap(await (await fetch(`${server.url}/sitemap.xml`)).text(), 'urlset', 'url');
    for (const { loc } of urls) {
      const response = await fetch(server.url + new URL(loc).pathname, { method: 'HEAD' });
      assert.equal(response.status, 200, loc);
      assert.match(response.headers.get('content-type') ?? '', /^text\/html/, loc);
    }
    const pages = urls.filter((u) => u.loc.includes('/reviews/page/')).length;
    const beyond = await fetch(`${server.url}/reviews/page/${pages + 1}`);
    assert.equal(beyond.status, 404, 'no list page is left out');
    await beyond.arrayBuffer();
  });

  it('is served compressed like the other static files', async () => {
    const brotli = await rawGet(server.port, '/sitemap.xml', { 'accept-encoding': 'br, gzip' });
    assert.equal(brotli.status, 200);
    assert.equal(brotli.headers['content-encoding'], 'br');
    assert.equal(brotli.headers['access-control-allow-origin'], '*');
  });

  it('becomes an index of numbered parts past the per-file limit', () => {
    const urls: SitemapUrl[] = Array.from({ length: 7 }, (_, i) => ({
      loc: `${SITE}/reviews/r-${i}?a=1&b=<2>`,
      lastmod: `2025-01-0${i + 1}T00:00:00Z`,
    }));
    const whole = parseSitemap(sitemapXml(urls, SITE, 7), 'urlset', 'url');
    assert.deepEqual(
      whole.map((u) => u.loc),
      urls.map((u) => u.loc),
      'URLs are escaped and read back whole',
    );
    const index = parseSitemap(sitemapXml(urls, SITE, 3), 'sitemapindex', 'sitemap');
    assert.deepEqual(index, [
      { loc: `${SITE}/sitemaps/1.xml`, lastmod: '2025-01-03T00:00:00Z' },
      { loc: `${SITE}/sitemaps/2.xml`, lastmod: '2025-01-06T00:00:00Z' },
      { loc: `${SITE}/sitemaps/3.xml`, lastmod: '2025-01-07T00:00:00Z' },
    ]);
  });
});

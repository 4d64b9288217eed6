/**
 * The sitemap (sitemaps.org 0.9) of the site's pages, made from the dataset:
 * the home page, the API reference, the developers' and about-reviews pages, every page of the review list and every
 * review's page. `lastmod` is content time (a review's `updated`, the dataset's
 * for pages that list reviews), never the build clock, so the same content
 * gives the same bytes. Past 50,000 URLs (the protocol's limit per file)
 * /sitemap.xml becomes an index of numbered parts under /sitemaps/.
 */
import { reviewPageCount } from '../pages/paging.ts';
import type { ReviewsDataset } from '../reviews/schema.ts';

export interface SitemapUrl {
  loc: string;
  lastmod?: string;
}

const URLS_PER_SITEMAP = 50_000;

const XMLNS = 'http://www.sitemaps.org/schemas/sitemap/0.9';

export function sitePages(dataset: ReviewsDataset, site: string): SitemapUrl[] {
  const at = (path: string) => new URL(path, site).href;
  const updated = dataset.updated;
  const urls: SitemapUrl[] = [
    { loc: at('/'), lastmod: updated },
    // The reference changes with the code, not the content: no date is better than a wrong one.
    { loc: at('/api-reference') },
    { loc: at('/developers') },
    // It lists the moderation log, whose date the dataset does not carry: no date rather than a wrong one.
    { loc: at('/about-reviews') },
  ];
  // A new review shifts every list page by one, so each changes when the dataset does.
  for (let page = 1; page <= reviewPageCount(dataset.reviews.length); page++)
    urls.push({ loc: at(`/reviews/page/${page}`), lastmod: updated });
  for (const review of dataset.reviews)
    urls.push({ loc: at(`/reviews/${encodeURIComponent(review.id)}`), lastmod: review.updated });
  return urls;
}

/** The part files: none while every URL fits in /sitemap.xml itself. */
export function sitemapParts(urls: readonly SitemapUrl[], perFile = URLS_PER_SITEMAP): SitemapUrl[][] {
  if (urls.length <= perFile) return [];
  const parts: SitemapUrl[][] = [];
  for (let start = 0; start < urls.length; start += perFile) parts.push(urls.slice(start, start + perFile));
  return parts;
}

/** What /sitemap.xml holds: every URL, or the index of the parts when there are more than one file takes. */
export function sitemapXml(urls: readonly SitemapUrl[], site: string, perFile = URLS_PER_SITEMAP): string {
  const parts = sitemapParts(urls, perFile);
  if (parts.length === 0) return urlsetXml(urls);
  const entries = parts.map((part, index) => {
    // RFC 3339 instants in UTC compare as strings.
    const lastmod = part.reduce((latest, url) => (url.lastmod && url.lastmod > latest ? url.lastmod : latest), '');
    return `<sitemap><loc>${xmlText(new URL(`/sitemaps/${index + 1}.xml`, site).href)}</loc>${lastmod ? `<lastmod>${lastmod}</lastmod>` : ''}</sitemap>`;
  });
  return document('sitemapindex', entries);
}

export function urlsetXml(urls: readonly SitemapUrl[]): string {
  return document(
    'urlset',
    urls.map(
      (url) => `<url><loc>${xmlText(url.loc)}</loc>${url.lastmod ? `<lastmod>${url.lastmod}</lastmod>` : ''}</url>`,
    ),
  );
}

function document(root: string, entries: string[]): string {
  return `<?xml version="1.0" encoding="UTF-8"?>\n<${root} xmlns="${XMLNS}">\n${entries.map((entry) => `${entry}\n`).join('')}</${root}>\n`;
}

/** The protocol asks for every URL entity-escaped. */
function xmlText(value: string): string {
  return value
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');
}

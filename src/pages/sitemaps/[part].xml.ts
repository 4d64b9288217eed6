/** The numbered parts of the sitemap, written only when /sitemap.xml is an index (past 50,000 URLs). */
import type { APIRoute, GetStaticPaths } from 'astro';
import { getDataset } from '../../data/dataset.ts';
import { astroSite } from '../../data/site.ts';
import { sitemapParts, sitePages, urlsetXml, type SitemapUrl } from '../../lib/seo/sitemap.ts';

export const prerender = true;

export const getStaticPaths = (async () => {
  const parts = sitemapParts(sitePages(await getDataset(), astroSite()));
  return parts.map((urls, index) => ({ params: { part: String(index + 1) }, props: { urls } }));
}) satisfies GetStaticPaths;

export const GET: APIRoute<{ urls: SitemapUrl[] }> = ({ props }) =>
  new Response(urlsetXml(props.urls), { headers: { 'content-type': 'application/xml; charset=utf-8' } });

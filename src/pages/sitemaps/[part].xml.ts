/** The numbered parts of the sitemap, written only when /sitemap.xml is an index (past 50,000 URLs). */
import type { APIRoute, GetStaticPaths } from 'astro';
import { getDataset } from '../../route-services/dataset.ts';
import { astroSite } from '../../route-services/site-origin.ts';
import { bytesBody, textBytes } from '../../lib/http/answer.ts';
import { sitemapParts, sitePages, urlsetXml, type SitemapUrl } from '../../lib/seo/sitemap.ts';
import { compressEarly } from '../../lib/static/manifest.ts';

export const prerender = true;

export const getStaticPaths = (async () => {
  const parts = sitemapParts(sitePages(await getDataset(), astroSite()));
  return parts.map((urls, index) => ({ params: { part: String(index + 1) }, props: { urls } }));
}) satisfies GetStaticPaths;

export const GET: APIRoute<{ urls: SitemapUrl[] }, { part: string }> = ({ props, params }) => {
  const body = textBytes(urlsetXml(props.urls));
  // At build time its variants are made meanwhile (50,000 URLs, a few MB).
  compressEarly(`/sitemaps/${params.part}.xml`, body);
  return new Response(bytesBody(body), { headers: { 'content-type': 'application/xml; charset=utf-8' } });
};

import type { APIRoute } from 'astro';
import { getDataset } from '../route-services/dataset.ts';
import { sitemapXml, sitePages } from '../lib/seo/sitemap.ts';

export const prerender = true;

export const GET: APIRoute = async ({ site }) =>
  new Response(sitemapXml(sitePages(await getDataset(), site!.href), site!.href), {
    headers: { 'content-type': 'application/xml; charset=utf-8' },
  });

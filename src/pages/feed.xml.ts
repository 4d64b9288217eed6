import type { APIRoute } from 'astro';
import { getDataset } from '../route-services/dataset.ts';
import { atomFeed } from '../lib/feeds/atom.ts';

export const prerender = true;

export const GET: APIRoute = async ({ site }) =>
  new Response(atomFeed(await getDataset(), site!.href), {
    headers: { 'content-type': 'application/atom+xml; charset=utf-8' },
  });

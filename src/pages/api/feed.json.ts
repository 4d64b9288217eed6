import type { APIRoute } from 'astro';
import { getDataset } from '../../route-services/dataset.ts';
import { jsonFeed } from '../../lib/feeds/json-feed.ts';
import { toJsonBody } from '../../lib/http/json.ts';

export const prerender = true;

export const GET: APIRoute = async ({ site }) =>
  new Response(toJsonBody(jsonFeed(await getDataset(), site!.href)), {
    headers: { 'content-type': 'application/feed+json; charset=utf-8' },
  });

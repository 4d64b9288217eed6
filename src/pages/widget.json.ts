/**
 * /widget.json: the unfiltered widget's data (src/lib/widget/dataset.ts), a
 * static file of the build like /reviews.json, with the same ETag, CORS,
 * compression and caching.
 */
import type { APIRoute } from 'astro';
import { getDataset } from '../route-services/dataset.ts';
import { toJsonBody } from '../lib/http/json.ts';
import { buildWidgetDataset } from '../lib/widget/dataset.ts';

export const prerender = true;

export const GET: APIRoute = async () =>
  new Response(toJsonBody(buildWidgetDataset(await getDataset())), {
    headers: { 'content-type': 'application/json; charset=utf-8' },
  });

import type { APIRoute } from 'astro';
import { datasetJsonBody } from '../route-services/dataset.ts';
import { bytesBody } from '../lib/http/answer.ts';
import { compressEarly } from '../lib/static/manifest.ts';

export const prerender = true;

export const GET: APIRoute = async () => {
  const body = await datasetJsonBody();
  // At build time its brotli and gzip variants are made meanwhile (56 MB at 100k reviews).
  compressEarly('/reviews.json', body);
  return new Response(bytesBody(body), { headers: { 'content-type': 'application/json; charset=utf-8' } });
};

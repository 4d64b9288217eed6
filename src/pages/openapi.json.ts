/** GET /openapi.json: the OpenAPI 3.1 description, a static data file (content-hash ETag, 304, precompressed). */
import type { APIRoute } from 'astro';
import { openApiJson } from '../lib/api/openapi/document.ts';

export const prerender = true;

export const GET: APIRoute = ({ site }) =>
  new Response(openApiJson(site!.href), { headers: { 'content-type': 'application/json; charset=utf-8' } });

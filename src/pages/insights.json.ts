import type { APIRoute } from 'astro';
import { getInsights } from '../route-services/insights.ts';
import { toJsonBody } from '../lib/http/json.ts';

export const prerender = true;

export const GET: APIRoute = async () =>
  new Response(toJsonBody(await getInsights()), { headers: { 'content-type': 'application/json; charset=utf-8' } });

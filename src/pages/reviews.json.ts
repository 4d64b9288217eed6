import type { APIRoute } from 'astro';
import { getDataset } from '../data/dataset.ts';
import { toJsonBody } from '../lib/http/json.ts';

export const prerender = true;

export const GET: APIRoute = async () =>
  new Response(toJsonBody(await getDataset()), { headers: { 'content-type': 'application/json; charset=utf-8' } });

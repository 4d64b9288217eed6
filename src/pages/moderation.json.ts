import type { APIRoute } from 'astro';
import { getModerationLog } from '../route-services/moderation.ts';
import { toJsonBody } from '../lib/http/json.ts';

export const prerender = true;

export const GET: APIRoute = async () =>
  new Response(toJsonBody(await getModerationLog()), {
    headers: { 'content-type': 'application/json; charset=utf-8' },
  });

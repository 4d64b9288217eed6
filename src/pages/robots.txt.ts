import type { APIRoute } from 'astro';
import { robotsTxt } from '../lib/seo/robots.ts';

export const prerender = true;

export const GET: APIRoute = ({ site }) =>
  new Response(robotsTxt(site!.href), { headers: { 'content-type': 'text/plain; charset=utf-8' } });

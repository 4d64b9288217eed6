/**
 * /widget.js: the embeddable widget (src/widget/), bundled at build time into
 * one static file, so it gets the static manifest's content-hash ETag, CORS,
 * precompression and Cache-Control like the datasets, at a URL that never
 * changes: the snippet the owner pasted keeps working across deploys.
 */
import type { APIRoute } from 'astro';
import { bundleWidget } from '../widget/bundle.ts';

export const prerender = true;

export const GET: APIRoute = async () =>
  new Response(await bundleWidget(), { headers: { 'content-type': 'text/javascript; charset=utf-8' } });

/**
 * /admin/decap-cms.js: Decap CMS's browser bundle, copied from node_modules at
 * build time so that /admin loads nothing from a public CDN. Only the main
 * bundle is served: its lazy chunks are CodeMirror modes of the `code` widget,
 * which the review form does not use.
 */
import type { APIRoute } from 'astro';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

export const prerender = true;

export const GET: APIRoute = () => {
  const file = createRequire(import.meta.url).resolve('decap-cms/dist/decap-cms.js');
  return new Response(readFileSync(file), { headers: { 'content-type': 'text/javascript; charset=utf-8' } });
};

/**
 * /admin/config.yml: the Decap CMS configuration, generated at build time from
 * the review schema and business.yaml (src/lib/content/cms-config.ts). The Git
 * backend comes from CMS_* environment variables (docs/editing.md).
 */
import type { APIRoute } from 'astro';
import { cmsConfigYaml } from '../../lib/content/cms-config.ts';

export const prerender = true;

export const GET: APIRoute = () =>
  new Response(cmsConfigYaml(), { headers: { 'content-type': 'text/yaml; charset=utf-8', 'x-robots-tag': 'noindex' } });

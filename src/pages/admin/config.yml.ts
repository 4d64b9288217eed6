/**
 * /admin/config.yml: the Decap CMS configuration, generated at build time from
 * the review schema and business.yaml (src/lib/content/cms-config.ts). The Git
 * backend comes from CMS_* environment variables (docs/editing.md); the local
 * backend only in dev or when CMS_LOCAL_BACKEND asks for it.
 */
import type { APIRoute } from 'astro';
import { cmsConfigYaml, cmsSettingsFromEnv, readChoices } from '../../lib/content/cms-config.ts';

export const prerender = true;

export const GET: APIRoute = ({ site }) =>
  new Response(
    cmsConfigYaml(readChoices(), cmsSettingsFromEnv(process.env, { dev: import.meta.env.DEV, site: site?.href })),
    {
      headers: { 'content-type': 'text/yaml; charset=utf-8', 'x-robots-tag': 'noindex' },
    },
  );

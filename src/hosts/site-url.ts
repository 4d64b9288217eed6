/**
 * The public base URL a build bakes into feeds, JSON-LD and WebSub topics.
 * SITE_URL wins; on a host, its production URL is the fallback (Netlify `URL`,
 * Vercel `VERCEL_PROJECT_PRODUCTION_URL`, a bare host name). A host build that
 * would still bake the local default fails: feeds pointing at localhost would be
 * published to every subscriber.
 */
import { DEFAULT_SITE_URL, siteUrl } from '../lib/config/site.ts';
import type { DeployTarget } from './target.ts';

type Env = Record<string, string | undefined>;

export function hostSiteUrl(target: DeployTarget, env: Env = process.env): string {
  if (env.SITE_URL?.trim()) return siteUrl(env);
  const fallback = hostProductionUrl(target, env);
  if (fallback) return siteUrl({ SITE_URL: fallback });
  if (target !== 'node') {
    const hostVariable = target === 'netlify' ? 'URL' : 'VERCEL_PROJECT_PRODUCTION_URL';
    throw new Error(
      `SITE_URL is not set and ${hostVariable} is empty, so this ${target} build would publish ${DEFAULT_SITE_URL} in its feeds, ` +
        `JSON-LD and WebSub topics. Set SITE_URL to the site's public URL (e.g. https://reviews.example.com) in the ${target} project's environment variables.`,
    );
  }
  return DEFAULT_SITE_URL;
}

function hostProductionUrl(target: DeployTarget, env: Env): string | undefined {
  if (target === 'netlify') return env.URL?.trim() || undefined;
  if (target === 'vercel') {
    const host = env.VERCEL_PROJECT_PRODUCTION_URL?.trim();
    return host ? `https://${host}` : undefined;
  }
  return undefined;
}

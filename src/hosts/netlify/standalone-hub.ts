/**
 * The hub as a host's standalone function runs it (Netlify's scheduled and
 * deploy-succeeded functions): outside Astro, so without the dataset; the
 * topics' content is read from the site itself (WEBSUB_CONTENT_ORIGIN, default
 * the site), exactly as the CDN serves it. The site is SITE_URL, else the host's
 * production URL (Netlify sets `URL` in functions too).
 */
import { unmetRequirements, type Requirement } from '../requirements.ts';
import { createStore, storeConfigFromEnv } from '../../lib/store/index.ts';
import { hubConfigFromEnv } from '../../lib/websub/config.ts';
import { httpContentSource } from '../../lib/websub/content.ts';
import { createHubService, type HubService } from '../../lib/websub/service.ts';

type Env = Record<string, string | undefined>;

export type StandaloneHub = { unmet: Requirement[] } | { unmet?: never; service: HubService; close(): Promise<void> };

export function standaloneHub(env: Env, fallbackSite?: string): StandaloneHub {
  const rawSite = env.SITE_URL?.trim() || env.URL?.trim() || fallbackSite;
  const unmet = unmetRequirements(rawSite ? ['REDIS_URL'] : ['REDIS_URL', 'SITE_URL'], env);
  if (unmet.length > 0 || !rawSite) return { unmet };
  const site = new URL(rawSite).origin;
  const config = hubConfigFromEnv(env);
  const store = createStore(storeConfigFromEnv(env));
  const content = httpContentSource(env.WEBSUB_CONTENT_ORIGIN?.trim() || site, config.requestTimeoutMs);
  const service = createHubService({ site, config, store, content });
  return {
    service,
    async close() {
      await service.close();
      await store.close();
    },
  };
}

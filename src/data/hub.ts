/**
 * The WebSub hub for Astro's on-demand route (serverless hosts; the Node entry
 * answers /api/websub/hub itself from the same src/lib code). Built once per
 * process. No static files are in memory here, so a topic's content is taken
 * with a GET of the site's own public URL (WEBSUB_CONTENT_ORIGIN, default the
 * site's URL) — never of an origin named by a request's Host header.
 * There is no "listening" moment on such hosts: `npm run publish` pings the
 * hub after a deploy.
 */
import { hubConfigFromEnv } from '../lib/websub/config.ts';
import { httpContentSource } from '../lib/websub/content.ts';
import { createHubService, type HubService } from '../lib/websub/service.ts';
import { astroSite, getStore } from './site.ts';

let service: HubService | undefined;

export function getHub(): HubService {
  if (!service) {
    const env = process.env;
    const site = astroSite();
    const config = hubConfigFromEnv(env);
    const origin = env.WEBSUB_CONTENT_ORIGIN?.trim() || site;
    service = createHubService({ site, env, config, store: getStore(), content: httpContentSource(origin, config.requestTimeoutMs, config.userAgent) });
    service.hub.start();
  }
  return service;
}

/**
 * The WebSub hub for Astro's on-demand route (serverless hosts; the Node entry
 * answers /api/websub/hub itself from the same src/lib code). Built once per
 * process. A topic's content is rendered here from the collections by the same
 * functions the prerendered files were made with (src/lib/websub/rendered-content.ts),
 * or, when WEBSUB_CONTENT_ORIGIN is set, fetched from that origin — never from
 * an origin named by a request's Host header.
 *
 * The retry timer runs only on the Node target: a function keeps no timer
 * between requests; the host's scheduler calls the sweep instead
 * (src/pages/api/cron/sweep.ts, netlify/functions/websub-sweep.mts).
 */
import { hubConfigFromEnv } from '../lib/websub/config.ts';
import { httpContentSource } from '../lib/websub/content.ts';
import { renderedContentSource } from '../lib/websub/rendered-content.ts';
import { createHubService, type HubService } from '../lib/websub/service.ts';
import { getDataset } from './dataset.ts';
import { getModerationLog } from './moderation.ts';
import { SERVERLESS } from '../hosts/built-target.ts';
import { getStore } from './process-store.ts';
import { astroSite } from './site-origin.ts';

let service: HubService | undefined;

export function getHub(): HubService {
  if (!service) {
    const env = process.env;
    const site = astroSite();
    const config = hubConfigFromEnv(env);
    const origin = env.WEBSUB_CONTENT_ORIGIN?.trim();
    const content = origin
      ? httpContentSource(origin, config.requestTimeoutMs)
      : renderedContentSource({ dataset: getDataset, moderation: getModerationLog }, site);
    service = createHubService({ site, config, store: getStore(), content });
    if (!SERVERLESS) service.hub.start();
  }
  return service;
}

/**
 * The /mcp handler for Astro's on-demand route (serverless hosts; the Node
 * entry answers /mcp itself from the same src/lib code). Built once per
 * process: the dataset from the content collections, the store and the
 * session signing key from the environment, as on the Node path.
 *
 * Loopback Host names (localhost, 127.0.0.1, [::1]) are allowed only when
 * MCP_BIND_HOST names a loopback address. The Node entry sets it to the address
 * it listens on (src/node/dynamic-routes.ts), so this route, when it runs inside
 * that process (API_THROUGH_ASTRO=true), accepts what the direct path accepts.
 * A serverless host does not set it: no loopback names there unless
 * MCP_ALLOWED_HOSTS lists them. (HOST is not read: a platform may set it to
 * anything, and nothing listens on it here.)
 */
import { BIND_HOST_ENV } from '../lib/mcp/config.ts';
import type { McpEndpoint } from '../lib/mcp/endpoint.ts';
import { createMcpService } from '../lib/mcp/service.ts';
import { deploymentOrigins } from '../hosts/deployment-origins.ts';
import { NEEDS } from '../hosts/requirements.ts';
import { getSearchMissLimit } from './api-context.ts';
import { getDatasetSource } from './dataset.ts';
import { missingSettings } from '../hosts/built-target.ts';
import { getInsights } from './insights.ts';
import { getModerationLog } from './moderation.ts';
import { getStore } from './process-store.ts';
import { astroSite } from './site-origin.ts';

let handler: Promise<McpEndpoint> | undefined;

// In `astro dev`, an editor's content change gives the next request a server over the new content.
import.meta.hot?.on('astro:content-changed', () => (handler = undefined));

export function getMcpHandler(): Promise<McpEndpoint> {
  handler ??= (async () => {
    const env = process.env;
    const searchMisses = getSearchMissLimit();
    return createMcpService({
      content: {
        site: astroSite(),
        dataset: await getDatasetSource(),
        insights: (await getInsights()) as unknown as Record<string, unknown>,
        moderation: await getModerationLog(),
      },
      // Only sessions (2025 revisions) use the store, and on a serverless host only once their settings exist.
      store: getStore,
      env,
      bindHost: env[BIND_HOST_ENV],
      // A Netlify or Vercel deployment also answers under its deploy and preview names.
      deploymentOrigins: deploymentOrigins(env),
      sessionsUnavailable: () => missingSettings(NEEDS.mcp),
      ...(searchMisses ? { searchMisses } : {}),
    });
  })();
  // A failed start (say, an unreachable store) is retried on the next request, not cached.
  handler.catch(() => (handler = undefined));
  return handler;
}

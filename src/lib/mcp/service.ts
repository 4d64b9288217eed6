/**
 * The /mcp endpoint put together from configuration: settings, the catalog
 * (built once per process), and the HTTP handler for every revision. The Node
 * entry and the Astro route both build it here, so the two answer alike.
 *
 * The store and the session signing key are needed only by 2025-era sessions
 * and are fetched on the first such request: a 2026-07-28 client is served
 * with neither (on Netlify or Vercel: without REDIS_URL or MCP_SESSION_SECRET).
 */
import type { Store } from '../store/store.ts';
import { createCatalog } from './catalog.ts';
import type { McpContent } from './definitions.ts';
import { createRateLimits } from '../limits/rate-limits.ts';
import type { SearchMissLimit } from '../limits/search-misses.ts';
import { mcpConfigFromEnv, SESSION_RATE_WINDOW_SECONDS } from './config.ts';
import { createMcpEndpoint, type McpEndpoint } from './endpoint.ts';
import { SessionSigner } from './session-ids.ts';
import { sessionKeySource, storeEndedSessions } from './session-store.ts';
import { isStoreUnavailable } from '../store/unavailable.ts';

/** How long checking a session id may use the session key read last before reading the store again. */
const KEY_REUSE_MS = 1000;

export interface McpServiceOptions {
  content: McpContent;
  /** The state store of the 2025 sessions (ended ids, a generated key), asked for on first use. */
  store: () => Store;
  env: Record<string, string | undefined>;
  /**
   * The address the server listens on, when known (the Node entry: HOST); a
   * loopback one adds the loopback host names. Undefined on serverless hosts.
   */
  bindHost: string | undefined;
  /** Origins this deployment also answers under besides the site's (a host's deploy and preview names). */
  deploymentOrigins?: readonly string[];
  /** An answer instead of 2025 sessions, while the deployment lacks their settings (serverless: a 503). */
  sessionsUnavailable?: () => Response | undefined;
  /**
   * Read the session key now, failing the start on a bad stored key (the Node
   * entry, which has a store); an unreachable store is not fatal (logged by the
   * store, 503 until it is back). Otherwise it is read on the first 2025-era request.
   */
  eagerSessions?: boolean;
  /** The per-client limit on searches not answered before, the REST search's own (one count for both). */
  searchMisses?: SearchMissLimit;
}

export async function createMcpService(options: McpServiceOptions): Promise<McpEndpoint> {
  const config = mcpConfigFromEnv(options.env, options.content.site, options.bindHost, options.deploymentOrigins);
  let keys: (() => Promise<Uint8Array>) | undefined;
  let current: { key: string; signer: SessionSigner; readAt: number } | undefined;
  /**
   * The signer over the key the store holds: read now when `fresh` (issuing an
   * id, or an id that failed with the key read last), otherwise the key read
   * within the last KEY_REUSE_MS (checking ids: a store read less per request).
   * Instances agree on one key; a change is adopted within that time, and an
   * id signed with the new key is never refused meanwhile (see sessions.ts).
   */
  const getSigner = async (fresh = true) => {
    if (!fresh && current && performance.now() - current.readAt < KEY_REUSE_MS) return current.signer;
    const store = options.store();
    keys ??= sessionKeySource(store, config.secret);
    const secret = await keys();
    const key = Buffer.from(secret).toString('base64url');
    if (current?.key !== key)
      current = {
        key,
        signer: new SessionSigner({ secret, ttlSeconds: config.sessionTtlSeconds, ended: storeEndedSessions(store) }),
        readAt: 0,
      };
    current.readAt = performance.now();
    return current.signer;
  };
  if (options.eagerSessions) {
    try {
      await getSigner();
    } catch (error) {
      // Redis out of reach at start: static files, search and 2026 MCP still serve; 2025 sessions answer 503 until it is back.
      // A bad stored key stops the start (every session would die if it were replaced).
      if (!isStoreUnavailable(error)) throw error;
    }
  }
  return createMcpEndpoint({
    catalog: createCatalog(options.content),
    config,
    ...(options.searchMisses ? { searchMisses: options.searchMisses } : {}),
    sessions: {
      signer: getSigner,
      unavailable: options.sessionsUnavailable,
      limits: createRateLimits(options.store, {
        initialize: { points: config.sessionRateLimit, windowSeconds: SESSION_RATE_WINDOW_SECONDS },
        end: { points: config.sessionRateLimit, windowSeconds: SESSION_RATE_WINDOW_SECONDS },
      }),
    },
  });
}

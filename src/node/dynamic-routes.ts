/**
 * The Node entry's one route table: the on-demand routes it answers itself,
 * straight from the src/lib handlers (the same ones the thin Astro routes in
 * src/pages wrap), and the work it does once it is listening. Every dynamic
 * path, its body limit and its handler are found here; a path it does not list
 * is a static file or one of Astro's pages.
 */
import type { ApiContext } from '../lib/api/context.ts';
import { API_ROUTES } from '../lib/api/routes.ts';
import type { ApiAnswer, ApiRequest } from '../lib/http/answer.ts';
import { BIND_HOST_ENV } from '../lib/mcp/config.ts';
import { MCP_MAX_BODY_BYTES, mcpPayloadTooLarge } from '../lib/mcp/endpoint.ts';
import { createMcpService } from '../lib/mcp/service.ts';
import { deploymentOrigins } from '../hosts/deployment-origins.ts';
import { PendingWork, registerProcessWork } from '../hosts/node/pending-work.ts';
import { createStore, storeConfigFromEnv } from '../lib/store/index.ts';
import { HUB_MAX_BODY_BYTES, hubConfigFromEnv } from '../lib/websub/config.ts';
import { createHubService } from '../lib/websub/service.ts';
import type { StaticFiles } from './static-files.ts';
import type { BodyRoute } from './web-bridge.ts';
import type { ModerationLog } from '../lib/reviews/schema.ts';

interface ClientInfo {
  /** The client's IP address, for rate limits (src/lib/http/client-address.ts: the peer's, or a trusted proxy's word). */
  address: string;
}

/** A route answers either through a Web handler (Request → Response) or, on hot read-only paths, with a plain answer. */
type DynamicRoute = BodyRoute & {
  matches(pathname: string): boolean;
} & (
    | { handle(request: Request, client: ClientInfo): Promise<Response> | Response; answer?: never }
    | { answer(request: ApiRequest, client: ClientInfo): ApiAnswer; handle?: never }
  );

export interface NodeServices {
  routes: DynamicRoute[];
  /** Runs once the server listens, when the new content is live (WebSub publishing). */
  onListening(): Promise<void>;
  /** Work still running after its answer (verifications, fan-out): finished before the process exits. */
  pending: PendingWork;
  close(): Promise<void>;
}

export interface ServiceOptions {
  site: string;
  /** The address the server listens on: a loopback one lets /mcp answer the loopback Host names. */
  host: string;
  staticFiles: StaticFiles;
  api: ApiContext;
  env: Record<string, string | undefined>;
}

export async function createNodeServices(options: ServiceOptions): Promise<NodeServices> {
  // What the hub leaves running after a 202; the Astro route (API_THROUGH_ASTRO) finds it through the registry.
  const pending = new PendingWork();
  registerProcessWork(pending);
  // One store for the process: MCP sessions and the hub's state (one Redis connection, one sweep).
  const store = createStore(storeConfigFromEnv(options.env));
  // A STORE_DIR that cannot be written is said before the server listens (it still starts: 503s until it is fixed).
  await store.ready?.();
  const insightsFile = options.staticFiles.read('/insights.json');
  const moderationFile = options.staticFiles.read('/moderation.json');
  // Loopback allows the loopback Host names. The Astro route reads the address from the
  // environment when it serves /mcp in this process (API_THROUGH_ASTRO=true).
  process.env[BIND_HOST_ENV] = options.host;
  const mcp = await createMcpService({
    content: {
      site: options.site,
      dataset: options.api.dataset,
      insights: insightsFile ? (JSON.parse(insightsFile.body.toString('utf8')) as Record<string, unknown>) : undefined,
      moderation: moderationFile ? (JSON.parse(moderationFile.body.toString('utf8')) as ModerationLog) : undefined,
    },
    store: () => store,
    env: options.env,
    bindHost: options.host,
    deploymentOrigins: deploymentOrigins(options.env),
    // A bad stored session key stops the start; an unreachable Redis does not (503s until it is back).
    eagerSessions: true,
    // One count of new searches per client, whether REST or MCP asks.
    ...(options.api.searchMisses ? { searchMisses: options.api.searchMisses } : {}),
  });
  // The WebSub hub: topic content straight from the static files in memory, exactly as served.
  const websub = createHubService({
    site: options.site,
    config: hubConfigFromEnv(options.env),
    store,
    content: async (path) => options.staticFiles.read(path),
  });
  const routes: DynamicRoute[] = [
    // MCP over streamable HTTP (before the /api/ catch-all). Past 1 MiB the table answers 413 itself.
    {
      matches: (path) => path === '/mcp' || path === '/mcp/',
      maxBodyBytes: MCP_MAX_BODY_BYTES,
      tooLarge: mcpPayloadTooLarge,
      handle: (request, client) => mcp(request, client),
    },
    // The WebSub hub (before the /api/ catch-all). Past 64 KiB the table answers 413 itself.
    {
      matches: (path) => path === '/api/websub/hub' || path === '/api/websub/hub/',
      maxBodyBytes: HUB_MAX_BODY_BYTES,
      handle: (request, client) => websub.hub.handle(request, client, pending.track),
    },
    // The REST API (src/lib/api/routes.ts): search, since, and a JSON 404 for the rest of /api/*.
    ...API_ROUTES.map((route): DynamicRoute => ({
      matches: route.matches,
      maxBodyBytes: 0,
      answer: (request, client) => route.answer(request, options.api, client),
    })),
  ];
  return {
    routes,
    // WebSub: publish what changed since the last distribution, now that it is live.
    onListening: () => websub.onListening(),
    pending,
    async close() {
      await websub.close();
      await store.close();
    },
  };
}

/**
 * The /mcp endpoint put together from configuration: settings, the session
 * signing key (configured, or shared through the store), the signer, and the
 * HTTP handler around the tools. The Node entry and the Astro route both build
 * it here, so the two answer alike.
 */
import type { Store } from '../store/store.ts';
import { mcpConfigFromEnv } from './config.ts';
import { createMcpHandler } from './http-handler.ts';
import { SessionSigner } from './session.ts';
import { sessionSecret, storeEndedSessions } from './session-store.ts';
import { createMcpServer, type McpContent } from './tools.ts';

export interface McpServiceOptions {
  content: McpContent;
  store: Store;
  env: Record<string, string | undefined>;
  /**
   * The address the server listens on, when known (the Node entry: HOST); a
   * loopback one adds the loopback host names. Undefined on serverless hosts.
   */
  bindHost: string | undefined;
}

export async function createMcpService(options: McpServiceOptions): Promise<(request: Request) => Promise<Response>> {
  const config = mcpConfigFromEnv(options.env, options.content.site, options.bindHost);
  const secret = await sessionSecret(options.store, config.secret);
  const signer = new SessionSigner({ secret, ttlSeconds: config.sessionTtlSeconds, ended: storeEndedSessions(options.store) });
  return createMcpHandler({
    signer,
    createServer: () => createMcpServer(options.content),
    allowedHosts: config.allowedHosts,
    allowedOrigins: config.allowedOrigins,
  });
}

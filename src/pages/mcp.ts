/**
 * MCP over streamable HTTP (see src/lib/mcp/endpoint.ts): every method goes to the one handler.
 * A serverless deployment without REDIS_URL / MCP_SESSION_SECRET still serves 2026-07-28 clients;
 * only 2025-era sessions answer 503 naming the missing settings (src/route-services/mcp-handler.ts).
 */
import type { APIRoute } from 'astro';
import { getMcpHandler } from '../route-services/mcp-handler.ts';
import { routeClient } from '../hosts/route-client.ts';
import type { McpEndpoint } from '../lib/mcp/endpoint.ts';
import { toResponse } from '../lib/http/answer.ts';
import { jsonAnswer } from '../lib/http/json.ts';

export const prerender = false;

export const ALL: APIRoute = async (context) => {
  let handle: McpEndpoint;
  try {
    handle = await getMcpHandler();
  } catch (error) {
    // The server could not be set up from this deployment's settings (say, an MCP_SESSION_SECRET
    // under 32 characters): the operator's to fix, named in a 503, never a 500.
    const message = error instanceof Error ? error.message : String(error);
    return toResponse(
      jsonAnswer({ error: 'not_configured', message }, { status: 503, headers: { 'retry-after': '60' } }),
    );
  }
  return handle(context.request, routeClient(context));
};

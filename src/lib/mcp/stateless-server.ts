/**
 * The MCP server of the stateless revision 2026-07-28 (SDK v2): a low-level
 * `Server` with the same request handlers as the session server.
 * The SDK's `createMcpHandler` asks for a server per request; it gets one with
 * that request's answer budget, everything else ready from the catalog.
 *
 * Caching hints: the data changes only on deploy and is the same for every
 * caller, so list and read results are `public` with the TTL of the REST
 * datasets' `Cache-Control: max-age` (see caching-hint.ts).
 */
import { ProtocolError, Server } from '@modelcontextprotocol/server';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/server/validators/ajv';
import { CACHE_HINT } from './caching-hint.ts';
import { requestHandlers, type McpCatalog } from './catalog.ts';
import { SERVER_INFO } from './definitions.ts';
import { CAPABILITIES } from './session-server.ts';

const CACHE_HINTS = {
  'server/discover': CACHE_HINT,
  'tools/list': CACHE_HINT,
  'prompts/list': CACHE_HINT,
  'resources/list': CACHE_HINT,
  'resources/templates/list': CACHE_HINT,
  'resources/read': CACHE_HINT,
};

/** One JSON Schema validator per process (the SDK builds an Ajv per server otherwise; this server never uses it). */
let validator: AjvJsonSchemaValidator | undefined;

export function createStatelessServer(catalog: McpCatalog): Server {
  validator ??= new AjvJsonSchemaValidator();
  const server = new Server({ ...SERVER_INFO }, { capabilities: CAPABILITIES, instructions: catalog.instructions, cacheHints: CACHE_HINTS, jsonSchemaValidator: validator });
  const handlers = requestHandlers(catalog, (code, message, data) => new ProtocolError(code, message, data));
  for (const [method, handler] of Object.entries(handlers)) server.setRequestHandler(method as never, handler as never);
  return server;
}

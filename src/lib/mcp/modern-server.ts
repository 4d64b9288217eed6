/**
 * The 2026-07-28 MCP server (SDK v2): a low-level `Server` whose handlers
 * answer from the same catalog as the 2025-era server. The SDK's
 * `createMcpHandler` asks for a server per request; only the object and its
 * handlers are made then, everything else comes ready from the catalog.
 *
 * Caching hints: the data changes only on deploy and is the same for every
 * caller, so list and read results are `public` with the TTL of the REST
 * datasets' `Cache-Control: max-age` (see caching-hint.ts).
 */
import { ProtocolError, ProtocolErrorCode, ResourceNotFoundError, Server, type CallToolResult, type ListToolsResult, type ReadResourceResult } from '@modelcontextprotocol/server';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/server/validators/ajv';
import { SERVER_INFO, type McpCatalog } from './catalog.ts';
import { CACHE_HINT } from './caching-hint.ts';
import { unknownTool } from './legacy-server.ts';

const CAPABILITIES = { tools: {}, resources: {} };
const CACHE_HINTS = {
  'server/discover': CACHE_HINT,
  'tools/list': CACHE_HINT,
  'resources/list': CACHE_HINT,
  'resources/templates/list': CACHE_HINT,
  'resources/read': CACHE_HINT,
};

/** One JSON Schema validator per process (the SDK builds an Ajv per server otherwise; this server never uses it). */
let validator: AjvJsonSchemaValidator | undefined;

export function createModernServer(catalog: McpCatalog): Server {
  validator ??= new AjvJsonSchemaValidator();
  const server = new Server({ ...SERVER_INFO }, { capabilities: CAPABILITIES, instructions: catalog.instructions, cacheHints: CACHE_HINTS, jsonSchemaValidator: validator });
  const tools = { tools: catalog.tools } as unknown as ListToolsResult;
  const resources = { resources: catalog.resources as McpCatalog['resources'][number][] };
  const resourceTemplates = { resourceTemplates: catalog.resourceTemplates as McpCatalog['resourceTemplates'][number][] };
  server.setRequestHandler('tools/list', () => tools);
  server.setRequestHandler('tools/call', (request) => {
    const answer = catalog.callTool(request.params.name, request.params.arguments);
    if (!answer) throw new ProtocolError(ProtocolErrorCode.InvalidParams, unknownTool(catalog, request.params.name));
    return answer as CallToolResult;
  });
  server.setRequestHandler('resources/list', () => resources);
  server.setRequestHandler('resources/templates/list', () => resourceTemplates);
  server.setRequestHandler('resources/read', (request) => {
    const answer = catalog.readResource(request.params.uri);
    // -32602 with data.uri: the 2026-07-28 revision's answer for a missing resource (SEP-2164).
    if (!answer) throw new ResourceNotFoundError(request.params.uri);
    return answer as ReadResourceResult;
  });
  return server;
}

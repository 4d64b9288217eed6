/**
 * The MCP server of the session revisions (2024-10-07 to 2025-11-25, SDK v1):
 * a low-level `Server` with the catalog's request handlers. Made per POST
 * (the SDK's stateless transport wants a fresh server per exchange), with the
 * POST's answer budget; everything else comes ready from the catalog.
 */
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv-provider.js';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { requestHandlers, type McpCatalog } from './catalog.ts';
import { SERVER_INFO } from './definitions.ts';
import { REQUEST_SCHEMAS } from './params.ts';

export const CAPABILITIES = { tools: {}, resources: {}, prompts: {}, completions: {} };

/**
 * The SDK makes a JSON Schema validator (an Ajv instance) per server unless
 * given one; this server never validates with it (it asks clients for
 * nothing), so one per process serves every request.
 */
let validator: AjvJsonSchemaValidator | undefined;

export function createSessionServer(catalog: McpCatalog): Server {
  validator ??= new AjvJsonSchemaValidator();
  const server = new Server({ ...SERVER_INFO }, { capabilities: CAPABILITIES, instructions: catalog.instructions, jsonSchemaValidator: validator });
  const handlers = requestHandlers(catalog, (code, message, data) => new McpError(code, message, data));
  for (const [method, handler] of Object.entries(handlers)) server.setRequestHandler(REQUEST_SCHEMAS.get(method)!, handler as never);
  return server;
}

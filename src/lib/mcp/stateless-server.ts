/**
 * The MCP server of the stateless revision 2026-07-28 (SDK v2): a low-level
 * `Server` whose handlers answer from the same catalog as the session server.
 * The SDK's `createMcpHandler` asks for a server per request; it gets one with
 * that request's answer budget, everything else ready from the catalog.
 *
 * Caching hints: the data changes only on deploy and is the same for every
 * caller, so list and read results are `public` with the TTL of the REST
 * datasets' `Cache-Control: max-age` (see caching-hint.ts).
 */
import {
  ProtocolError,
  ProtocolErrorCode,
  ResourceNotFoundError,
  Server,
  type CallToolResult,
  type GetPromptResult,
  type ListToolsResult,
  type ReadResourceResult,
} from '@modelcontextprotocol/server';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/server/validators/ajv';
import { AnswerBudget } from './budget.ts';
import { CACHE_HINT } from './caching-hint.ts';
import type { McpCatalog } from './catalog.ts';
import { SERVER_INFO, withRefusals } from './definitions.ts';
import { CAPABILITIES, unknownTool } from './session-server.ts';

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
  const budget = new AnswerBudget();
  server.setRequestHandler('tools/list', () => ({ tools: catalog.tools }) as unknown as ListToolsResult);
  server.setRequestHandler('tools/call', ({ params }) =>
    answer(() => {
      const result = catalog.callTool(params.name, params.arguments, budget);
      if (!result) throw new ProtocolError(ProtocolErrorCode.InvalidParams, unknownTool(catalog, params.name));
      return result as CallToolResult;
    }),
  );
  server.setRequestHandler('resources/list', () => ({ resources: [...catalog.resources] }));
  server.setRequestHandler('resources/templates/list', () => ({ resourceTemplates: [...catalog.resourceTemplates] }));
  server.setRequestHandler('resources/read', ({ params }) =>
    answer(() => {
      const result = catalog.readResource(params.uri, budget);
      // -32602 with data.uri: the 2026-07-28 revision's answer for a missing resource (SEP-2164).
      if (!result) throw new ResourceNotFoundError(params.uri);
      return result as ReadResourceResult;
    }),
  );
  server.setRequestHandler('prompts/list', () => ({ prompts: [...catalog.prompts] }));
  server.setRequestHandler('prompts/get', ({ params }) =>
    answer(() => {
      const result = catalog.getPrompt(params.name, params.arguments, budget);
      if (!result) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Unknown prompt ${JSON.stringify(params.name)}; the prompts are ${catalog.prompts.map((p) => p.name).join(', ')}`);
      return result as GetPromptResult;
    }),
  );
  server.setRequestHandler('completion/complete', ({ params }) => ({ completion: { ...catalog.complete(params.ref, params.argument.name, params.argument.value) } }));
  return server;
}

const answer = <T>(run: () => T) => withRefusals(run, (code, message, data) => new ProtocolError(code, message, data));

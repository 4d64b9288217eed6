/**
 * The MCP server of the session revisions (2024-10-07 to 2025-11-25, SDK v1):
 * a low-level `Server` whose handlers answer from the catalog. Made per POST
 * (the SDK's stateless transport wants a fresh server per exchange), with the
 * POST's answer budget; everything else comes ready from the catalog.
 */
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv-provider.js';
import {
  CallToolRequestSchema,
  CompleteRequestSchema,
  ErrorCode,
  GetPromptRequestSchema,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  McpError,
  ReadResourceRequestSchema,
  type CallToolResult,
  type GetPromptResult,
  type ListToolsResult,
  type ReadResourceResult,
} from '@modelcontextprotocol/sdk/types.js';
import { AnswerBudget } from './budget.ts';
import type { McpCatalog } from './catalog.ts';
import { SERVER_INFO, withRefusals } from './definitions.ts';

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
  const budget = new AnswerBudget();
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: catalog.tools }) as unknown as ListToolsResult);
  server.setRequestHandler(CallToolRequestSchema, ({ params }) =>
    answer(() => {
      const result = catalog.callTool(params.name, params.arguments, budget);
      if (!result) throw new McpError(ErrorCode.InvalidParams, unknownTool(catalog, params.name));
      return result as CallToolResult;
    }),
  );
  server.setRequestHandler(ListResourcesRequestSchema, () => ({ resources: [...catalog.resources] }));
  server.setRequestHandler(ListResourceTemplatesRequestSchema, () => ({ resourceTemplates: [...catalog.resourceTemplates] }));
  server.setRequestHandler(ReadResourceRequestSchema, ({ params }) =>
    answer(() => {
      const result = catalog.readResource(params.uri, budget);
      if (!result) throw new McpError(ErrorCode.InvalidParams, `Resource not found: ${params.uri}`, { uri: params.uri });
      return result as ReadResourceResult;
    }),
  );
  server.setRequestHandler(ListPromptsRequestSchema, () => ({ prompts: [...catalog.prompts] }));
  server.setRequestHandler(GetPromptRequestSchema, ({ params }) =>
    answer(() => {
      const result = catalog.getPrompt(params.name, params.arguments, budget);
      if (!result) throw new McpError(ErrorCode.InvalidParams, `Unknown prompt ${JSON.stringify(params.name)}; the prompts are ${catalog.prompts.map((p) => p.name).join(', ')}`);
      return result as GetPromptResult;
    }),
  );
  server.setRequestHandler(CompleteRequestSchema, ({ params }) => ({ completion: { ...catalog.complete(params.ref, params.argument.name, params.argument.value) } }));
  return server;
}

const answer = <T>(run: () => T) => withRefusals(run, (code, message, data) => new McpError(code, message, data));

export function unknownTool(catalog: McpCatalog, name: string): string {
  return `Unknown tool ${JSON.stringify(name)}; the tools are ${catalog.tools.map((tool) => tool.name).join(', ')}`;
}

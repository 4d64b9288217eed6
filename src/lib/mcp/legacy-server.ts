/**
 * The 2025-era MCP server (protocol 2024-10-07 to 2025-11-25, SDK v1): a
 * low-level `Server` whose handlers answer from the catalog. Only the object
 * and its five handlers are made per request (the SDK's stateless transport
 * wants a fresh server per exchange); tool definitions, schemas and answers
 * come ready from the catalog, built once per process.
 */
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv-provider.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  McpError,
  ReadResourceRequestSchema,
  type CallToolResult,
  type ListToolsResult,
  type ReadResourceResult,
} from '@modelcontextprotocol/sdk/types.js';
import { SERVER_INFO, type McpCatalog } from './catalog.ts';

const CAPABILITIES = { tools: {}, resources: {} };
/**
 * The SDK makes a JSON Schema validator (an Ajv instance, costly to build) per
 * server unless given one; this server never validates with it (it asks
 * clients for nothing), so one per process serves every request.
 */
let validator: AjvJsonSchemaValidator | undefined;

export function createLegacyServer(catalog: McpCatalog): Server {
  validator ??= new AjvJsonSchemaValidator();
  const server = new Server({ ...SERVER_INFO }, { capabilities: CAPABILITIES, instructions: catalog.instructions, jsonSchemaValidator: validator });
  const tools = { tools: catalog.tools } as unknown as ListToolsResult;
  const resources = { resources: catalog.resources as McpCatalog['resources'][number][] };
  const resourceTemplates = { resourceTemplates: catalog.resourceTemplates as McpCatalog['resourceTemplates'][number][] };
  server.setRequestHandler(ListToolsRequestSchema, () => tools);
  server.setRequestHandler(CallToolRequestSchema, (request) => {
    const answer = catalog.callTool(request.params.name, request.params.arguments);
    if (!answer) throw new McpError(ErrorCode.InvalidParams, unknownTool(catalog, request.params.name));
    return answer as CallToolResult;
  });
  server.setRequestHandler(ListResourcesRequestSchema, () => resources);
  server.setRequestHandler(ListResourceTemplatesRequestSchema, () => resourceTemplates);
  server.setRequestHandler(ReadResourceRequestSchema, (request) => {
    const answer = catalog.readResource(request.params.uri);
    if (!answer) throw new McpError(ErrorCode.InvalidParams, `Resource not found: ${request.params.uri}`, { uri: request.params.uri });
    return answer as ReadResourceResult;
  });
  return server;
}

export function unknownTool(catalog: McpCatalog, name: string): string {
  return `Unknown tool ${JSON.stringify(name)}; the tools are ${catalog.tools.map((tool) => tool.name).join(', ')}`;
}

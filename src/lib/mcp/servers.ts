/**
 * The two SDK servers made from the catalog, each a low-level `Server` with
 * the catalog's request handlers, made per POST with that POST's answer
 * budget (the SDKs want a fresh server per exchange):
 *
 * - the session revisions (2024-10-07 to 2025-11-25): SDK v1, behind our
 *   signed sessions (sessions.ts);
 * - the stateless revision 2026-07-28: SDK v2, through its `createMcpHandler`.
 *   The data changes only on deploy and is the same for every caller, so list
 *   and read results carry a `public` caching hint with the TTL of the REST
 *   datasets' `Cache-Control: max-age` (CONTENT_CACHE), and the two never disagree.
 */
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv-provider.js';
import { ProtocolError, Server as StatelessServer } from '@modelcontextprotocol/server';
import { CONTENT_CACHE } from '../http/representation.ts';
import type { McpCatalog } from './catalog.ts';
import { SERVER_INFO } from './definitions.ts';
import { REQUEST_SCHEMAS } from './params.ts';
import type { ScanGate } from './scan-limit.ts';

export const CAPABILITIES = { tools: {}, resources: {}, prompts: {}, completions: {} };

function maxAgeSeconds(cacheControl: string): number {
  const match = /(?:^|,)\s*max-age=(\d+)/i.exec(cacheControl);
  if (!match) throw new Error(`no max-age in Cache-Control ${JSON.stringify(cacheControl)}`);
  return Number(match[1]);
}

const CACHE_HINT = {
  ttlMs: maxAgeSeconds(CONTENT_CACHE) * 1000,
  cacheScope: /(?:^|,)\s*public\b/i.test(CONTENT_CACHE) ? 'public' : 'private',
} as const satisfies { ttlMs: number; cacheScope: 'public' | 'private' };

const CACHE_HINTS = Object.fromEntries(
  ['server/discover', 'tools/list', 'prompts/list', 'resources/list', 'resources/templates/list', 'resources/read'].map(
    (method) => [method, CACHE_HINT],
  ),
);

/**
 * One Ajv per process: SDK v1 makes one per server unless given one, which alone costs the
 * session path about 0.3x of the SDK's minimal server (bench/mcp.ts), and this server never
 * validates with it (it asks clients for nothing).
 */
let sessionValidator: AjvJsonSchemaValidator | undefined;

/** `gate`: counts the scans of this POST's client (scan-limit.ts); none, not counted. */
export function createSessionServer(catalog: McpCatalog, gate?: ScanGate): Server {
  sessionValidator ??= new AjvJsonSchemaValidator();
  const server = new Server(
    { ...SERVER_INFO },
    { capabilities: CAPABILITIES, instructions: catalog.instructions, jsonSchemaValidator: sessionValidator },
  );
  const handlers = catalog.handlers((code, message, data) => new McpError(code, message, data), gate);
  for (const [method, handler] of Object.entries(handlers))
    server.setRequestHandler(REQUEST_SCHEMAS.get(method)!, handler as never);
  return server;
}

export function createStatelessServer(catalog: McpCatalog, gate?: ScanGate): StatelessServer {
  const server = new StatelessServer(
    { ...SERVER_INFO },
    { capabilities: CAPABILITIES, instructions: catalog.instructions, cacheHints: CACHE_HINTS },
  );
  const handlers = catalog.handlers((code, message, data) => new ProtocolError(code, message, data), gate);
  for (const [method, handler] of Object.entries(handlers)) server.setRequestHandler(method as never, handler as never);
  return server;
}

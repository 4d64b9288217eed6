/**
 * POST /mcp over streamable HTTP with JSON responses, served statelessly on any
 * instance. Around the SDK's web-standard transport this adds what the
 * transport spec asks of a public server: Host and Origin checks, a body limit,
 * protocol-version checks, and sessions that survive instances and restarts
 * (see session.ts).
 */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { SUPPORTED_PROTOCOL_VERSIONS } from '@modelcontextprotocol/sdk/types.js';
import type { SessionSigner } from './session.ts';

export const MCP_MAX_BODY_BYTES = 1024 * 1024;
const SESSION_HEADER = 'mcp-session-id';
const ALLOWED_METHODS = 'POST, DELETE';
/** Batches were removed from the protocol in 2025-06-18. */
const FIRST_VERSION_WITHOUT_BATCHES = '2025-06-18';

export interface McpHandlerOptions {
  signer: SessionSigner;
  createServer: () => McpServer;
  /** Host names (no port) the server answers for; the Host header must name one. */
  allowedHosts: readonly string[];
  /** Origins a browser may call from; a request without Origin is always served. */
  allowedOrigins: readonly string[];
}

export function createMcpHandler(options: McpHandlerOptions): (request: Request) => Promise<Response> {
  const hosts = new Set(options.allowedHosts.map((h) => h.toLowerCase()));
  const origins = new Set(options.allowedOrigins);

  return async (request) => {
    const host = hostnameOf(request.headers.get('host'));
    if (!host || !hosts.has(host)) return rpcError(403, -32000, `Host ${JSON.stringify(request.headers.get('host'))} is not served here`);
    const origin = request.headers.get('origin');
    if (origin !== null && !origins.has(origin)) return rpcError(403, -32000, `Origin ${JSON.stringify(origin)} is not allowed`);

    if (request.method === 'DELETE') return endSession(request, options.signer);
    if (request.method !== 'POST') {
      return rpcError(405, -32000, 'Method not allowed: this server sends no event stream; use POST (DELETE ends a session).', { allow: ALLOWED_METHODS });
    }

    const headerVersion = request.headers.get('mcp-protocol-version');
    if (headerVersion !== null && !SUPPORTED_PROTOCOL_VERSIONS.includes(headerVersion)) {
      return rpcError(400, -32000, `Unsupported MCP-Protocol-Version ${JSON.stringify(headerVersion)}; supported: ${SUPPORTED_PROTOCOL_VERSIONS.join(', ')}`);
    }

    const text = await readLimited(request, MCP_MAX_BODY_BYTES);
    if (text === null) return rpcError(413, -32000, `Request body exceeds ${MCP_MAX_BODY_BYTES} bytes`);
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      return rpcError(400, -32700, 'Parse error: the body is not valid JSON');
    }

    const messages = Array.isArray(body) ? body : [body];
    const initialize = messages.find((m) => isObject(m) && m.method === 'initialize') as { params?: { protocolVersion?: unknown } } | undefined;
    let protocolVersion: string;
    if (initialize) {
      if (messages.length > 1) return rpcError(400, -32600, 'Invalid Request: initialize must be sent alone');
      const requested = initialize.params?.protocolVersion;
      protocolVersion = typeof requested === 'string' && SUPPORTED_PROTOCOL_VERSIONS.includes(requested) ? requested : SUPPORTED_PROTOCOL_VERSIONS[0]!;
    } else {
      const id = request.headers.get(SESSION_HEADER);
      if (id === null) return rpcError(400, -32000, 'Bad Request: Mcp-Session-Id header is required after initialize');
      const check = await options.signer.check(id);
      if (!check.ok) return rpcError(404, -32001, 'Session not found: initialize a new session');
      protocolVersion = headerVersion ?? check.claims.pv;
    }
    if (Array.isArray(body) && protocolVersion >= FIRST_VERSION_WITHOUT_BATCHES) {
      return rpcError(400, -32600, `Invalid Request: JSON-RPC batches are not part of protocol ${protocolVersion}`);
    }

    const server = options.createServer();
    const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    try {
      await server.connect(transport);
      const response = await transport.handleRequest(request, { parsedBody: body });
      if (initialize && response.status === 200) {
        const headers = new Headers(response.headers);
        headers.set(SESSION_HEADER, await options.signer.issue(protocolVersion));
        return new Response(response.body, { status: response.status, headers });
      }
      return response;
    } finally {
      // JSON responses are complete once handleRequest resolves.
      void server.close();
    }
  };
}

async function endSession(request: Request, signer: SessionSigner): Promise<Response> {
  const id = request.headers.get(SESSION_HEADER);
  if (id === null) return rpcError(400, -32000, 'Bad Request: Mcp-Session-Id header is required');
  const check = await signer.check(id);
  if (!check.ok) return rpcError(404, -32001, 'Session not found');
  await signer.end(id, check.claims);
  return new Response(null, { status: 204 });
}

function rpcError(status: number, code: number, message: string, headers: Record<string, string> = {}): Response {
  return new Response(`${JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null })}\n`, {
    status,
    headers: { 'content-type': 'application/json; charset=utf-8', ...headers },
  });
}

function hostnameOf(host: string | null): string | null {
  if (!host) return null;
  try {
    return new URL(`http://${host}`).hostname.toLowerCase();
  } catch {
    return null;
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

async function readLimited(request: Request, limit: number): Promise<string | null> {
  const declared = Number(request.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > limit) return null;
  if (!request.body) return '';
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel();
      return null;
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * POST /mcp over streamable HTTP with JSON responses, served statelessly on any
 * instance. Around the SDK's web-standard transport this adds what the
 * transport spec asks of a public server: Host and Origin checks, a body limit,
 * protocol-version checks, and sessions that survive instances and restarts
 * (see session.ts).
 *
 * Order of the checks: Host, Origin (403) → method (405; OPTIONS preflight) →
 * MCP-Protocol-Version (400) → Accept (406) → Content-Type (415) → body size
 * (413) → JSON (400, -32700) → JSON-RPC shape (400, -32600) → session (400
 * missing, 404 unknown/forged/ended/expired) → batches (400 from 2025-06-18) →
 * params of served requests against the SDK's schemas (200, -32602; see
 * params.ts) → the SDK transport (202 notifications, 200 results and JSON-RPC
 * errors).
 * `Authorization` is never read.
 */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { isJsonContentType } from '@modelcontextprotocol/sdk/shared/mediaType.js';
import { JSONRPCMessageSchema, SUPPORTED_PROTOCOL_VERSIONS } from '@modelcontextprotocol/sdk/types.js';
import { readLimitedText } from '../http/body.ts';
import { invalidParams, servedMethods } from './params.ts';
import type { SessionSigner } from './session.ts';

export const MCP_MAX_BODY_BYTES = 1024 * 1024;
export const SESSION_HEADER = 'mcp-session-id';
const ALLOWED_METHODS = 'POST, DELETE, OPTIONS';
/** Batches were removed from the protocol in 2025-06-18. */
const FIRST_VERSION_WITHOUT_BATCHES = '2025-06-18';
const CORS_REQUEST_HEADERS = 'Content-Type, Accept, Mcp-Session-Id, MCP-Protocol-Version, Last-Event-ID, Authorization';

export interface McpHandlerOptions {
  signer: SessionSigner;
  createServer: () => McpServer;
  /** Host names (no port) the server answers for; the Host header must name one. */
  allowedHosts: readonly string[];
  /** Origins a browser may call from (`*`: any); a request without Origin is always served. */
  allowedOrigins: readonly string[];
  /** Failures of our own code (never the client's): logged, answered 500 without details. */
  onError?: (error: unknown) => void;
}

export function createMcpHandler(options: McpHandlerOptions): (request: Request) => Promise<Response> {
  const hosts = new Set(options.allowedHosts.map((h) => h.toLowerCase()));
  const anyOrigin = options.allowedOrigins.includes('*');
  const origins = new Set(options.allowedOrigins);
  const onError = options.onError ?? ((error: unknown) => console.error('mcp request failed:', error));

  return async (request) => {
    const host = hostnameOf(request.headers.get('host'));
    if (!host || !hosts.has(host)) return rpcError(403, -32000, `Forbidden: Host ${JSON.stringify(request.headers.get('host'))} is not served here`);
    const origin = request.headers.get('origin');
    if (origin !== null && !anyOrigin && !origins.has(origin)) return rpcError(403, -32000, `Forbidden: Origin ${JSON.stringify(origin)} is not allowed`);

    let response: Response;
    try {
      response = await answer(request, options, onError);
    } catch (error) {
      onError(error);
      response = rpcError(500, -32603, 'Internal error');
    }
    return origin === null ? response : withCors(response, origin);
  };
}

async function answer(request: Request, options: McpHandlerOptions, onError: (error: unknown) => void): Promise<Response> {
  if (request.method === 'OPTIONS') return preflight();
  if (request.method === 'DELETE') return endSession(request, options.signer);
  if (request.method !== 'POST') {
    return rpcError(405, -32000, 'Method Not Allowed: this server sends no event stream; use POST (DELETE ends a session).', { allow: ALLOWED_METHODS });
  }

  const headerVersion = request.headers.get('mcp-protocol-version');
  const versionError = checkVersionHeader(headerVersion);
  if (versionError) return versionError;

  // The transport checks these too, but after the body is read: here they come first, as in the SDK.
  const accept = request.headers.get('accept') ?? '';
  if (!accept.includes('application/json') || !accept.includes('text/event-stream')) {
    return rpcError(406, -32000, 'Not Acceptable: Accept must list both application/json and text/event-stream');
  }
  if (!isJsonContentType(request.headers.get('content-type'))) return rpcError(415, -32000, 'Unsupported Media Type: Content-Type must be application/json');

  const text = await readLimitedText(request, MCP_MAX_BODY_BYTES);
  if (text === null) return payloadTooLarge();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return rpcError(400, -32700, 'Parse error: the body is not valid JSON');
  }

  const messages: unknown[] = Array.isArray(body) ? body : [body];
  if (messages.length === 0) return rpcError(400, -32600, 'Invalid Request: an empty batch');
  for (const message of messages) {
    if (!JSONRPCMessageSchema.safeParse(message).success) {
      return rpcError(400, -32600, 'Invalid Request: not a JSON-RPC 2.0 request, notification or response');
    }
  }
  const initialize = messages.find((m) => isObject(m) && m.method === 'initialize' && 'id' in m) as { params?: { protocolVersion?: unknown } } | undefined;
  let protocolVersion: string;
  if (initialize) {
    if (messages.length > 1) return rpcError(400, -32600, 'Invalid Request: initialize must be sent alone');
    const requested = initialize.params?.protocolVersion;
    protocolVersion = typeof requested === 'string' && SUPPORTED_PROTOCOL_VERSIONS.includes(requested) ? requested : SUPPORTED_PROTOCOL_VERSIONS[0]!;
  } else {
    const id = request.headers.get(SESSION_HEADER);
    if (id === null) return rpcError(400, -32000, 'Bad Request: Mcp-Session-Id header is required after initialize');
    const check = await options.signer.check(id);
    if (!check.ok) return rpcError(404, -32001, 'Session not found: send a new initialize request');
    protocolVersion = headerVersion ?? check.claims.pv;
  }
  if (Array.isArray(body) && protocolVersion >= FIRST_VERSION_WITHOUT_BATCHES) {
    return rpcError(400, -32600, `Invalid Request: JSON-RPC batches are not part of protocol ${protocolVersion}`);
  }

  const server = options.createServer();
  try {
    // Requests of served methods whose params the SDK's schema refuses: -32602 here, not a -32603 zod dump from the SDK.
    const served = servedMethods(server);
    const refused = messages.map((message) => invalidParams(message, served));
    const errors = refused.filter((error) => error !== null);
    if (errors.length > 0 && !Array.isArray(body)) return jsonReply(200, errors[0]);
    const passed = errors.length > 0 ? messages.filter((_, index) => refused[index] === null) : null;
    if (passed?.length === 0) return jsonReply(200, errors);

    const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    transport.onerror = (error) => {
      // The transport reports the client's mistakes (406, 415) here too; only ours are worth a log line.
      if (!/^(Not Acceptable|Unsupported Media Type|Parse error|Invalid Request|Bad Request)/.test(error.message)) onError(error);
    };
    await server.connect(transport);
    const response = await transport.handleRequest(request, { parsedBody: passed ?? body });
    const headers = new Headers(response.headers);
    headers.set('cache-control', 'no-store');
    if (passed) {
      // A batch (protocol 2025-03-26 and older) with refused requests: their errors join the transport's answers.
      if (response.status === 202) return jsonReply(200, errors);
      if (response.status !== 200) return new Response(response.body, { status: response.status, headers });
      const answered = JSON.parse(await response.text()) as unknown;
      return jsonReply(200, [...(Array.isArray(answered) ? answered : [answered]), ...errors]);
    }
    if (initialize && response.status === 200) {
      // Only a successful initialize opens a session, at the version the server agreed.
      const responseText = await response.text();
      const reply = JSON.parse(responseText) as { result?: { protocolVersion?: unknown } };
      const agreed = reply.result?.protocolVersion;
      if (typeof agreed === 'string') headers.set(SESSION_HEADER, await options.signer.issue(agreed));
      return new Response(responseText, { status: response.status, headers });
    }
    return new Response(response.body, { status: response.status, headers });
  } finally {
    // JSON responses are complete once handleRequest resolves.
    void server.close();
  }
}

/**
 * The 413 of /mcp: a JSON-RPC error like every other /mcp answer. Exported for
 * whatever reads the body before this handler (the Node entry's route table)
 * so that an oversized body gets this same answer on every path.
 */
export function payloadTooLarge(): Response {
  return rpcError(413, -32000, `Payload Too Large: the request body may be at most ${MCP_MAX_BODY_BYTES} bytes`);
}

function checkVersionHeader(version: string | null): Response | null {
  if (version === null || SUPPORTED_PROTOCOL_VERSIONS.includes(version)) return null;
  return rpcError(400, -32000, `Bad Request: unsupported MCP-Protocol-Version ${JSON.stringify(version)}; supported: ${SUPPORTED_PROTOCOL_VERSIONS.join(', ')}`);
}

async function endSession(request: Request, signer: SessionSigner): Promise<Response> {
  const versionError = checkVersionHeader(request.headers.get('mcp-protocol-version'));
  if (versionError) return versionError;
  const id = request.headers.get(SESSION_HEADER);
  if (id === null) return rpcError(400, -32000, 'Bad Request: Mcp-Session-Id header is required');
  const check = await signer.check(id);
  if (!check.ok) return rpcError(404, -32001, 'Session not found');
  await signer.end(id, check.claims);
  return new Response(null, { status: 204, headers: { 'cache-control': 'no-store' } });
}

function preflight(): Response {
  return new Response(null, {
    status: 204,
    headers: {
      allow: ALLOWED_METHODS,
      'access-control-allow-methods': ALLOWED_METHODS,
      'access-control-allow-headers': CORS_REQUEST_HEADERS,
      'access-control-max-age': '86400',
    },
  });
}

/** An allowed browser origin may read the answer and the session id. */
function withCors(response: Response, origin: string): Response {
  const headers = new Headers(response.headers);
  headers.set('access-control-allow-origin', origin);
  headers.set('access-control-expose-headers', 'Mcp-Session-Id');
  headers.append('vary', 'Origin');
  return new Response(response.body, { status: response.status, headers });
}

function rpcError(status: number, code: number, message: string, headers: Record<string, string> = {}): Response {
  return jsonReply(status, { jsonrpc: '2.0', error: { code, message }, id: null }, headers);
}

function jsonReply(status: number, value: unknown, headers: Record<string, string> = {}): Response {
  return new Response(`${JSON.stringify(value)}\n`, {
    status,
    headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', ...headers },
  });
}

function hostnameOf(host: string | null): string | null {
  if (!host || /[\s/?#@\\]/.test(host)) return null;
  try {
    return new URL(`http://${host}`).hostname.toLowerCase();
  } catch {
    return null;
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

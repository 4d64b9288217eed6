/**
 * POST /mcp over streamable HTTP with JSON responses, for every protocol
 * revision on the one endpoint:
 *
 * - 2026-07-28 (a per-request `_meta` envelope, no initialize, no session):
 *   the SDK v2's `createMcpHandler`, strict (`legacy: 'reject'`), made once
 *   per process. It checks the MCP-Protocol-Version / Mcp-Method / Mcp-Name
 *   headers against the body, answers server/discover, stamps `resultType`
 *   and the caching hints. Needs no store and no secret.
 * - 2024-10-07 to 2025-11-25 (initialize → `Mcp-Session-Id`): our signed
 *   sessions around the SDK v1 transport (sessions.ts).
 *
 * The SDK's own classifier (`isLegacyRequest`) decides which path a request
 * takes, so the routing never disagrees with the SDK. Both answer from one
 * catalog (catalog.ts), each POST within its answer budget (budget.ts).
 *
 * Around both, what the transport spec asks of a public server, in this
 * order: Host, Origin (403) → method (405; OPTIONS preflight; DELETE ends a
 * session) → Accept (406) → Content-Type (415) → body size (413) → JSON
 * (400, -32700) → the revision's path. `Authorization` is never read.
 */
import { createMcpHandler, isJsonContentType, isLegacyRequest, ProtocolError } from '@modelcontextprotocol/server';
import { toResponse } from '../http/answer.ts';
import { readLimitedText } from '../http/body.ts';
import type { SearchMissLimit } from '../limits/search-misses.ts';
import { isStoreUnavailable, storeUnavailableAnswer } from '../store/unavailable.ts';
import type { McpCatalog } from './catalog.ts';
import { LOOPBACK_NAMES, type McpConfig } from './config.ts';
import { MCP_MAX_BODY_BYTES, mcpPayloadTooLarge, noStore, rpcError } from './protocol.ts';
import { createSessionHandler, type McpClient, type SessionOptions } from './sessions.ts';
import { createStatelessServer } from './servers.ts';

export { MCP_MAX_BODY_BYTES, mcpPayloadTooLarge } from './protocol.ts';

const ALLOWED_METHODS = 'POST, DELETE, OPTIONS';
const CORS_REQUEST_HEADERS =
  'Content-Type, Accept, Mcp-Session-Id, MCP-Protocol-Version, Mcp-Method, Mcp-Name, Last-Event-ID, Authorization';

interface McpHandlerOptions {
  catalog: McpCatalog;
  /** The Host names and browser Origins served (config.ts). */
  config: Pick<McpConfig, 'allowedHosts' | 'allowedOrigins' | 'loopback'>;
  sessions: Omit<SessionOptions, 'scanGate'>;
  /** Searches not answered before, per client, shared with GET /api/reviews/search (SEARCH_MISS_RATE_LIMIT); none: no limit. */
  searchMisses?: SearchMissLimit;
}

/** `client`: who sent the request (src/lib/http/client-address.ts); without it, every caller is one client. */
export type McpEndpoint = (request: Request, client?: McpClient) => Promise<Response>;

const UNKNOWN_CLIENT: McpClient = { address: 'unknown' };

export function createMcpEndpoint(options: McpHandlerOptions): McpEndpoint {
  const { catalog, config } = options;
  const hosts = new Set(config.allowedHosts.map((h) => h.toLowerCase()));
  const anyOrigin = config.allowedOrigins.includes('*');
  const origins = new Set(config.allowedOrigins);
  // Failures of our own code (never the client's): logged, answered 500 without details.
  const onError = (error: unknown) => console.error('mcp request failed:', error);

  const { searchMisses } = options;
  const scanGate = searchMisses ? (client: McpClient) => () => searchMisses.take(client.address) : undefined;
  const sessions = createSessionHandler(catalog, { ...options.sessions, ...(scanGate ? { scanGate } : {}) }, onError);
  // The SDK makes the server per request from the Request it was given: the client is found by it.
  const clients = new WeakMap<Request, McpClient>();
  const stateless = createMcpHandler(
    ({ requestInfo }) =>
      createStatelessServer(catalog, scanGate?.((requestInfo && clients.get(requestInfo)) ?? UNKNOWN_CLIENT)),
    {
      legacy: 'reject',
      maxRequestBodySize: MCP_MAX_BODY_BYTES,
      // The SDK reports the client's mistakes here too (rejections are ProtocolErrors or say so); only ours are worth a log line.
      onerror: (error) => {
        if (!(error instanceof ProtocolError) && !/^Rejected /.test(error.message)) onError(error);
      },
    },
  );

  /** Host, then Origin: the 403 message, or undefined when both are served. */
  function forbidden(headers: Headers): string | undefined {
    const hostHeader = headers.get('host');
    const host = hostnameOf(hostHeader);
    if (!host || !hosts.has(host)) return `Forbidden: Host ${JSON.stringify(hostHeader)} is not served here`;
    const origin = headers.get('origin');
    if (
      origin !== null &&
      !anyOrigin &&
      !origins.has(origin) &&
      !(config.loopback && isOwnLoopbackOrigin(origin, hostHeader!))
    ) {
      return `Forbidden: Origin ${JSON.stringify(origin)} is not allowed`;
    }
    return undefined;
  }

  return async (request: Request, client: McpClient = UNKNOWN_CLIENT) => {
    const refusal = forbidden(request.headers);
    if (refusal !== undefined) return rpcError(403, -32000, refusal);
    const origin = request.headers.get('origin');

    let response: Response;
    try {
      response = await answer(request, client);
    } catch (error) {
      // Redis out of reach (sessions need it): a prompt 503 to retry, logged once by the store, not a 500.
      if (isStoreUnavailable(error)) response = toResponse(storeUnavailableAnswer(error));
      else {
        onError(error);
        response = rpcError(500, -32603, 'Internal error');
      }
    }
    return origin === null ? response : withCors(response, origin);
  };

  async function answer(request: Request, client: McpClient): Promise<Response> {
    if (request.method === 'OPTIONS') return preflight();
    if (request.method === 'DELETE') return sessions.delete(request, client);
    if (request.method !== 'POST') {
      return rpcError(
        405,
        -32000,
        'Method Not Allowed: this server sends no event stream; use POST (DELETE ends a session).',
        { allow: ALLOWED_METHODS },
      );
    }
    const notServed = unacceptable(request.headers);
    if (notServed) return notServed;

    const text = await readLimitedText(request, MCP_MAX_BODY_BYTES);
    if (text === null) return mcpPayloadTooLarge();
    const parsed = parseMessage(text);
    if (parsed instanceof Response) return parsed;
    const { body } = parsed;

    if (await isLegacyRequest(request, body)) return sessions.post(request, body, client);
    // Caching hints travel in the results (ttlMs, cacheScope) for MCP clients; HTTP caches keep out of a POST.
    clients.set(request, client);
    return noStore(await stateless.fetch(request, { parsedBody: body }));
  }
}

/**
 * Accept, then Content-Type: the 406 or 415, or undefined.
 * Checked before the body is read, and before a session is opened or checked.
 */
function unacceptable(headers: Headers): Response | undefined {
  const accept = headers.get('accept') ?? '';
  if (!accept.includes('application/json') || !accept.includes('text/event-stream')) {
    return rpcError(406, -32000, 'Not Acceptable: Accept must list both application/json and text/event-stream');
  }
  if (!isJsonContentType(headers.get('content-type')))
    return rpcError(415, -32000, 'Unsupported Media Type: Content-Type must be application/json');
  return undefined;
}

/** The body as JSON, or the 400 refusing it (not JSON; nested too deep). */
function parseMessage(text: string): { body: unknown } | Response {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return rpcError(400, -32700, 'Parse error: the body is not valid JSON');
  }
  // No MCP message nests this deep; the schema checks that walk a body recursively would overflow the stack.
  if (nestedDeeperThan(body, MAX_JSON_DEPTH))
    return rpcError(400, -32600, `Invalid Request: the JSON nests deeper than ${MAX_JSON_DEPTH} levels`);
  return { body };
}

/** `http://localhost:4321` with Host `localhost:4321`: a loopback page of this very server (same origin). */
function isOwnLoopbackOrigin(origin: string, hostHeader: string): boolean {
  try {
    const url = new URL(origin);
    return (
      url.protocol === 'http:' &&
      LOOPBACK_NAMES.includes(url.hostname) &&
      url.host === hostHeader.toLowerCase() &&
      url.origin === origin
    );
  } catch {
    return false;
  }
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

function hostnameOf(host: string | null): string | null {
  if (!host || /[\s/?#@\\]/.test(host)) return null;
  try {
    return new URL(`http://${host}`).hostname.toLowerCase();
  } catch {
    return null;
  }
}

const MAX_JSON_DEPTH = 64;

/** Whether arrays and objects nest deeper than `max` levels (the walk itself goes no deeper than `max`). */
function nestedDeeperThan(value: unknown, max: number): boolean {
  if (value === null || typeof value !== 'object') return false;
  return max === 0 || Object.values(value).some((child) => nestedDeeperThan(child, max - 1));
}

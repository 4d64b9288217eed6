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
 *   sessions around the SDK v1 transport (legacy-handler.ts).
 *
 * The SDK's own classifier (`classifyInboundRequest`, the step behind its
 * `isLegacyRequest`) decides which path a request takes, so the routing never
 * disagrees with the SDK. Both answer from one catalog (catalog.ts).
 *
 * Read requests both eras repeat (`tools/call`, `resources/read`, the lists)
 * are answered from a replay of the SDK's earlier answer to the same request
 * once every check has passed (replay.ts): the SDK pipeline runs once per
 * distinct request, not once per request.
 *
 * Around both, what the transport spec asks of a public server, in this
 * order: Host, Origin (403) → method (405; OPTIONS preflight; DELETE ends a
 * 2025 session) → Accept (406) → Content-Type (415) → body size (413) → JSON
 * (400, -32700) → the era's path. `Authorization` is never read.
 */
import { classifyInboundRequest, createMcpHandler, isJsonContentType, PROTOCOL_VERSION_META_KEY, ProtocolError } from '@modelcontextprotocol/server';
import { toResponse, type ApiAnswer } from '../http/answer.ts';
import { readLimitedText } from '../http/body.ts';
import { isStoreUnavailable, storeUnavailableAnswer } from '../store/unavailable.ts';
import type { McpCatalog } from './catalog.ts';
import type { RateLimits } from '../limits/rate-limits.ts';
import { createLegacyHandler, type HeaderReader, type McpClient, type SessionStep } from './legacy-handler.ts';
import { createModernServer } from './modern-server.ts';
import { Replay, replayable, type ReplayableRequest } from './replay.ts';
import { MCP_MAX_BODY_BYTES, MODERN_PROTOCOL_VERSIONS, payloadTooLarge, rpcError } from './replies.ts';
import type { SessionSigner } from './session.ts';

export { MCP_MAX_BODY_BYTES, payloadTooLarge } from './replies.ts';
export { SESSION_HEADER, type HeaderReader } from './legacy-handler.ts';
export { REPLAY_MAX_BODY_BYTES } from './replay.ts';

const ALLOWED_METHODS = 'POST, DELETE, OPTIONS';
const CORS_REQUEST_HEADERS = 'Content-Type, Accept, Mcp-Session-Id, MCP-Protocol-Version, Mcp-Method, Mcp-Name, Last-Event-ID, Authorization';
const LOOPBACK_NAMES = new Set(['localhost', '127.0.0.1', '[::1]']);

export interface McpHandlerOptions {
  catalog: McpCatalog;
  /** The 2025 sessions' signer, made on first use (the 2026-07-28 path never asks for it); `fresh: false` may reuse a key read a moment ago. */
  signer: (fresh?: boolean) => Promise<SessionSigner>;
  /** An answer instead of 2025 sessions, while a deployment lacks their settings (a 503 naming them). */
  sessionsUnavailable?: () => Response | undefined;
  /** Per-client limits on opening and ending 2025 sessions. */
  sessionLimits: RateLimits<SessionStep>;
  /** Host names (no port) the server answers for; the Host header must name one. */
  allowedHosts: readonly string[];
  /** Origins a browser may call from (`*`: any); a request without Origin is always served. */
  allowedOrigins: readonly string[];
  /**
   * Bound to loopback: a page served by this server itself (Origin
   * `http://localhost:<port>` when Host is `localhost:<port>`, the port it was
   * reached on) may call it, as the conformance suite's DNS-rebinding
   * scenario expects; any other port or name is still 403.
   */
  loopback: boolean;
  /** Failures of our own code (never the client's): logged, answered 500 without details. */
  onError?: (error: unknown) => void;
  /** `false`: every request through the SDK pipeline (the tests compare the replay's answers with it). Default on. */
  replay?: boolean;
}

/** `client`: who sent the request (src/lib/http/client-address.ts); without it, every caller is one client. */
export type McpEndpoint = ((request: Request, client?: McpClient) => Promise<Response>) & {
  /**
   * The answer the endpoint would give a POST with these headers and this
   * body when the replay answers it (replay.ts), as status, headers and bytes,
   * without a Request or a Response: the same checks, in the same code, as
   * the Web path. Undefined for anything else (a miss, a refusal, an error):
   * the caller then sends the request through the endpoint itself. For
   * callers that hold the body as bytes already (the Node entry).
   */
  replayed(headers: HeaderReader, text: string): Promise<ApiAnswer | undefined>;
};

const UNKNOWN_CLIENT: McpClient = { address: 'unknown' };

export function createMcpEndpoint(options: McpHandlerOptions): McpEndpoint {
  const hosts = new Set(options.allowedHosts.map((h) => h.toLowerCase()));
  const anyOrigin = options.allowedOrigins.includes('*');
  const origins = new Set(options.allowedOrigins);
  const onError = options.onError ?? ((error: unknown) => console.error('mcp request failed:', error));

  // One replay for both eras (their answers are kept apart by scope); off only to compare with the SDK's answers.
  const replay = options.replay === false ? undefined : new Replay();
  const legacy = createLegacyHandler({ catalog: options.catalog, signer: options.signer, unavailable: options.sessionsUnavailable, limits: options.sessionLimits, onError, replay });
  const modern = createMcpHandler(() => createModernServer(options.catalog), {
    legacy: 'reject',
    maxRequestBodySize: MCP_MAX_BODY_BYTES,
    // The SDK reports the client's mistakes here too (rejections are ProtocolErrors or say so); only ours are worth a log line.
    onerror: (error) => {
      if (!(error instanceof ProtocolError) && !/^Rejected /.test(error.message)) onError(error);
    },
  });

  /** Host, then Origin: the 403 message, or undefined when both are served. */
  function forbidden(headers: HeaderReader): string | undefined {
    const hostHeader = headers.get('host');
    const host = hostnameOf(hostHeader);
    if (!host || !hosts.has(host)) return `Forbidden: Host ${JSON.stringify(hostHeader)} is not served here`;
    const origin = headers.get('origin');
    if (origin !== null && !anyOrigin && !origins.has(origin) && !(options.loopback && isOwnLoopbackOrigin(origin, hostHeader!))) {
      return `Forbidden: Origin ${JSON.stringify(origin)} is not allowed`;
    }
    return undefined;
  }

  const endpoint = async (request: Request, client: McpClient = UNKNOWN_CLIENT) => {
    const refusal = forbidden(request.headers);
    if (refusal !== undefined) return rpcError(403, -32000, refusal);
    const origin = request.headers.get('origin');

    let response: Response;
    try {
      response = await answer(request, client);
    } catch (error) {
      // Redis out of reach (2025 sessions need it): a prompt 503 to retry, logged once by the store, not a 500.
      if (isStoreUnavailable(error)) response = toResponse(storeUnavailableAnswer(error));
      else {
        onError(error);
        response = rpcError(500, -32603, 'Internal error');
      }
    }
    return origin === null ? response : withCors(response, origin);
  };

  /** McpEndpoint.replayed: the Web path's checks up to the replay, then its answer; undefined where the Web path must answer. */
  const replayed = async (headers: HeaderReader, text: string): Promise<ApiAnswer | undefined> => {
    if (!replay || forbidden(headers) !== undefined || unacceptable(headers) !== undefined) return undefined;
    const parsed = parseMessage(text);
    const repeat = parsed instanceof Response ? undefined : replayable(parsed.body);
    if (!repeat) return undefined;
    let answer: ApiAnswer | undefined;
    try {
      answer = await fromReplay(headers, repeat);
    } catch {
      // Say, the session store out of reach: the Web path meets the same error and answers it.
      return undefined;
    }
    if (answer === undefined) return undefined;
    const origin = headers.get('origin');
    if (origin === null) return answer;
    const withOrigin = new Headers(answer.headers);
    addCors(withOrigin, origin);
    return { ...answer, headers: Object.fromEntries(withOrigin) };
  };
  return Object.assign(endpoint, { replayed });

  async function answer(request: Request, client: McpClient): Promise<Response> {
    if (request.method === 'OPTIONS') return preflight();
    if (request.method === 'DELETE') return legacy.delete(request, client);
    if (request.method !== 'POST') {
      return rpcError(405, -32000, 'Method Not Allowed: this server sends no event stream; use POST (DELETE ends a session).', { allow: ALLOWED_METHODS });
    }
    const notServed = unacceptable(request.headers);
    if (notServed) return notServed();

    const text = await readLimitedText(request, MCP_MAX_BODY_BYTES);
    if (text === null) return payloadTooLarge();
    const parsed = parseMessage(text);
    if (parsed instanceof Response) return parsed;
    const { body } = parsed;

    const repeat = replay ? replayable(body) : undefined;
    const again = repeat && (await fromReplay(request.headers, repeat));
    if (again) return toResponse(again);

    // What isLegacyRequest(request, body) runs, once: the outcome also tells the replay the revision.
    const route = classifyInboundRequest({
      httpMethod: request.method,
      protocolVersionHeader: request.headers.get('mcp-protocol-version') ?? undefined,
      mcpMethodHeader: request.headers.get('mcp-method') ?? undefined,
      mcpNameHeader: request.headers.get('mcp-name') ?? undefined,
      body,
    });
    if (route.kind === 'legacy') return legacy.post(request, body, client);

    const response = noStore(await modern.fetch(request, { parsedBody: body }));
    const revision = route.kind === 'modern' ? route.classification.revision : undefined;
    // Kept only where the headers are as the SDK requires them: then they follow from the body, and the key covers them.
    if (repeat && revision !== undefined && MODERN_PROTOCOL_VERSIONS.includes(revision) && standardHeadersAsRequired(request.headers, revision, repeat)) {
      return replay!.remember(modernScope(revision), repeat, response);
    }
    return response;
  }

  /**
   * A read request answered before (replay.ts; `repeat` from the body): the
   * checks on anything but the body (the era's headers, the session), then
   * the kept answer. Called
   * once Host, Origin, Accept, Content-Type, the size and the JSON have
   * passed; by the Web path and by `replayed` alike.
   */
  async function fromReplay(headers: HeaderReader, repeat: ReplayableRequest): Promise<ApiAnswer | undefined> {
    const headerVersion = headers.get('mcp-protocol-version');
    return headerVersion !== null && MODERN_PROTOCOL_VERSIONS.includes(headerVersion) ? modernReplay(headers, headerVersion, repeat) : legacy.replay(headers, repeat);
  }

  /**
   * The kept answer to a 2026-07-28 request whose standard headers are as the
   * SDK requires them for the revision its envelope claims. Those headers then
   * follow from the body, so the body (the key) decided the SDK's
   * classification and header rungs when the answer was kept.
   */
  function modernReplay(headers: HeaderReader, revision: string, repeat: ReplayableRequest): ApiAnswer | undefined {
    const meta = repeat.params?._meta;
    if (typeof meta !== 'object' || meta === null || (meta as Record<string, unknown>)[PROTOCOL_VERSION_META_KEY] !== revision) return undefined;
    if (!standardHeadersAsRequired(headers, revision, repeat)) return undefined;
    return replay!.answer(modernScope(revision), repeat);
  }
}

/**
 * Accept, then Content-Type: the 406 or 415 (made on demand), or undefined.
 * Both SDK transports check these too, but after reading the body: here they come first.
 */
function unacceptable(headers: HeaderReader): (() => Response) | undefined {
  const accept = headers.get('accept') ?? '';
  if (!accept.includes('application/json') || !accept.includes('text/event-stream')) {
    return () => rpcError(406, -32000, 'Not Acceptable: Accept must list both application/json and text/event-stream');
  }
  if (!isJsonContentType(headers.get('content-type'))) return () => rpcError(415, -32000, 'Unsupported Media Type: Content-Type must be application/json');
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
  if (nestedDeeperThan(body, MAX_JSON_DEPTH)) return rpcError(400, -32600, `Invalid Request: the JSON nests deeper than ${MAX_JSON_DEPTH} levels`);
  return { body };
}

const modernScope = (revision: string) => `modern ${revision}`;

/** Caching hints travel in the results (ttlMs, cacheScope) for MCP clients; HTTP caches keep out of a POST. */
function noStore(response: Response): Response {
  const headers = new Headers(response.headers);
  headers.set('cache-control', 'no-store');
  return new Response(response.body, { status: response.status, headers });
}

/** The body field each method's Mcp-Name header mirrors (SEP-2243), for the replayable methods. */
const NAME_FIELDS: Record<string, string | undefined> = { 'tools/call': 'name', 'resources/read': 'uri' };

/**
 * Whether a 2026-07-28 request carries the standard headers exactly as the
 * SDK's header rung requires them: MCP-Protocol-Version naming the revision,
 * Mcp-Method naming the method and, where the method has one, Mcp-Name equal
 * to the body's field, written plainly (not Base64-encoded). Anything else is
 * left to the SDK, which answers it (-32020 or otherwise) itself.
 */
function standardHeadersAsRequired(headers: HeaderReader, revision: string, repeat: { method: string; params: Record<string, unknown> | undefined }): boolean {
  if (headers.get('mcp-protocol-version') !== revision || headers.get('mcp-method') !== repeat.method) return false;
  const field = NAME_FIELDS[repeat.method];
  if (field === undefined) return true;
  const value = repeat.params?.[field];
  const name = headers.get('mcp-name');
  return typeof value === 'string' && name === value && !name.startsWith('=?');
}

/** `http://localhost:4321` with Host `localhost:4321`: a loopback page of this very server (same origin). */
function isOwnLoopbackOrigin(origin: string, hostHeader: string): boolean {
  try {
    const url = new URL(origin);
    return url.protocol === 'http:' && LOOPBACK_NAMES.has(url.hostname) && url.host === hostHeader.toLowerCase() && url.origin === origin;
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
  addCors(headers, origin);
  return new Response(response.body, { status: response.status, headers });
}

function addCors(headers: Headers, origin: string): void {
  headers.set('access-control-allow-origin', origin);
  headers.set('access-control-expose-headers', 'Mcp-Session-Id');
  headers.append('vary', 'Origin');
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

/** Whether arrays and objects nest deeper than `max`, walked without recursion. */
export function nestedDeeperThan(value: unknown, max: number): boolean {
  const stack: Array<[unknown, number]> = [[value, 1]];
  while (stack.length > 0) {
    const [node, depth] = stack.pop()!;
    if (node === null || typeof node !== 'object') continue;
    if (depth > max) return true;
    for (const child of Array.isArray(node) ? node : Object.values(node)) if (child !== null && typeof child === 'object') stack.push([child, depth + 1]);
  }
  return false;
}

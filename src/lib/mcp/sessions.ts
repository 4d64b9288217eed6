/**
 * The session path of /mcp (initialize, then `Mcp-Session-Id` on every later
 * request; protocol 2024-10-07 to 2025-11-25): sessions that survive
 * instances and restarts (session-ids.ts) around the SDK v1 stateless transport.
 * endpoint.ts has already checked Host, Origin, Accept, Content-Type and
 * the body size, parsed the JSON and found no 2026-07-28 envelope in it.
 *
 * Order of the checks: MCP-Protocol-Version (400) → JSON-RPC shape (400,
 * -32600) → session (400 missing, 404 unknown/forged/ended/expired) →
 * batches (400 from 2025-06-18) → params of served requests against the SDK's
 * schemas (200, -32602; see params.ts) → the SDK transport (202
 * notifications, 200 results and JSON-RPC errors).
 */
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { JSONRPCMessageSchema, SUPPORTED_PROTOCOL_VERSIONS } from '@modelcontextprotocol/sdk/types.js';
import type { RateLimits } from '../limits/rate-limits.ts';
import type { McpCatalog } from './catalog.ts';
import { invalidParams, servedMethods } from './params.ts';
import { isObject, jsonReply, noStore, rpcError, unsupportedVersion } from './protocol.ts';
import type { SessionCheck, SessionSigner } from './session-ids.ts';
import type { ScanGate } from './scan-limit.ts';
import { createSessionServer } from './servers.ts';

const SESSION_HEADER = 'mcp-session-id';
/** Batches were removed from the protocol in 2025-06-18. */
const FIRST_VERSION_WITHOUT_BATCHES = '2025-06-18';

export interface SessionOptions {
  /**
   * The session signer, made on first use: the 2026-07-28 path never needs it
   * (nor its store). `fresh: false`: over the key read a moment ago, if any.
   */
  signer: (fresh?: boolean) => Promise<SessionSigner>;
  /** An answer instead of serving sessions (a serverless deployment without their settings: 503). */
  unavailable?: () => Response | undefined;
  /** Per client: sessions opened (initialize) and ended (DELETE), each a store write or check. */
  limits: RateLimits<SessionStep>;
  /** The gate of a client's scans (searches not asked before); undefined: not counted. */
  scanGate?: (client: McpClient) => ScanGate;
}

type SessionStep = 'initialize' | 'end';

/** Who sent the request, as src/lib/http/client-address.ts decided. */
export interface McpClient {
  address: string;
}

/** `onError`: failures of our own code, for the log. */
export function createSessionHandler(catalog: McpCatalog, options: SessionOptions, onError: (error: unknown) => void) {
  // The methods the server answers are the same for every request: found once.
  const served = servedMethods(createSessionServer(catalog));

  /**
   * An id checked with the key read a moment ago; one that fails its signature
   * is checked again with the key the store holds now, so an id signed with a
   * key another instance just stored is never refused.
   */
  async function checkSession(id: string): Promise<SessionCheck> {
    const check = await (await options.signer(false)).check(id);
    return !check.ok && check.reason === 'bad-signature' ? (await options.signer(true)).check(id) : check;
  }

  return {
    async post(request: Request, body: unknown, client: McpClient): Promise<Response> {
      const headerVersion = request.headers.get('mcp-protocol-version');
      if (headerVersion !== null && !SUPPORTED_PROTOCOL_VERSIONS.includes(headerVersion))
        return unsupportedVersion(headerVersion, body);
      const closed = options.unavailable?.();
      if (closed) return closed;

      const messages: unknown[] = Array.isArray(body) ? body : [body];
      if (messages.length === 0) return rpcError(400, -32600, 'Invalid Request: an empty batch');
      for (const message of messages) {
        if (!JSONRPCMessageSchema.safeParse(message).success) {
          return rpcError(400, -32600, 'Invalid Request: not a JSON-RPC 2.0 request, notification or response');
        }
      }
      const initialize = messages.find((m) => isObject(m) && m.method === 'initialize' && 'id' in m) as
        { id: string | number; params?: { protocolVersion?: unknown } } | undefined;
      if (initialize) {
        const limited = await limitAnswer(options.limits, 'initialize', client, initialize.id);
        if (limited) return limited;
      }
      const signer = await options.signer(Boolean(initialize));
      let protocolVersion: string;
      if (initialize) {
        if (messages.length > 1) return rpcError(400, -32600, 'Invalid Request: initialize must be sent alone');
        const requested = initialize.params?.protocolVersion;
        protocolVersion =
          typeof requested === 'string' && SUPPORTED_PROTOCOL_VERSIONS.includes(requested)
            ? requested
            : SUPPORTED_PROTOCOL_VERSIONS[0]!;
      } else {
        const id = request.headers.get(SESSION_HEADER);
        if (id === null)
          return rpcError(400, -32000, 'Bad Request: Mcp-Session-Id header is required after initialize');
        const check = await checkSession(id);
        if (!check.ok) return rpcError(404, -32001, 'Session not found: send a new initialize request');
        // The session's version was agreed at initialize: a request may not switch it (say, back to batches).
        if (headerVersion !== null && headerVersion !== check.claims.pv) {
          return rpcError(
            400,
            -32000,
            `Bad Request: MCP-Protocol-Version ${headerVersion} is not the version this session agreed (${check.claims.pv})`,
          );
        }
        protocolVersion = check.claims.pv;
      }
      if (Array.isArray(body) && protocolVersion >= FIRST_VERSION_WITHOUT_BATCHES) {
        return rpcError(400, -32600, `Invalid Request: JSON-RPC batches are not part of protocol ${protocolVersion}`);
      }
      // Requests of served methods whose params the SDK's schema refuses: -32602 here, not a -32603 zod dump from the SDK.
      const refused = messages.map((message) => invalidParams(message, served));
      const errors = refused.filter((error) => error !== null);
      if (errors.length > 0 && !Array.isArray(body)) return jsonReply(200, errors[0]);
      const passed = errors.length > 0 ? messages.filter((_, index) => refused[index] === null) : null;
      if (passed?.length === 0) return jsonReply(200, errors);

      const server = createSessionServer(catalog, options.scanGate?.(client));
      try {
        const transport = new WebStandardStreamableHTTPServerTransport({
          sessionIdGenerator: undefined,
          enableJsonResponse: true,
        });
        transport.onerror = (error) => {
          // The transport reports the client's mistakes (406, 415) here too; only ours are worth a log line.
          if (!/^(Not Acceptable|Unsupported Media Type|Parse error|Invalid Request|Bad Request)/.test(error.message))
            onError(error);
        };
        await server.connect(transport);
        const response = await transport.handleRequest(request, { parsedBody: passed ?? body });
        if (passed) {
          // A batch (protocol 2025-03-26 and older) with refused requests: their errors join the transport's answers.
          if (response.status === 202) return jsonReply(200, errors);
          if (response.status !== 200) return noStore(response);
          const answered = JSON.parse(await response.text()) as unknown;
          return jsonReply(200, [...(Array.isArray(answered) ? answered : [answered]), ...errors]);
        }
        if (initialize && response.status === 200) {
          // Only a successful initialize opens a session, at the version the server agreed.
          const responseText = await response.text();
          const agreed = (JSON.parse(responseText) as { result?: { protocolVersion?: unknown } }).result
            ?.protocolVersion;
          const opened = noStore(new Response(responseText, { status: response.status, headers: response.headers }));
          if (typeof agreed === 'string') opened.headers.set(SESSION_HEADER, signer.issue(agreed));
          return opened;
        }
        return noStore(response);
      } finally {
        // JSON responses are complete once handleRequest resolves.
        void server.close();
      }
    },

    async delete(request: Request, client: McpClient): Promise<Response> {
      const version = request.headers.get('mcp-protocol-version');
      if (version !== null && !SUPPORTED_PROTOCOL_VERSIONS.includes(version))
        return unsupportedVersion(version, undefined);
      const closed = options.unavailable?.();
      if (closed) return closed;
      const id = request.headers.get(SESSION_HEADER);
      if (id === null) return rpcError(400, -32000, 'Bad Request: Mcp-Session-Id header is required');
      const limited = await limitAnswer(options.limits, 'end', client, null);
      if (limited) return limited;
      const check = await checkSession(id);
      if (!check.ok) return rpcError(404, -32001, 'Session not found');
      await (await options.signer(false)).end(id, check.claims);
      return new Response(null, { status: 204, headers: { 'cache-control': 'no-store' } });
    },
  };
}

/** A 429 once `client` is over its limit for `step`: a JSON-RPC error (to the request's id) with Retry-After. */
async function limitAnswer(
  limits: RateLimits<SessionStep>,
  step: SessionStep,
  client: McpClient,
  id: string | number | null,
): Promise<Response | undefined> {
  const verdict = await limits.hit(step, client.address);
  if (verdict.ok) return undefined;
  const what = step === 'initialize' ? 'sessions opened' : 'sessions ended';
  return rpcError(
    429,
    -32000,
    `Too Many Requests: too many ${what} from this address; try again in ${verdict.retryAfterSeconds} s`,
    { 'retry-after': String(verdict.retryAfterSeconds) },
    id,
  );
}

/**
 * The protocol revisions /mcp serves, and the JSON answers it makes itself
 * (before or beside the SDKs): JSON-RPC errors with an HTTP status, never cached.
 */
import { SUPPORTED_PROTOCOL_VERSIONS as SESSION_VERSIONS } from '@modelcontextprotocol/sdk/types.js';
import { ProtocolErrorCode } from '@modelcontextprotocol/server';

export const MCP_MAX_BODY_BYTES = 1024 * 1024;

/** The revisions the SDK v2 serves sessionless (it exports no list of them). */
const STATELESS_PROTOCOL_VERSIONS: readonly string[] = ['2026-07-28'];
/** Every revision /mcp serves, newest first: 2026-07-28 (SDK v2, stateless) and the session ones (SDK v1). */
export const SERVED_PROTOCOL_VERSIONS: readonly string[] = [...STATELESS_PROTOCOL_VERSIONS, ...SESSION_VERSIONS];

export function rpcError(
  status: number,
  code: number,
  message: string,
  headers: Record<string, string> = {},
  id: string | number | null = null,
  data?: unknown,
): Response {
  return jsonReply(
    status,
    { jsonrpc: '2.0', error: data === undefined ? { code, message } : { code, message, data }, id },
    headers,
  );
}

export function jsonReply(status: number, value: unknown, headers: Record<string, string> = {}): Response {
  return new Response(`${JSON.stringify(value)}\n`, {
    status,
    headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', ...headers },
  });
}

/** An SDK's answer as it is, but never cached. */
export function noStore(response: Response): Response {
  const headers = new Headers(response.headers);
  headers.set('cache-control', 'no-store');
  return new Response(response.body, { status: response.status, headers });
}

/**
 * An MCP-Protocol-Version this server does not speak: 400 with the
 * UnsupportedProtocolVersionError of the 2026-07-28 revision (-32022, the
 * supported versions in `data`), answered to the request's id when it has
 * one, so a client that negotiates learns what to use from the error alone.
 */
export function unsupportedVersion(requested: string, body: unknown): Response {
  const id = isObject(body) && (typeof body.id === 'string' || typeof body.id === 'number') ? body.id : null;
  const message = `Unsupported protocol version: ${JSON.stringify(requested)}; supported: ${SERVED_PROTOCOL_VERSIONS.join(', ')}`;
  return rpcError(400, ProtocolErrorCode.UnsupportedProtocolVersion, message, {}, id, {
    supported: SERVED_PROTOCOL_VERSIONS,
    requested,
  });
}

/**
 * The 413 of /mcp: a JSON-RPC error like every other /mcp answer. Exported for
 * whatever reads the body before this handler (the Node entry's route table)
 * so that an oversized body gets this same answer on every path.
 */
export function mcpPayloadTooLarge(): Response {
  return rpcError(413, -32000, `Payload Too Large: the request body may be at most ${MCP_MAX_BODY_BYTES} bytes`);
}

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

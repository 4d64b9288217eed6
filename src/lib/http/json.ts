/**
 * JSON responses and the error shapes of the interface: `{ error, issues }` for
 * a 400, `{ error, message }` otherwise. Every body ends with a newline.
 */
import { CORS_HEADERS } from './cors.ts';

export const JSON_TYPE = 'application/json; charset=utf-8';

export interface Issue {
  code: string;
  path: (string | number)[];
  message: string;
}

export function jsonResponse(body: unknown, init: { status?: number; headers?: Record<string, string> } = {}): Response {
  return new Response(`${JSON.stringify(body)}\n`, {
    status: init.status ?? 200,
    headers: { 'content-type': JSON_TYPE, 'cache-control': 'no-store', ...CORS_HEADERS, ...init.headers },
  });
}

export function invalidRequest(issues: Issue[]): Response {
  return jsonResponse({ error: 'invalid_request', issues }, { status: 400 });
}

export function notFound(message = 'No resource lives at this path.'): Response {
  return jsonResponse({ error: 'not_found', message }, { status: 404 });
}

export function methodNotAllowed(allowed: readonly string[]): Response {
  const allow = allowed.join(', ');
  return jsonResponse({ error: 'method_not_allowed', message: `Use ${allow}.` }, { status: 405, headers: { allow } });
}

export function payloadTooLarge(limitBytes: number): Response {
  return jsonResponse({ error: 'payload_too_large', message: `The request body may be at most ${limitBytes} bytes.` }, { status: 413 });
}

/**
 * The hub's responses, in the interface's error shapes (src/lib/http/json.ts):
 * `{ error, issues }` for a 400, `{ error, message }` otherwise; JSON ending
 * with a newline, uncached, open to every origin (the hub takes form POSTs
 * from anywhere, W3C WebSub §5.1).
 */
import { CORS_HEADERS } from '../http/cors.ts';
import type { Issue } from '../http/json.ts';

const JSON_TYPE = 'application/json; charset=utf-8';

export function json(body: unknown, status: number, headers: Record<string, string> = {}): Response {
  return new Response(`${JSON.stringify(body)}\n`, {
    status,
    headers: { 'content-type': JSON_TYPE, 'cache-control': 'no-store', ...CORS_HEADERS, ...headers },
  });
}

export const invalid = (issues: Issue[]): Response => json({ error: 'invalid_request', issues }, 400);

export const tooLarge = (limit: number): Response =>
  json({ error: 'payload_too_large', message: `The request body may be at most ${limit} bytes.` }, 413);

export function preflight(request: Request, methods: readonly string[]): Response {
  const all = [...methods, 'OPTIONS'].join(', ');
  const headers: Record<string, string> = {
    ...CORS_HEADERS,
    allow: all,
    'access-control-allow-methods': all,
    'access-control-max-age': '86400',
    vary: 'Access-Control-Request-Headers',
  };
  const requested = request.headers.get('access-control-request-headers');
  if (requested) headers['access-control-allow-headers'] = requested;
  return new Response(null, { status: 204, headers });
}

export function notAllowed(methods: readonly string[]): Response {
  const allow = [...methods, 'OPTIONS'].join(', ');
  return json({ error: 'method_not_allowed', message: `Use ${allow}.` }, 405, { allow });
}

/**
 * JSON responses and the error shapes of the interface: `{ error, issues }` for
 * a 400, `{ error, message }` otherwise. Every body ends with a newline.
 */
import { textBytes, type ApiAnswer } from './answer.ts';
import { CORS_HEADERS } from './cors.ts';

export const JSON_TYPE = 'application/json; charset=utf-8';

export interface Issue {
  code: string;
  path: (string | number)[];
  message: string;
}

/** An error or other uncached JSON answer (no-store: errors are not worth a CDN's memory). */
export function jsonAnswer(body: unknown, init: { status?: number; headers?: Record<string, string> } = {}): ApiAnswer {
  return {
    status: init.status ?? 200,
    headers: { 'content-type': JSON_TYPE, 'cache-control': 'no-store', ...CORS_HEADERS, ...init.headers },
    body: textBytes(`${JSON.stringify(body)}\n`),
  };
}

export function jsonResponse(body: unknown, init: { status?: number; headers?: Record<string, string> } = {}): Response {
  const answer = jsonAnswer(body, init);
  return new Response(answer.body as BodyInit, { status: answer.status, headers: answer.headers });
}

export function invalidRequest(issues: Issue[]): ApiAnswer {
  return jsonAnswer({ error: 'invalid_request', issues }, { status: 400 });
}

export function notFound(message = 'No resource lives at this path.'): ApiAnswer {
  return jsonAnswer({ error: 'not_found', message }, { status: 404 });
}

export function methodNotAllowed(allowed: readonly string[]): ApiAnswer {
  const allow = allowed.join(', ');
  return jsonAnswer({ error: 'method_not_allowed', message: `Use ${allow}.` }, { status: 405, headers: { allow } });
}

export function payloadTooLarge(limitBytes: number): Response {
  return jsonResponse({ error: 'payload_too_large', message: `The request body may be at most ${limitBytes} bytes.` }, { status: 413 });
}

/**
 * JSON responses and the error shapes of the interface: `{ error, issues }` for
 * a 400, `{ error, message }` otherwise. Every body ends with a newline.
 */
import { textBytes, toResponse, type ApiAnswer } from './answer.ts';
import { CORS_HEADERS } from './cors.ts';
import { boundIssues, type Issue } from './issues.ts';

export const JSON_TYPE = 'application/json; charset=utf-8';

/** Serialises a JSON body the way every endpoint does: compact, with a final newline. */
export function toJsonBody(value: unknown): string {
  return `${JSON.stringify(value)}\n`;
}

/** An error or other uncached JSON answer (no-store: errors are not worth a CDN's memory). */
export function jsonAnswer(body: unknown, init: { status?: number; headers?: Record<string, string> } = {}): ApiAnswer {
  return {
    status: init.status ?? 200,
    headers: { 'content-type': JSON_TYPE, 'cache-control': 'no-store', ...CORS_HEADERS, ...init.headers },
    body: textBytes(toJsonBody(body)),
  };
}

export function invalidRequest(issues: Issue[]): ApiAnswer {
  return jsonAnswer({ error: 'invalid_request', issues: boundIssues(issues) }, { status: 400 });
}

export function notFound(message = 'No resource lives at this path.'): ApiAnswer {
  return jsonAnswer({ error: 'not_found', message }, { status: 404 });
}

export function methodNotAllowed(allowed: readonly string[]): ApiAnswer {
  const allow = allowed.join(', ');
  return jsonAnswer({ error: 'method_not_allowed', message: `Use ${allow}.` }, { status: 405, headers: { allow } });
}

/** 429: the client asked for more than its share; Retry-After says when to ask again. */
export function tooManyRequests(message: string, retryAfterSeconds: number): ApiAnswer {
  return jsonAnswer(
    { error: 'rate_limited', message },
    { status: 429, headers: { 'retry-after': String(retryAfterSeconds) } },
  );
}

export function payloadTooLarge(limitBytes: number): Response {
  return toResponse(
    jsonAnswer(
      { error: 'payload_too_large', message: `The request body may be at most ${limitBytes} bytes.` },
      { status: 413 },
    ),
  );
}

/**
 * Everything is public and read-only, so every GET is open to every origin.
 * Validators are exposed so browser clients can do conditional requests.
 */
export const CORS_HEADERS: Readonly<Record<string, string>> = {
  'access-control-allow-origin': '*',
  'access-control-expose-headers': 'ETag, Last-Modified, Retry-After',
};

import type { ApiAnswer } from './answer.ts';

export const PREFLIGHT_MAX_AGE = '86400';

/** The answer to an OPTIONS preflight for a resource that allows `methods`. */
export function preflightAnswer(
  requestHeaders: { get(name: string): string | null },
  methods: readonly string[],
): ApiAnswer {
  const headers: Record<string, string> = {
    ...CORS_HEADERS,
    allow: [...methods, 'OPTIONS'].join(', '),
    'access-control-allow-methods': [...methods, 'OPTIONS'].join(', '),
    'access-control-max-age': PREFLIGHT_MAX_AGE,
    vary: 'Access-Control-Request-Headers',
  };
  const requested = requestHeaders.get('access-control-request-headers');
  if (requested) headers['access-control-allow-headers'] = requested;
  return { status: 204, headers, body: null };
}

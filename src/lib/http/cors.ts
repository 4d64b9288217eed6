/**
 * Everything is public and read-only, so every GET is open to every origin.
 * Validators are exposed so browser clients can do conditional requests.
 */
export const CORS_HEADERS: Readonly<Record<string, string>> = {
  'access-control-allow-origin': '*',
  'access-control-expose-headers': 'ETag, Last-Modified, Retry-After',
};

const PREFLIGHT_MAX_AGE = '86400';

/** The answer to an OPTIONS preflight for a resource that allows `methods`. */
export function preflightResponse(request: Request, methods: readonly string[]): Response {
  const headers = new Headers({
    ...CORS_HEADERS,
    allow: [...methods, 'OPTIONS'].join(', '),
    'access-control-allow-methods': [...methods, 'OPTIONS'].join(', '),
    'access-control-max-age': PREFLIGHT_MAX_AGE,
  });
  const requested = request.headers.get('access-control-request-headers');
  if (requested) headers.set('access-control-allow-headers', requested);
  headers.append('vary', 'Access-Control-Request-Headers');
  return new Response(null, { status: 204, headers });
}

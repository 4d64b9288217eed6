/**
 * What HTTP adds to the OpenAPI document, written by hand: the shared headers,
 * parameters and responses (components.headers, .parameters, .responses) and
 * a `$ref` to any component.
 */
import { CORS_HEADERS, PREFLIGHT_MAX_AGE } from '../../http/cors.ts';
import { CONTENT_CACHE } from '../../http/representation.ts';
import type { JsonObject } from './document-types.ts';

export const ref = (kind: 'schemas' | 'parameters' | 'headers' | 'responses', name: string) => ({
  $ref: `#/components/${kind}/${name}`,
});
export const JSON_MEDIA = 'application/json';

export const HEADERS: Record<string, JsonObject> = {
  ETag: {
    description:
      'Strong validator: the SHA-256 (base64url) of the body bytes. Static files have one per encoding (suffix -br or -gz); any of them in If-None-Match is a match.',
    schema: { type: 'string', pattern: '^"[A-Za-z0-9_-]+"$' },
    example: '"3q2-7wEx1cX0bR6dJm3Y4oWq9m1nT8u2vPz5sK0aLcE"',
  },
  LastModified: {
    description:
      'HTTP date of the newest `updated` among the data served (of the whole dataset when the result is empty). Never the build or request clock.',
    schema: { type: 'string' },
    example: 'Tue, 04 Mar 2025 00:00:00 GMT',
  },
  CacheControl: {
    description:
      'Browsers revalidate after a minute (a 304 is cheap); shared caches keep five minutes and may serve stale while refetching.',
    schema: { type: 'string', const: CONTENT_CACHE },
  },
  NoStore: { description: 'Errors are not cached.', schema: { type: 'string', const: 'no-store' } },
  Vary: {
    description:
      'Answers of 1 KiB or more are sent compressed (br, gzip) as Accept-Encoding asks, each encoding with its own strong ETag.',
    schema: { type: 'string', const: 'Accept-Encoding' },
  },
  AccessControlAllowOrigin: {
    description: 'Every GET is open to every origin.',
    schema: { type: 'string', const: '*' },
  },
  AccessControlExposeHeaders: {
    description: 'Browser code may read the validators.',
    schema: { type: 'string', const: CORS_HEADERS['access-control-expose-headers'] },
  },
  Allow: { description: 'The methods this path accepts.', schema: { type: 'string' }, example: 'GET, HEAD, OPTIONS' },
  AccessControlAllowMethods: {
    description: 'Same as Allow.',
    schema: { type: 'string' },
    example: 'GET, HEAD, OPTIONS',
  },
  AccessControlMaxAge: {
    description: 'Seconds a browser may cache the preflight.',
    schema: { type: 'string', const: PREFLIGHT_MAX_AGE },
  },
  RetryAfter: { description: 'Seconds to wait before trying again.', schema: { type: 'integer', minimum: 1 } },
  McpSessionId: {
    description:
      'The session id: send it as Mcp-Session-Id on every later request. Valid on every instance and across restarts until it expires or DELETE /mcp ends it.',
    schema: { type: 'string' },
  },
};

export const PARAMETERS: Record<string, JsonObject> = {
  IfNoneMatch: {
    name: 'If-None-Match',
    in: 'header',
    required: false,
    description:
      'An ETag from an earlier response (or several, comma-separated, or *). If one matches (weak comparison), the answer is 304 with no body. Wins over If-Modified-Since.',
    schema: { type: 'string' },
  },
  IfModifiedSince: {
    name: 'If-Modified-Since',
    in: 'header',
    required: false,
    description:
      'An HTTP date, usually an earlier Last-Modified. If nothing served changed since, the answer is 304. Ignored when If-None-Match is sent or the date does not parse.',
    schema: { type: 'string' },
  },
  McpSessionId: {
    name: 'Mcp-Session-Id',
    in: 'header',
    required: false,
    description:
      'The id from the initialize response. Required on every request after initialize: missing is 400; unknown, forged, expired or ended is 404 (send a new initialize).',
    schema: { type: 'string' },
  },
  McpProtocolVersion: {
    name: 'MCP-Protocol-Version',
    in: 'header',
    required: false,
    description: 'The protocol version agreed in initialize (documented: 2025-06-18). An unsupported value is 400.',
    schema: { type: 'string' },
    example: '2025-06-18',
  },
};

export const validatorHeaders = (lastModified: boolean) => ({
  ETag: ref('headers', 'ETag'),
  ...(lastModified ? { 'Last-Modified': ref('headers', 'LastModified') } : {}),
  'Cache-Control': ref('headers', 'CacheControl'),
});
export const corsHeaders = {
  'Access-Control-Allow-Origin': ref('headers', 'AccessControlAllowOrigin'),
  'Access-Control-Expose-Headers': ref('headers', 'AccessControlExposeHeaders'),
};

export const RESPONSES: Record<string, JsonObject> = {
  NotModified: {
    description:
      'Not Modified: the validator matched; the copy the client holds is current. Empty body, the same validators as the 200.',
    headers: { ...validatorHeaders(true), ...corsHeaders },
  },
  ValidationError: {
    description:
      'Invalid request: an unknown, repeated, empty or invalid parameter, an impossible calendar date, since after until, or rating below min_rating. Each issue names the parameter. Nothing a client sends produces a 5xx.',
    headers: { 'Cache-Control': ref('headers', 'NoStore'), ...corsHeaders },
    content: { [JSON_MEDIA]: { schema: ref('schemas', 'ErrorResponse') } },
  },
  NotFound: {
    description: 'No endpoint lives at this path (every unknown path under /api/ answers this JSON).',
    headers: { 'Cache-Control': ref('headers', 'NoStore'), ...corsHeaders },
    content: {
      [JSON_MEDIA]: {
        schema: ref('schemas', 'MessageError'),
        example: {
          error: 'not_found',
          message: 'No API endpoint lives at /api/nothing. See /openapi.json for the endpoints.',
        },
      },
    },
  },
  MethodNotAllowed: {
    description:
      'The path exists but does not take this method (every GET endpoint answers any method other than GET, HEAD and OPTIONS this way). Allow lists what it takes.',
    headers: { Allow: ref('headers', 'Allow'), 'Cache-Control': ref('headers', 'NoStore'), ...corsHeaders },
    content: {
      [JSON_MEDIA]: {
        schema: ref('schemas', 'MessageError'),
        example: { error: 'method_not_allowed', message: 'Use GET, HEAD, OPTIONS.' },
      },
    },
  },
  Preflight: {
    description:
      'CORS preflight: any origin may GET and HEAD, with any request headers it asks for (If-None-Match, ...). No body.',
    headers: {
      Allow: ref('headers', 'Allow'),
      'Access-Control-Allow-Methods': ref('headers', 'AccessControlAllowMethods'),
      'Access-Control-Max-Age': ref('headers', 'AccessControlMaxAge'),
      'Access-Control-Allow-Origin': ref('headers', 'AccessControlAllowOrigin'),
    },
  },
};

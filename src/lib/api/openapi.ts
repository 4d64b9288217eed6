/**
 * The OpenAPI 3.1.0 description of the whole public interface (/openapi.json,
 * rendered at /api-reference). Every record, response and parameter schema is
 * generated from the zod schemas the server validates and serialises with, so
 * the document cannot drift from the code: the search parameters are
 * `searchQuery.shape`, the bodies are `reviewsDataset`, `review`,
 * `searchResponse`, `sinceResponse` and the error schemas. What is written here by hand is only
 * what HTTP adds (statuses, headers, methods) and the shapes with no schema
 * elsewhere (JSON Feed, JSON-RPC envelope, the hub's form).
 *
 * Deterministic: the same site gives the same bytes (no clock, no content).
 */
import { z } from 'zod';
import { siteLinks } from '../feeds/links.ts';
import { FEED_SIZE } from '../feeds/entries.ts';
import { JSON_FEED_VERSION } from '../feeds/json-feed.ts';
import { CORS_HEADERS, PREFLIGHT_MAX_AGE } from '../http/cors.ts';
import { errorResponse, messageError } from '../http/errors-schema.ts';
import { insightsDataset } from '../insights/schema.ts';
import { MCP_MAX_BODY_BYTES } from '../mcp/protocol.ts';
import { DEFAULT_SEARCH_LIMIT, MAX_SEARCH_LIMIT, searchQuery, SINCE_PAGE_SIZE, sinceDate } from '../reviews/query.ts';
import { searchResponse, sinceResponse } from '../reviews/responses.ts';
import { review, reviewsDataset } from '../reviews/schema.ts';
import { CONTENT_CACHE } from '../static/manifest.ts';
import { DEFAULT_HUB_CONFIG, HUB_MAX_BODY_BYTES } from '../websub/config.ts';

export const OPENAPI_VERSION = '3.1.0';
export const API_VERSION = '1.0.0';

export type JsonSchema = { [key: string]: unknown };
export type JsonObject = { [key: string]: unknown };

export interface OpenApiDocument {
  openapi: string;
  info: JsonObject & { title: string; version: string; description: string };
  servers: Array<{ url: string; description?: string }>;
  tags: Array<{ name: string; description: string }>;
  paths: Record<string, PathItem>;
  components: {
    schemas: Record<string, JsonSchema>;
    parameters: Record<string, JsonObject>;
    headers: Record<string, JsonObject>;
    responses: Record<string, JsonObject>;
  };
}

export const HTTP_METHODS = ['get', 'head', 'options', 'post', 'delete'] as const;
export type HttpMethod = (typeof HTTP_METHODS)[number];
export type PathItem = { summary?: string; description?: string } & Partial<Record<HttpMethod, Operation>>;
export interface Operation {
  operationId: string;
  tags: string[];
  summary: string;
  description: string;
  parameters?: JsonObject[];
  requestBody?: JsonObject;
  responses: Record<string, JsonObject>;
  callbacks?: JsonObject;
}

/* ------------------------------------------------------------------ schemas */

const JSON_SCHEMA_TARGET = 'draft-2020-12';
const COMPONENT_REF = '#/components/schemas/';

/** Shapes with no schema elsewhere in the code: JSON Feed as json-feed.ts writes it. */
const jsonFeedAuthor = z.object({ name: z.string(), url: z.url().optional() });
const jsonFeed = z.object({
  version: z.literal(JSON_FEED_VERSION),
  title: z.string(),
  home_page_url: z.url(),
  feed_url: z.url(),
  description: z.string(),
  language: z.string(),
  authors: z.array(jsonFeedAuthor),
  hubs: z.array(z.object({ type: z.literal('WebSub'), url: z.url() })).describe('The WebSub hub that pushes this feed when it changes.'),
  items: z
    .array(
      z.object({
        id: z.string().describe('A tag URI (RFC 4151) that never changes, even if the site moves.'),
        url: z.url().describe("The review's page."),
        title: z.string(),
        content_text: z.string().describe("The review text, then the owner's reply if there is one."),
        summary: z.string(),
        date_published: z.string().meta({ format: 'date-time' }),
        date_modified: z.string().meta({ format: 'date-time' }),
        authors: z.array(z.object({ name: z.string() })),
        tags: z.array(z.string()).describe('Service ids.'),
        _review: z
          .object({
            id: z.string(),
            rating: z.int().min(1).max(5),
            technicians: z.array(z.string()),
            services: z.array(z.string()),
            service_area: z.string().nullable(),
            source: z.string(),
            source_id: z.string().optional(),
            source_url: z.string().optional(),
          })
          .describe('Extension (JSON Feed §Extensions): the review fields a feed reader would otherwise lose. The full record is in /reviews.json.'),
      }),
    )
    .max(FEED_SIZE)
    .describe(`The ${FEED_SIZE} newest reviews, newest first.`),
});

/** The JSON-RPC 2.0 envelope of POST /mcp (the MCP methods and their params are the MCP specification's). */
const jsonRpcId = z.union([z.string(), z.int()]);
const jsonRpcRequest = z.object({
  jsonrpc: z.literal('2.0'),
  id: jsonRpcId.optional().describe('Absent for a notification, which is answered 202 with no body.'),
  method: z.string().describe('initialize, tools/list, tools/call, resources/list, resources/read, ping, notifications/initialized, ...'),
  params: z.record(z.string(), z.unknown()).optional(),
});
const jsonRpcErrorObject = z.object({ code: z.int(), message: z.string(), data: z.unknown().optional() });
const jsonRpcResponse = z.object({
  jsonrpc: z.literal('2.0'),
  id: jsonRpcId.nullable(),
  result: z.record(z.string(), z.unknown()).optional().describe('Present on success.'),
  error: jsonRpcErrorObject.optional().describe('Present on failure: -32700 parse error, -32600 invalid request, -32601 unknown method, -32602 invalid params.'),
});
const jsonRpcErrorResponse = z.object({ jsonrpc: z.literal('2.0'), id: z.null(), error: jsonRpcErrorObject });

const topicUrls = (site: string) => {
  const links = siteLinks(site);
  return [links.atomFeed, links.jsonFeed, links.reviewsJson] as const;
};

/** The hub's form body (W3C WebSub §5.1 and §7 publish). */
function hubForm(site: string) {
  const topic = z.enum(topicUrls(site));
  return z.object({
    'hub.mode': z.enum(['subscribe', 'unsubscribe', 'publish']),
    'hub.callback': z.url().optional().describe('subscribe/unsubscribe: the subscriber\'s HTTPS URL. Plain HTTP, credentials in the URL and private, loopback, link-local or metadata addresses are refused.'),
    'hub.topic': topic.optional().describe('subscribe/unsubscribe (required) and publish: one of the three topics.'),
    'hub.lease_seconds': z
      .int()
      .optional()
      .describe(
        `subscribe: the lease asked for, in seconds. Clamped to ${DEFAULT_HUB_CONFIG.leaseMinSeconds}..${DEFAULT_HUB_CONFIG.leaseMaxSeconds} (1 hour to 30 days); default ${DEFAULT_HUB_CONFIG.leaseDefaultSeconds} (10 days). The lease granted is the one sent in the verification request. Ignored on unsubscribe.`,
      ),
    'hub.secret': z.string().max(199).optional().describe('subscribe: a secret of fewer than 200 bytes; notifications then carry X-Hub-Signature: sha256=<hex HMAC-SHA256 of the body>.'),
    'hub.url': topic.optional().describe('publish: the topic that changed (a synonym of hub.topic).'),
  });
}

/** The hub's 202 body (src/lib/websub/hub-handler.ts). */
const hubAccepted = z.object({
  status: z.literal('accepted'),
  mode: z.enum(['subscribe', 'unsubscribe', 'publish']),
  topic: z.string().optional().describe('subscribe/unsubscribe: the topic.'),
  topics: z.array(z.string()).optional().describe('publish: the topics that will be checked for changes.'),
  message: z.string().optional(),
});

/**
 * Generates components.schemas from zod: one registry of the top-level
 * schemas; every nested schema with a `.meta({ id })` becomes a component of
 * its own and is referenced with $ref.
 */
function generateComponents(site: string): Record<string, JsonSchema> {
  const registry = z.registry<{ id: string }>();
  const add = (schema: z.ZodType, id = z.globalRegistry.get(schema)?.id) => {
    if (!id) throw new Error('a component schema needs an id');
    registry.add(schema, { id });
  };
  add(reviewsDataset);
  add(insightsDataset);
  add(jsonFeed, 'JsonFeed');
  add(searchResponse);
  add(sinceResponse);
  add(errorResponse);
  add(messageError);
  add(jsonRpcRequest, 'JsonRpcRequest');
  add(jsonRpcResponse, 'JsonRpcResponse');
  add(jsonRpcErrorResponse, 'JsonRpcErrorResponse');
  add(hubForm(site), 'HubRequest');
  add(hubAccepted, 'HubAccepted');

  const generated = z.toJSONSchema(registry, {
    target: JSON_SCHEMA_TARGET,
    io: 'output',
    uri: (id) => `${COMPONENT_REF}${id}`,
    override: openResponseObjects,
  }).schemas as Record<string, JsonSchema>;
  const schemas: Record<string, JsonSchema> = {};
  for (const [id, schema] of Object.entries(generated)) {
    if (id === '__shared') {
      for (const [sharedId, shared] of Object.entries((schema.$defs ?? {}) as Record<string, JsonSchema>)) schemas[sharedId] = shared;
    } else schemas[id] = schema;
  }
  // The query as one object (the MCP tool search_reviews takes the same arguments): the input side, defaults included.
  const inputs = z.registry<{ id: string }>();
  inputs.add(searchQuery, { id: 'SearchQuery' });
  schemas.SearchQuery = z.toJSONSchema(inputs, { target: JSON_SCHEMA_TARGET, io: 'input', uri: (id) => `${COMPONENT_REF}${id}` }).schemas.SearchQuery as JsonSchema;
  schemas.SearchQuery.description =
    'The search parameters as one object: the query string of GET /api/reviews/search and the arguments of the MCP tool search_reviews. Also refused: since after until, and rating below min_rating.';

  const sorted: Record<string, JsonSchema> = {};
  for (const id of Object.keys(schemas).sort()) sorted[id] = tidy(schemas[id]!) as JsonSchema;
  return sorted;
}

/**
 * Response records may gain fields (interface decisions: "extra fields are
 * allowed"), so ordinary objects are left open: `additionalProperties: false`
 * stays only where the schema is strict.
 */
function openResponseObjects(ctx: { zodSchema: unknown; jsonSchema: JsonSchema }): void {
  const def = (ctx.zodSchema as { _zod?: { def?: { type?: string; catchall?: unknown } } })._zod?.def;
  if (def?.type === 'object' && def.catchall === undefined && ctx.jsonSchema.additionalProperties === false) delete ctx.jsonSchema.additionalProperties;
}

/**
 * Drops what does not belong inside an OpenAPI document (`$schema`, `$id`) and
 * zod's safe-integer bounds, which say nothing to a client; rewrites shared refs.
 */
function tidy(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(tidy);
  if (value === null || typeof value !== 'object') return value;
  const out: JsonObject = {};
  for (const [key, inner] of Object.entries(value)) {
    if (key === '$schema' || key === '$id') continue;
    if ((key === 'minimum' && inner === Number.MIN_SAFE_INTEGER) || (key === 'maximum' && inner === Number.MAX_SAFE_INTEGER)) continue;
    if (key === '$ref' && typeof inner === 'string') {
      out.$ref = inner.replace(`${COMPONENT_REF}__shared#/$defs/`, COMPONENT_REF);
      continue;
    }
    out[key] = tidy(inner);
  }
  return out;
}

/** One field of a zod object as a parameter schema (input side: defaults shown, nothing retyped). */
function parameterSchema(schema: z.ZodType): { schema: JsonSchema; description: string; required: boolean } {
  const json = tidy(z.toJSONSchema(schema, { target: JSON_SCHEMA_TARGET, io: 'input' })) as JsonSchema;
  const description = typeof json.description === 'string' ? json.description : '';
  delete json.description;
  return { schema: json, description, required: !schema.safeParse(undefined).success };
}

const SEARCH_EXAMPLES: Record<string, unknown> = {
  rating: 5,
  min_rating: 4,
  since: '2024-01-01',
  until: '2024-12-31',
  query: 'leak',
  mentions_technician: 'Maria Lopez',
  mentions_service: 'roof-repair',
  limit: 10,
};

function searchParameters(): JsonObject[] {
  const shape = searchQuery.shape as Record<string, z.ZodType>;
  return Object.keys(shape).map((name) => {
    const { schema, description, required } = parameterSchema(shape[name]!);
    return {
      name,
      in: 'query',
      description,
      required,
      schema,
      ...(name in SEARCH_EXAMPLES ? { example: SEARCH_EXAMPLES[name] } : {}),
    };
  });
}

/* -------------------------------------------------------- HTTP furniture */

const ref = (kind: 'schemas' | 'parameters' | 'headers' | 'responses', name: string) => ({ $ref: `#/components/${kind}/${name}` });
const JSON_MEDIA = 'application/json';

const HEADERS: Record<string, JsonObject> = {
  ETag: {
    description: 'Strong validator: the SHA-256 (base64url) of the body bytes. Static files have one per encoding (suffix -br or -gz); any of them in If-None-Match is a match.',
    schema: { type: 'string', pattern: '^"[A-Za-z0-9_-]+"$' },
    example: '"3q2-7wEx1cX0bR6dJm3Y4oWq9m1nT8u2vPz5sK0aLcE"',
  },
  LastModified: {
    description: 'HTTP date of the newest `updated` among the data served (of the whole dataset when the result is empty). Never the build or request clock.',
    schema: { type: 'string' },
    example: 'Tue, 04 Mar 2025 00:00:00 GMT',
  },
  CacheControl: {
    description: 'Browsers revalidate after a minute (a 304 is cheap); shared caches keep five minutes and may serve stale while refetching.',
    schema: { type: 'string', const: CONTENT_CACHE },
  },
  NoStore: { description: 'Errors are not cached.', schema: { type: 'string', const: 'no-store' } },
  Vary: { description: 'Static files are served precompressed (br, gzip) as Accept-Encoding asks.', schema: { type: 'string', const: 'Accept-Encoding' } },
  AccessControlAllowOrigin: { description: 'Every GET is open to every origin.', schema: { type: 'string', const: '*' } },
  AccessControlExposeHeaders: { description: 'Browser code may read the validators.', schema: { type: 'string', const: CORS_HEADERS['access-control-expose-headers'] } },
  Allow: { description: 'The methods this path accepts.', schema: { type: 'string' }, example: 'GET, HEAD, OPTIONS' },
  AccessControlAllowMethods: { description: 'Same as Allow.', schema: { type: 'string' }, example: 'GET, HEAD, OPTIONS' },
  AccessControlMaxAge: { description: 'Seconds a browser may cache the preflight.', schema: { type: 'string', const: PREFLIGHT_MAX_AGE } },
  RetryAfter: { description: 'Seconds to wait before trying again.', schema: { type: 'integer', minimum: 1 } },
  McpSessionId: { description: 'The session id: send it as Mcp-Session-Id on every later request. Valid on every instance and across restarts until it expires or DELETE /mcp ends it.', schema: { type: 'string' } },
};

const PARAMETERS: Record<string, JsonObject> = {
  IfNoneMatch: {
    name: 'If-None-Match',
    in: 'header',
    required: false,
    description: 'An ETag from an earlier response (or several, comma-separated, or *). If one matches (weak comparison), the answer is 304 with no body. Wins over If-Modified-Since.',
    schema: { type: 'string' },
  },
  IfModifiedSince: {
    name: 'If-Modified-Since',
    in: 'header',
    required: false,
    description: 'An HTTP date, usually an earlier Last-Modified. If nothing served changed since, the answer is 304. Ignored when If-None-Match is sent or the date does not parse.',
    schema: { type: 'string' },
  },
  McpSessionId: {
    name: 'Mcp-Session-Id',
    in: 'header',
    required: false,
    description: 'The id from the initialize response. Required on every request after initialize: missing is 400; unknown, forged, expired or ended is 404 (send a new initialize).',
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

const validatorHeaders = (lastModified: boolean) => ({
  ETag: ref('headers', 'ETag'),
  ...(lastModified ? { 'Last-Modified': ref('headers', 'LastModified') } : {}),
  'Cache-Control': ref('headers', 'CacheControl'),
});
const corsHeaders = {
  'Access-Control-Allow-Origin': ref('headers', 'AccessControlAllowOrigin'),
  'Access-Control-Expose-Headers': ref('headers', 'AccessControlExposeHeaders'),
};

const RESPONSES: Record<string, JsonObject> = {
  NotModified: {
    description: 'Not Modified: the validator matched; the copy the client holds is current. Empty body, the same validators as the 200.',
    headers: { ...validatorHeaders(true), ...corsHeaders },
  },
  ValidationError: {
    description: 'Invalid request: an unknown, repeated, empty or invalid parameter, an impossible calendar date, since after until, or rating below min_rating. Each issue names the parameter. Nothing a client sends produces a 5xx.',
    headers: { 'Cache-Control': ref('headers', 'NoStore'), ...corsHeaders },
    content: { [JSON_MEDIA]: { schema: ref('schemas', 'ErrorResponse') } },
  },
  NotFound: {
    description: 'No endpoint lives at this path (every unknown path under /api/ answers this JSON).',
    headers: { 'Cache-Control': ref('headers', 'NoStore'), ...corsHeaders },
    content: { [JSON_MEDIA]: { schema: ref('schemas', 'MessageError'), example: { error: 'not_found', message: 'No API endpoint lives at /api/nothing. See /openapi.json for the endpoints.' } } },
  },
  MethodNotAllowed: {
    description: 'The path exists but does not take this method (every GET endpoint answers any method other than GET, HEAD and OPTIONS this way). Allow lists what it takes.',
    headers: { Allow: ref('headers', 'Allow'), 'Cache-Control': ref('headers', 'NoStore'), ...corsHeaders },
    content: { [JSON_MEDIA]: { schema: ref('schemas', 'MessageError'), example: { error: 'method_not_allowed', message: 'Use GET, HEAD, OPTIONS.' } } },
  },
  Preflight: {
    description: 'CORS preflight: any origin may GET and HEAD, with any request headers it asks for (If-None-Match, ...). No body.',
    headers: {
      Allow: ref('headers', 'Allow'),
      'Access-Control-Allow-Methods': ref('headers', 'AccessControlAllowMethods'),
      'Access-Control-Max-Age': ref('headers', 'AccessControlMaxAge'),
      'Access-Control-Allow-Origin': ref('headers', 'AccessControlAllowOrigin'),
    },
  },
};

interface ReadEndpoint {
  path: string;
  id: string;
  tag: string;
  summary: string;
  description: string;
  parameters?: JsonObject[];
  mediaType: string;
  schema: JsonObject;
  /** Static files carry Vary: Accept-Encoding; API answers are not compressed by the server. */
  staticFile: boolean;
  lastModified: boolean;
  invalid?: boolean;
  /** A path parameter naming nothing that exists: the 404 answered. */
  notFound?: JsonObject;
}

/** GET, HEAD and the OPTIONS preflight of one read-only resource. */
function readOnlyPath(endpoint: ReadEndpoint): PathItem {
  const conditional = [ref('parameters', 'IfNoneMatch'), ...(endpoint.lastModified ? [ref('parameters', 'IfModifiedSince')] : [])];
  const headers = { ...validatorHeaders(endpoint.lastModified), ...(endpoint.staticFile ? { Vary: ref('headers', 'Vary') } : {}), ...corsHeaders };
  const errors: Record<string, JsonObject> = endpoint.invalid ? { '400': ref('responses', 'ValidationError') } : {};
  const capitalised = endpoint.id[0]!.toUpperCase() + endpoint.id.slice(1);
  const pathParameters = (endpoint.parameters ?? []).filter((p) => p.in === 'path');
  return {
    get: {
      operationId: endpoint.id,
      tags: [endpoint.tag],
      summary: endpoint.summary,
      description: endpoint.description,
      parameters: [...(endpoint.parameters ?? []), ...conditional],
      responses: {
        '200': { description: 'OK.', headers, content: { [endpoint.mediaType]: { schema: endpoint.schema } } },
        '304': ref('responses', 'NotModified'),
        ...errors,
        ...(endpoint.notFound ? { '404': endpoint.notFound } : {}),
      },
    },
    head: {
      operationId: `head${capitalised}`,
      tags: [endpoint.tag],
      summary: `Headers of ${endpoint.path} without the body`,
      description: 'The status and headers a GET would answer (Content-Length included), without a body: a cheap way to read the validators.',
      parameters: [...(endpoint.parameters ?? []), ...conditional],
      responses: {
        '200': { description: 'OK, no body.', headers },
        '304': ref('responses', 'NotModified'),
        ...(endpoint.invalid ? { '400': { description: 'Invalid request (no body on HEAD).' } } : {}),
        ...(endpoint.notFound ? { '404': { description: 'Not found (no body on HEAD).', headers: endpoint.notFound.headers } } : {}),
      },
    },
    options: {
      operationId: `preflight${capitalised}`,
      tags: [endpoint.tag],
      summary: `CORS preflight for ${endpoint.path}`,
      description: 'Browsers send this before a cross-origin GET with extra headers. Answered for any origin.',
      ...(pathParameters.length > 0 ? { parameters: pathParameters } : {}),
      responses: { '204': ref('responses', 'Preflight') },
    },
  };
}

/* ---------------------------------------------------------------- document */

export function buildOpenApiDocument(site: string): OpenApiDocument {
  const origin = new URL(site).origin;
  const links = siteLinks(origin);
  const schemas = generateComponents(origin);
  const since = parameterSchema(sinceDate);
  const reviewId = parameterSchema(review.shape.id);
  const rpcError = (description: string) => ({
    description,
    headers: { 'Cache-Control': ref('headers', 'NoStore') },
    content: { [JSON_MEDIA]: { schema: ref('schemas', 'JsonRpcErrorResponse') } },
  });

  const paths: Record<string, PathItem> = {
    '/reviews.json': readOnlyPath({
      path: '/reviews.json',
      id: 'getReviewsDataset',
      tag: 'Datasets',
      summary: 'The full reviews dataset',
      description:
        'The business, its aggregate rating and every published review, newest first (date descending, then id ascending). A static file, rebuilt when content changes; also a WebSub topic.',
      mediaType: JSON_MEDIA,
      schema: ref('schemas', 'ReviewsDataset'),
      staticFile: true,
      lastModified: true,
    }),
    '/reviews/{id}.json': readOnlyPath({
      path: '/reviews/{id}.json',
      id: 'getReview',
      tag: 'Datasets',
      summary: 'One review',
      description:
        "One review's record exactly as /reviews.json holds it (no envelope): a static file per review, also the URI of the MCP review resource. Last-Modified is the review's own `updated`. A larger record is also served precompressed, and then carries Vary: Accept-Encoding.",
      parameters: [{ name: 'id', in: 'path', required: true, description: reviewId.description, schema: reviewId.schema, example: '2025-03-04-jane-d-leak-repair' }],
      mediaType: JSON_MEDIA,
      schema: ref('schemas', 'Review'),
      staticFile: false,
      lastModified: true,
      notFound: {
        description: 'No review has this id (or it was taken down): a JSON error, not cached.',
        headers: { 'Cache-Control': ref('headers', 'NoStore'), ...corsHeaders },
        content: { [JSON_MEDIA]: { schema: ref('schemas', 'MessageError'), example: { error: 'not_found', message: 'No resource lives at this path.' } } },
      },
    }),
    '/insights.json': readOnlyPath({
      path: '/insights.json',
      id: 'getInsightsDataset',
      tag: 'Datasets',
      summary: 'The insights dataset',
      description: 'Aspect-based sentiment computed at build time from the review text; entities (technicians, services, service areas); topics; FAQ; an editorial summary.',
      mediaType: JSON_MEDIA,
      schema: ref('schemas', 'Insights'),
      staticFile: true,
      lastModified: true,
    }),
    '/api/feed.json': readOnlyPath({
      path: '/api/feed.json',
      id: 'getJsonFeed',
      tag: 'Feeds',
      summary: `JSON Feed 1.1 of the ${FEED_SIZE} newest reviews`,
      description: `A JSON Feed v1.1 document (served as application/feed+json) with the ${FEED_SIZE} newest reviews. A WebSub topic: subscribe at the hub to get it pushed.`,
      mediaType: 'application/feed+json',
      schema: ref('schemas', 'JsonFeed'),
      staticFile: true,
      lastModified: true,
    }),
    '/feed.xml': readOnlyPath({
      path: '/feed.xml',
      id: 'getAtomFeed',
      tag: 'Feeds',
      summary: 'Atom feed of the newest reviews',
      description: `An Atom (RFC 4287) feed of the ${FEED_SIZE} newest reviews, with <link rel="hub"> and <link rel="self">. A WebSub topic.`,
      mediaType: 'application/atom+xml',
      schema: { type: 'string', description: 'An Atom feed document (XML).' },
      staticFile: true,
      lastModified: true,
    }),
    '/api/reviews/search': readOnlyPath({
      path: '/api/reviews/search',
      id: 'searchReviews',
      tag: 'Reviews',
      summary: 'Search reviews',
      description:
        'Reviews matching every filter given (filters combine with AND), newest first (date descending, then id ascending), at most `limit` of them; `total` counts all matches. An unknown technician or service matches nothing (200 with no reviews), it is not an error. Only the parameters listed exist: any other, a repeated or an empty one is a 400. The HTTP twin of the MCP tool search_reviews.',
      parameters: searchParameters(),
      mediaType: JSON_MEDIA,
      schema: ref('schemas', 'SearchResponse'),
      staticFile: false,
      lastModified: true,
      invalid: true,
    }),
    '/api/reviews/since/{date}': readOnlyPath({
      path: '/api/reviews/since/{date}',
      id: 'listReviewsSince',
      tag: 'Reviews',
      summary: 'Reviews on or after a date (incremental sync)',
      description:
        `The reviews dated on or after {date}, oldest first (date ascending, then id ascending), one page of at most ${SINCE_PAGE_SIZE} at a time. ` +
        'A page holds whole days: it ends before the first day that would not fit whole, so one day with more reviews than a page is a page of its own. ' +
        'To walk every page: while `has_more` is true, GET `next` (the path since/{next_date}, resolved against this URL); the next page starts right after this one, so each review comes exactly once. ' +
        'Made for incremental sync: keep each page\'s ETag and send it back in If-None-Match, a 304 means that page is unchanged; to pick up new reviews later, ask since/{the date of the newest review you hold} again and skip the ids you have. ' +
        'Last-Modified is the newest `updated` among all reviews on or after {date}, not only this page. A malformed or impossible date is a 400; the endpoint takes no query parameters.',
      parameters: [{ name: 'date', in: 'path', required: true, description: since.description, schema: since.schema, example: '2025-01-01' }],
      mediaType: JSON_MEDIA,
      schema: ref('schemas', 'SinceResponse'),
      staticFile: false,
      lastModified: true,
      invalid: true,
    }),
    '/openapi.json': readOnlyPath({
      path: '/openapi.json',
      id: 'getOpenApiDocument',
      tag: 'Meta',
      summary: 'This OpenAPI 3.1 document',
      description: 'The description of the whole interface, generated from the same schemas the server validates with. Human-readable at /api-reference.',
      mediaType: JSON_MEDIA,
      schema: { type: 'object', description: 'An OpenAPI 3.1.0 document.' },
      staticFile: true,
      lastModified: false,
    }),
    '/mcp': {
      summary: 'Model Context Protocol server (streamable HTTP, JSON responses)',
      description:
        'Read-only tools over the same data: get_business, search_reviews (the search parameters), get_review, reviews_since, get_insights; resources for reviews.json, insights.json and one review by id. No credentials. Requests without Origin (non-browser clients) are served; a browser Origin must be allowed, and Host must name this site (403 otherwise).',
      post: {
        operationId: 'mcpRequest',
        tags: ['MCP'],
        summary: 'Send a JSON-RPC 2.0 message',
        description:
          'Send `Content-Type: application/json` and `Accept: application/json, text/event-stream`. Start with `initialize` (protocolVersion 2025-06-18); its response carries Mcp-Session-Id, which every later request sends back. Answers are JSON, never an event stream. Batches (JSON arrays) are refused from protocol 2025-06-18 on. A tool called with bad arguments answers 200 with a result whose isError is true and whose text is the REST 400 body.',
        parameters: [ref('parameters', 'McpSessionId'), ref('parameters', 'McpProtocolVersion')],
        requestBody: {
          required: true,
          description: `A JSON-RPC 2.0 request or notification, at most ${MCP_MAX_BODY_BYTES} bytes.`,
          content: {
            [JSON_MEDIA]: {
              schema: ref('schemas', 'JsonRpcRequest'),
              examples: {
                initialize: {
                  summary: 'Open a session',
                  value: { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'example-client', version: '1.0.0' } } },
                },
                toolsList: { summary: 'List the tools', value: { jsonrpc: '2.0', id: 2, method: 'tools/list' } },
                searchReviews: { summary: 'Call search_reviews', value: { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'search_reviews', arguments: { rating: 5, limit: 3 } } } },
              },
            },
          },
        },
        responses: {
          '200': {
            description: 'The JSON-RPC response: a result, or a JSON-RPC error (-32601 unknown method, -32602 invalid params). Content-Type application/json, written by the MCP SDK.',
            headers: { 'Mcp-Session-Id': { ...ref('headers', 'McpSessionId'), description: 'Only on a successful initialize.' } as JsonObject, 'Cache-Control': ref('headers', 'NoStore') },
            content: { [JSON_MEDIA]: { schema: ref('schemas', 'JsonRpcResponse') } },
          },
          '202': { description: 'Accepted: a notification or response from the client; no body.' },
          '400': rpcError('Parse error (-32700), not a JSON-RPC message (-32600), a batch, a missing Mcp-Session-Id after initialize, or an unsupported MCP-Protocol-Version.'),
          '403': rpcError('Host is not this site, or the browser Origin is not allowed.'),
          '404': rpcError('Unknown, forged, expired or ended session (-32001): send a new initialize.'),
          '406': rpcError('Accept must list both application/json and text/event-stream.'),
          '413': rpcError(`The body is larger than ${MCP_MAX_BODY_BYTES} bytes.`),
          '415': rpcError('Content-Type must be application/json.'),
        },
      },
      delete: {
        operationId: 'mcpEndSession',
        tags: ['MCP'],
        summary: 'End a session',
        description: 'Ends the session named by Mcp-Session-Id on every instance; the id is then answered 404.',
        parameters: [{ ...PARAMETERS.McpSessionId, required: true }, ref('parameters', 'McpProtocolVersion')],
        responses: {
          '204': { description: 'Ended; no body.' },
          '400': rpcError('Mcp-Session-Id missing, or an unsupported MCP-Protocol-Version.'),
          '404': rpcError('Unknown, forged, expired or already ended session.'),
        },
      },
      get: {
        operationId: 'mcpGet',
        tags: ['MCP'],
        summary: 'Not offered: no server-sent event stream',
        description: 'This server sends no event stream, so GET is refused; use POST (DELETE ends a session).',
        responses: {
          '405': { ...rpcError('Method Not Allowed.'), headers: { Allow: { ...ref('headers', 'Allow'), example: 'POST, DELETE, OPTIONS' } as JsonObject, 'Cache-Control': ref('headers', 'NoStore') } },
        },
      },
      options: {
        operationId: 'mcpPreflight',
        tags: ['MCP'],
        summary: 'CORS preflight for /mcp',
        description: 'Allows POST and DELETE with Content-Type, Accept, Mcp-Session-Id, MCP-Protocol-Version and Authorization (which is ignored).',
        responses: { '204': { description: 'No body.', headers: { Allow: ref('headers', 'Allow'), 'Access-Control-Allow-Methods': ref('headers', 'AccessControlAllowMethods') } } },
      },
    },
    '/api/websub/hub': {
      summary: 'WebSub hub (W3C WebSub Recommendation)',
      description: `Topics: ${topicUrls(origin).join(', ')}. Any other topic is refused.`,
      post: {
        operationId: 'websubHub',
        tags: ['WebSub'],
        summary: 'Subscribe, unsubscribe or publish',
        description:
          'subscribe/unsubscribe: answered 202 at once; the hub then verifies intent asynchronously with a GET to the callback (see the callbacks). Only a 2xx whose body equals hub.challenge exactly verifies; redirects are not followed. A re-subscription replaces the lease and secret only once verified; a failed unsubscribe challenge leaves the subscription active. ' +
          'publish: the hub reads the topic as served and notifies subscribers only if its content changed since the last distribution; a repeated ping is harmless. Unknown extra parameters are ignored. ' +
          `Rate limits per client address: ${DEFAULT_HUB_CONFIG.subscribeRateLimit} subscribe/unsubscribe and ${DEFAULT_HUB_CONFIG.publishRateLimit} publish requests per ${DEFAULT_HUB_CONFIG.rateWindowSeconds} s.`,
        requestBody: {
          required: true,
          description: `Form-encoded, at most ${HUB_MAX_BODY_BYTES} bytes.`,
          content: {
            'application/x-www-form-urlencoded': {
              schema: ref('schemas', 'HubRequest'),
              examples: {
                subscribe: { summary: 'Subscribe to the Atom feed for 7 days', value: { 'hub.mode': 'subscribe', 'hub.callback': 'https://subscriber.example/callback', 'hub.topic': links.atomFeed, 'hub.lease_seconds': 604800 } },
                publish: { summary: 'Tell the hub a topic changed', value: { 'hub.mode': 'publish', 'hub.url': links.reviewsJson } },
              },
            },
          },
        },
        responses: {
          '202': {
            description: 'Accepted. For subscribe and unsubscribe the verification follows asynchronously: 202 says nothing about its outcome.',
            headers: { 'Cache-Control': ref('headers', 'NoStore'), ...corsHeaders },
            content: { [JSON_MEDIA]: { schema: ref('schemas', 'HubAccepted') } },
          },
          '400': {
            description:
              'Refused, nothing stored, nothing sent to the callback: a missing or invalid field, a plain-HTTP callback, credentials in the callback URL, a callback resolving to a loopback, private, link-local or metadata address, an unknown topic or mode, or a hub.secret of 200 bytes or more.',
            content: { [JSON_MEDIA]: { schema: ref('schemas', 'ErrorResponse') } },
          },
          '413': { description: `The body is larger than ${HUB_MAX_BODY_BYTES} bytes.`, content: { [JSON_MEDIA]: { schema: ref('schemas', 'MessageError') } } },
          '415': { description: 'The body is not application/x-www-form-urlencoded.', content: { [JSON_MEDIA]: { schema: ref('schemas', 'MessageError') } } },
          '429': {
            description: 'Too many requests from this address; wait Retry-After seconds.',
            headers: { 'Retry-After': ref('headers', 'RetryAfter') },
            content: { [JSON_MEDIA]: { schema: ref('schemas', 'MessageError') } },
          },
        },
        callbacks: hubCallbacks(),
      },
      options: {
        operationId: 'websubHubPreflight',
        tags: ['WebSub'],
        summary: 'CORS preflight for the hub',
        description: 'The hub takes form POSTs from any origin (W3C WebSub §5.1).',
        responses: { '204': { ...ref('responses', 'Preflight'), description: 'Allows POST from any origin. No body.' } as JsonObject },
      },
    },
  };

  return {
    openapi: OPENAPI_VERSION,
    info: {
      title: 'Verified roofing reviews',
      version: API_VERSION,
      summary: 'Read-only public data: verified customer reviews of one roofing business, with sentiment insights.',
      description:
        'Every endpoint is public and read-only: no key, no account, no token; an Authorization header is ignored. JSON field names are snake_case, dates are YYYY-MM-DD and instants RFC 3339 UTC. Every JSON body ends with a newline. Records may gain fields: ignore the ones you do not know.\n\n' +
        'Conditional GET: every data response carries a strong ETag (SHA-256 of the body) and, where it applies, Last-Modified. Send them back in If-None-Match / If-Modified-Since; an unchanged resource answers 304 with an empty body. If-None-Match wins when both are sent.\n\n' +
        'Errors: 400 `{ "error": "invalid_request", "issues": [{ "code", "path", "message" }] }`; other JSON errors `{ "error", "message" }`. Unknown /api/ paths are 404, wrong methods 405 with Allow.\n\n' +
        'CORS: every GET answers Access-Control-Allow-Origin: * and exposes ETag and Last-Modified; preflights are answered.',
    },
    servers: [{ url: origin, description: 'This site' }],
    tags: [
      { name: 'Datasets', description: 'Static JSON files with the whole data, rebuilt when content changes.' },
      { name: 'Feeds', description: 'The newest reviews as JSON Feed and Atom, both WebSub topics.' },
      { name: 'Reviews', description: 'Search and incremental sync over the same reviews.' },
      { name: 'MCP', description: 'Model Context Protocol server for AI assistants.' },
      { name: 'WebSub', description: 'Push notifications when the data changes.' },
      { name: 'Meta', description: 'This description.' },
    ],
    paths,
    components: { schemas, parameters: PARAMETERS, headers: HEADERS, responses: RESPONSES },
  };
}

function hubCallbacks(): JsonObject {
  const callback = '{$request.body#/hub.callback}';
  const query = (name: string, description: string, schema: JsonObject, required = true) => ({ name, in: 'query', required, description, schema });
  return {
    verification: {
      [callback]: {
        get: {
          operationId: 'websubVerifyIntent',
          summary: 'Verification of intent (§5.3) and denial (§5.2)',
          description:
            "The hub keeps the callback's own query string and appends these parameters. Answer 2xx with a body that is exactly hub.challenge to confirm. On hub.mode=denied (after the 3rd consecutive failed delivery, or a refused subscription) no answer is needed.",
          parameters: [
            query('hub.mode', 'What is verified.', { type: 'string', enum: ['subscribe', 'unsubscribe', 'denied'] }),
            query('hub.topic', 'The topic URL.', { type: 'string', format: 'uri' }),
            query('hub.challenge', 'Random, single use (not sent with denied).', { type: 'string' }, false),
            query('hub.lease_seconds', 'The lease granted (subscribe only).', { type: 'integer' }, false),
            query('hub.reason', 'Why (denied only).', { type: 'string' }, false),
          ],
          responses: {
            '200': { description: 'Confirmed when the body equals hub.challenge (any 2xx).', content: { 'text/plain': { schema: { type: 'string' } } } },
            default: { description: 'Any other status, a different body or a redirect: not verified (a re-subscription keeps the old state).' },
          },
        },
      },
    },
    notification: {
      [callback]: {
        post: {
          operationId: 'websubNotify',
          summary: 'Content distribution (§7)',
          description:
            'The full current content of the topic, once per content change and only after it is live. 3 consecutive failed attempts (a non-2xx, a redirect, a 10 s timeout or a connection error) end the subscription; a failed attempt is retried about 1 and 10 minutes later. 410 ends it at once.',
          parameters: [
            { name: 'Link', in: 'header', required: true, description: '<hub>; rel="hub", <topic>; rel="self"', schema: { type: 'string' } },
            { name: 'X-Hub-Signature', in: 'header', required: false, description: 'sha256=<hex HMAC-SHA256 of the body with hub.secret>; only when a secret was given.', schema: { type: 'string', pattern: '^sha256=[0-9a-f]{64}$' } },
          ],
          requestBody: {
            required: true,
            description: 'Content-Type is exactly what a GET of the topic answers, charset included.',
            content: {
              'application/atom+xml': { schema: { type: 'string' } },
              'application/feed+json': { schema: ref('schemas', 'JsonFeed') },
              [JSON_MEDIA]: { schema: ref('schemas', 'ReviewsDataset') },
            },
          },
          responses: {
            '200': { description: 'Any 2xx acknowledges and resets the failure count.' },
            '410': { description: 'Gone: the subscription ends at once.' },
            default: { description: 'A failed attempt.' },
          },
        },
      },
    },
  };
}

/** The document as served: pretty-printed (people read it too), ending with a newline. */
export function openApiJson(site: string): string {
  return `${JSON.stringify(buildOpenApiDocument(site), null, 2)}\n`;
}

/* ------------------------------------------- reading the document (reference page) */

/** Follows a local `$ref` (`#/components/...`) once; anything else is returned as it is. */
export function deref<T = JsonObject>(document: OpenApiDocument, value: unknown): T {
  let current = value as JsonObject;
  for (let hops = 0; hops < 5 && typeof current?.$ref === 'string'; hops++) {
    const { $ref, ...siblings } = current;
    const target = resolvePointer(document, $ref as string);
    if (target === undefined) throw new Error(`unresolved $ref ${String($ref)}`);
    current = { ...(target as JsonObject), ...siblings };
  }
  return current as T;
}

export function resolvePointer(document: unknown, pointer: string): unknown {
  if (!pointer.startsWith('#/')) return undefined;
  let node: unknown = document;
  for (const raw of pointer.slice(2).split('/')) {
    const key = raw.replaceAll('~1', '/').replaceAll('~0', '~');
    if (node === null || typeof node !== 'object' || !(key in node)) return undefined;
    node = (node as Record<string, unknown>)[key];
  }
  return node;
}

/** The name of a `#/components/schemas/X` reference, or undefined. */
export function schemaRefName(schema: unknown): string | undefined {
  const target = (schema as JsonObject | undefined)?.$ref;
  return typeof target === 'string' && target.startsWith(COMPONENT_REF) ? target.slice(COMPONENT_REF.length) : undefined;
}

/** A short type for people: `integer`, `string (date)`, `array of Review`, `string or null`. */
export function typeLabel(schema: JsonSchema | undefined): string {
  if (!schema) return 'any';
  const name = schemaRefName(schema);
  if (name) return name;
  if ('const' in schema) return `${JSON.stringify(schema.const)}`;
  if (Array.isArray(schema.enum)) return `one of ${schema.enum.map((v) => JSON.stringify(v)).join(', ')}`;
  const union = (schema.anyOf ?? schema.oneOf) as JsonSchema[] | undefined;
  if (Array.isArray(union)) return union.map((s) => typeLabel(s)).join(' or ');
  const types = Array.isArray(schema.type) ? (schema.type as string[]) : schema.type ? [schema.type as string] : [];
  const labels = types.map((type) => {
    if (type === 'array') return `array of ${typeLabel(schema.items as JsonSchema | undefined)}`;
    if (type === 'string' && typeof schema.format === 'string') return `string (${schema.format})`;
    if (type === 'object' && schema.additionalProperties && typeof schema.additionalProperties === 'object' && !schema.properties) return 'object (map)';
    return type;
  });
  return labels.length ? labels.join(' or ') : 'any';
}

/** Constraints for people: `1 to 5`, `default 20`, `at most 200 characters`, `pattern ...`. */
export function constraintLabels(schema: JsonSchema | undefined): string[] {
  if (!schema) return [];
  const out: string[] = [];
  const { minimum, maximum, minLength, maxLength, minItems, maxItems } = schema as Record<string, number | undefined>;
  if (minimum !== undefined && maximum !== undefined) out.push(`${minimum} to ${maximum}`);
  else if (minimum !== undefined) out.push(`at least ${minimum}`);
  else if (maximum !== undefined) out.push(`at most ${maximum}`);
  if (minLength !== undefined && maxLength !== undefined) out.push(`${minLength} to ${maxLength} characters`);
  else if (maxLength !== undefined) out.push(`at most ${maxLength} characters`);
  else if (minLength !== undefined) out.push(`at least ${minLength} characters`);
  if (minItems !== undefined) out.push(`at least ${minItems} items`);
  if (maxItems !== undefined) out.push(`at most ${maxItems} items`);
  if ('default' in schema) out.push(`default ${JSON.stringify(schema.default)}`);
  if (typeof schema.format === 'string' && schema.format === 'date') out.push('a real calendar date, YYYY-MM-DD');
  return out;
}

export interface OperationEntry {
  path: string;
  method: HttpMethod;
  operation: Operation;
}

/** The operations in document order. */
export function operationsOf(document: OpenApiDocument): OperationEntry[] {
  const out: OperationEntry[] = [];
  for (const [path, item] of Object.entries(document.paths)) {
    for (const method of HTTP_METHODS) {
      const operation = item[method];
      if (operation) out.push({ path, method, operation });
    }
  }
  return out;
}

const shellQuote = (text: string) => `'${text.replaceAll("'", `'\\''`)}'`;

/** curl lines for an operation, from the document's own examples. */
export function curlExamples(document: OpenApiDocument, entry: OperationEntry): Array<{ title: string; command: string }> {
  const base = document.servers[0]!.url;
  const { path, method, operation } = entry;
  const parameters = (operation.parameters ?? []).map((p) => deref(document, p));
  const pathParams = parameters.filter((p) => p.in === 'path');
  let url = base + path;
  for (const p of pathParams) url = url.replace(`{${String(p.name)}}`, encodeURIComponent(String(p.example ?? '')));
  const examples: Array<{ title: string; command: string }> = [];
  if (method === 'get') {
    const query = parameters.filter((p) => p.in === 'query' && p.example !== undefined);
    examples.push({ title: 'Request', command: `curl -i ${shellQuote(url)}` });
    if (query.length > 0) {
      const pick = query.filter((p) => ['min_rating', 'since', 'limit'].includes(String(p.name)));
      const qs = new URLSearchParams((pick.length ? pick : query.slice(0, 2)).map((p) => [String(p.name), String(p.example)])).toString();
      examples.push({ title: 'With filters (combined with AND)', command: `curl -i ${shellQuote(`${url}?${qs}`)}` });
    }
    if (operation.responses['304']) {
      examples.push({ title: 'Revalidate (304 when unchanged)', command: `curl -i -H ${shellQuote('If-None-Match: "<ETag from the last response>"')} ${shellQuote(url)}` });
    }
  } else if (method === 'post') {
    const content = (operation.requestBody?.content ?? {}) as Record<string, { examples?: Record<string, { summary?: string; value: unknown }> }>;
    for (const [mediaType, media] of Object.entries(content)) {
      for (const example of Object.values(media.examples ?? {})) {
        if (mediaType === JSON_MEDIA) {
          const headers = [`-H ${shellQuote('Content-Type: application/json')}`, `-H ${shellQuote('Accept: application/json, text/event-stream')}`];
          const value = example.value as { method?: string };
          if (value.method !== 'initialize') headers.push(`-H ${shellQuote('Mcp-Session-Id: <id from the initialize response>')}`);
          examples.push({ title: example.summary ?? 'Request', command: `curl -i -X POST ${headers.join(' ')} \\\n  --data ${shellQuote(JSON.stringify(example.value))} ${shellQuote(url)}` });
        } else {
          const fields = Object.entries(example.value as Record<string, unknown>).map(([k, v]) => `--data-urlencode ${shellQuote(`${k}=${String(v)}`)}`);
          examples.push({ title: example.summary ?? 'Request', command: `curl -i -X POST ${fields.join(' \\\n  ')} \\\n  ${shellQuote(url)}` });
        }
      }
    }
  } else if (method === 'delete') {
    examples.push({ title: 'Request', command: `curl -i -X DELETE -H ${shellQuote('Mcp-Session-Id: <id>')} ${shellQuote(url)}` });
  }
  return examples;
}

/** Splits a description on `backticks` so a page can show the quoted parts as code. */
export function textSegments(text: string): Array<{ text: string; code: boolean }> {
  return text.split('`').map((part, i) => ({ text: part, code: i % 2 === 1 })).filter((s) => s.text !== '');
}

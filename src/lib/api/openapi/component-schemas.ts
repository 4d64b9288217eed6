/**
 * components.schemas of the OpenAPI document, generated from the zod schemas
 * the server validates and serialises with, and the shapes with no schema
 * elsewhere (JSON Feed, the JSON-RPC envelope, the hub's form); parameter
 * schemas from the same zod fields.
 */
import { z } from 'zod';
import { siteLinks } from '../../feeds/links.ts';
import { FEED_SIZE } from '../../feeds/entries.ts';
import { JSON_FEED_VERSION } from '../../feeds/json-feed.ts';
import { errorResponse, messageError } from '../../http/errors-schema.ts';
import { insightsDataset } from '../../insights/schema.ts';
import { searchQuery } from '../../reviews/query.ts';
import { searchResponse, sinceResponse } from '../../reviews/responses.ts';
import { moderationLog, reviewsDataset, verification } from '../../reviews/schema.ts';
import { DEFAULT_HUB_CONFIG } from '../../websub/config.ts';
import { COMPONENT_REF, type JsonObject, type JsonSchema } from './document-types.ts';

const JSON_SCHEMA_TARGET = 'draft-2020-12';

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
  hubs: z
    .array(z.object({ type: z.literal('WebSub'), url: z.url() }))
    .describe('The WebSub hub that pushes this feed when it changes.'),
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
            verification,
          })
          .describe(
            'Extension (JSON Feed §Extensions): the review fields a feed reader would otherwise lose. The full record is in /reviews.json.',
          ),
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
  method: z
    .string()
    .describe(
      'initialize, tools/list, tools/call, resources/list, resources/read, ping, notifications/initialized, ...',
    ),
  params: z.record(z.string(), z.unknown()).optional(),
});
const jsonRpcErrorObject = z.object({ code: z.int(), message: z.string(), data: z.unknown().optional() });
const jsonRpcResponse = z.object({
  jsonrpc: z.literal('2.0'),
  id: jsonRpcId.nullable(),
  result: z.record(z.string(), z.unknown()).optional().describe('Present on success.'),
  error: jsonRpcErrorObject
    .optional()
    .describe(
      'Present on failure: -32700 parse error, -32600 invalid request, -32601 unknown method, -32602 invalid params.',
    ),
});
const jsonRpcErrorResponse = z.object({ jsonrpc: z.literal('2.0'), id: z.null(), error: jsonRpcErrorObject });

export const topicUrls = (site: string) => {
  const links = siteLinks(site);
  return [links.atomFeed, links.jsonFeed, links.reviewsJson, links.moderationJson] as const;
};

/** The hub's form body (W3C WebSub §5.1 and §7 publish). */
function hubForm(site: string) {
  const topic = z.enum(topicUrls(site));
  return z.object({
    'hub.mode': z.enum(['subscribe', 'unsubscribe', 'publish']),
    'hub.callback': z
      .url()
      .optional()
      .describe(
        "subscribe/unsubscribe: the subscriber's HTTPS URL. Plain HTTP, credentials in the URL and private, loopback, link-local or metadata addresses are refused.",
      ),
    'hub.topic': topic.optional().describe('subscribe/unsubscribe (required) and publish: one of the four topics.'),
    'hub.lease_seconds': z
      .int()
      .optional()
      .describe(
        `subscribe: the lease asked for, in seconds. Clamped to ${DEFAULT_HUB_CONFIG.leaseMinSeconds}..${DEFAULT_HUB_CONFIG.leaseMaxSeconds} (1 hour to 30 days); default ${DEFAULT_HUB_CONFIG.leaseDefaultSeconds} (10 days). The lease granted is the one sent in the verification request. Ignored on unsubscribe.`,
      ),
    'hub.secret': z
      .string()
      .max(199)
      .optional()
      .describe(
        'subscribe: a secret of fewer than 200 bytes; notifications then carry X-Hub-Signature: sha256=<hex HMAC-SHA256 of the body>.',
      ),
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
export function generateComponents(site: string): Record<string, JsonSchema> {
  const registry = z.registry<{ id: string }>();
  const add = (schema: z.ZodType, id = z.globalRegistry.get(schema)?.id) => {
    if (!id) throw new Error('a component schema needs an id');
    registry.add(schema, { id });
  };
  add(reviewsDataset);
  add(insightsDataset);
  add(moderationLog);
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
      for (const [sharedId, shared] of Object.entries((schema.$defs ?? {}) as Record<string, JsonSchema>))
        schemas[sharedId] = shared;
    } else schemas[id] = schema;
  }
  // The query as one object (the MCP tool search_reviews takes the same arguments): the input side, defaults included.
  const inputs = z.registry<{ id: string }>();
  inputs.add(searchQuery, { id: 'SearchQuery' });
  schemas.SearchQuery = z.toJSONSchema(inputs, {
    target: JSON_SCHEMA_TARGET,
    io: 'input',
    uri: (id) => `${COMPONENT_REF}${id}`,
  }).schemas.SearchQuery as JsonSchema;
  schemas.SearchQuery.description =
    'The search parameters as one object: the query string of GET /api/reviews/search and the arguments of the MCP tool search_reviews. Also refused: since after until, and rating below min_rating.';

  const sorted: Record<string, JsonSchema> = {};
  for (const id of Object.keys(schemas).sort()) sorted[id] = tidy(schemas[id]!) as JsonSchema;
  return sorted;
}

/**
 * Response records may gain fields (docs/contract.md: a field never changes
 * meaning, clients ignore the ones they do not know), so ordinary objects are left open: `additionalProperties: false`
 * stays only where the schema is strict.
 */
function openResponseObjects(ctx: { zodSchema: unknown; jsonSchema: JsonSchema }): void {
  const def = (ctx.zodSchema as { _zod?: { def?: { type?: string; catchall?: unknown } } })._zod?.def;
  if (def?.type === 'object' && def.catchall === undefined && ctx.jsonSchema.additionalProperties === false)
    delete ctx.jsonSchema.additionalProperties;
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
    if (
      (key === 'minimum' && inner === Number.MIN_SAFE_INTEGER) ||
      (key === 'maximum' && inner === Number.MAX_SAFE_INTEGER)
    )
      continue;
    if (key === '$ref' && typeof inner === 'string') {
      out.$ref = inner.replace(`${COMPONENT_REF}__shared#/$defs/`, COMPONENT_REF);
      continue;
    }
    out[key] = tidy(inner);
  }
  return out;
}

/** One field of a zod object as a parameter schema (input side: defaults shown, nothing retyped). */
export function parameterSchema(schema: z.ZodType): { schema: JsonSchema; description: string; required: boolean } {
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

export function searchParameters(): JsonObject[] {
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

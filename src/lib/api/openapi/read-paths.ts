/**
 * The read-only resources of the OpenAPI document: the datasets, feeds, the
 * search and since endpoints and the document itself, each with GET, HEAD and
 * the CORS preflight.
 */
import { FEED_SIZE } from '../../feeds/entries.ts';
import { SINCE_PAGE_SIZE, sinceDate } from '../../reviews/query.ts';
import { review } from '../../reviews/schema.ts';
import { DEFAULT_SEARCH_MISS_RULE } from '../../limits/search-misses.ts';
import { parameterSchema, searchParameters } from './component-schemas.ts';
import type { JsonObject, PathItem } from './document-types.ts';
import { corsHeaders, JSON_MEDIA, ref, validatorHeaders } from './http-components.ts';

interface ReadEndpoint {
  path: string;
  id: string;
  tag: string;
  summary: string;
  description: string;
  parameters?: JsonObject[];
  mediaType: string;
  schema: JsonObject;
  /** Sent in br or gzip as Accept-Encoding asks, with Vary: Accept-Encoding. */
  negotiated: boolean;
  lastModified: boolean;
  invalid?: boolean;
  /** A path parameter naming nothing that exists: the 404 answered. */
  notFound?: JsonObject;
}

/** GET, HEAD and the OPTIONS preflight of one read-only resource. */
function readOnlyPath(endpoint: ReadEndpoint): PathItem {
  const conditional = [
    ref('parameters', 'IfNoneMatch'),
    ...(endpoint.lastModified ? [ref('parameters', 'IfModifiedSince')] : []),
  ];
  const headers = {
    ...validatorHeaders(endpoint.lastModified),
    ...(endpoint.negotiated ? { Vary: ref('headers', 'Vary') } : {}),
    ...corsHeaders,
  };
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
      description:
        'The status and headers a GET would answer (Content-Length included), without a body: a cheap way to read the validators.',
      parameters: [...(endpoint.parameters ?? []), ...conditional],
      responses: {
        '200': { description: 'OK, no body.', headers },
        '304': ref('responses', 'NotModified'),
        ...(endpoint.invalid ? { '400': { description: 'Invalid request (no body on HEAD).' } } : {}),
        ...(endpoint.notFound
          ? { '404': { description: 'Not found (no body on HEAD).', headers: endpoint.notFound.headers } }
          : {}),
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

/** The read-only paths, in the document's order. */
/** The 429 of a search not answered before, once the client is over its limit (src/lib/limits/search-misses.ts). */
const SEARCH_RATE_LIMITED =
  `Too many searches not answered before from this client address (by default ${DEFAULT_SEARCH_MISS_RULE.perSecond} a second with a burst of ${DEFAULT_SEARCH_MISS_RULE.burst}: ` +
  'SEARCH_MISS_RATE_LIMIT, SEARCH_MISS_BURST). A search answered before is never limited.';

/** `item` with a 429 for a client over its limit: JSON on GET, no body on HEAD. */
function withRateLimit(when: string, item: PathItem): PathItem {
  const headers = {
    'Retry-After': ref('headers', 'RetryAfter'),
    'Cache-Control': ref('headers', 'NoStore'),
    ...corsHeaders,
  };
  const get = {
    description: `${when} Wait Retry-After seconds.`,
    headers,
    content: { [JSON_MEDIA]: { schema: ref('schemas', 'MessageError') } },
  };
  return {
    ...item,
    get: { ...item.get!, responses: { ...item.get!.responses, '429': get } },
    head: {
      ...item.head!,
      responses: { ...item.head!.responses, '429': { description: `${when} (No body on HEAD.)`, headers } },
    },
  };
}

export function readPaths(): Record<string, PathItem> {
  const since = parameterSchema(sinceDate);
  const reviewId = parameterSchema(review.shape.id);
  return {
    '/reviews.json': readOnlyPath({
      path: '/reviews.json',
      id: 'getReviewsDataset',
      tag: 'Datasets',
      summary: 'The full reviews dataset',
      description:
        'The business, its aggregate rating and every published review, newest first (date descending, then id ascending). A static file, rebuilt when content changes; also a WebSub topic.',
      mediaType: JSON_MEDIA,
      schema: ref('schemas', 'ReviewsDataset'),
      negotiated: true,
      lastModified: true,
    }),
    '/reviews/{id}.json': readOnlyPath({
      path: '/reviews/{id}.json',
      id: 'getReview',
      tag: 'Datasets',
      summary: 'One review',
      description:
        "One review's record exactly as /reviews.json holds it (no envelope): a static file per review, also the URI of the MCP review resource. Last-Modified is the review's own `updated`. A larger record is also served precompressed, and then carries Vary: Accept-Encoding.",
      parameters: [
        {
          name: 'id',
          in: 'path',
          required: true,
          description: reviewId.description,
          schema: reviewId.schema,
          example: '2025-03-04-jane-d-leak-repair',
        },
      ],
      mediaType: JSON_MEDIA,
      schema: ref('schemas', 'Review'),
      negotiated: false,
      lastModified: true,
      notFound: {
        description: 'No review has this id (or it was taken down): a JSON error, not cached.',
        headers: { 'Cache-Control': ref('headers', 'NoStore'), ...corsHeaders },
        content: {
          [JSON_MEDIA]: {
            schema: ref('schemas', 'MessageError'),
            example: { error: 'not_found', message: 'No resource lives at this path.' },
          },
        },
      },
    }),
    '/insights.json': readOnlyPath({
      path: '/insights.json',
      id: 'getInsightsDataset',
      tag: 'Datasets',
      summary: 'The insights dataset',
      description:
        'Aspect-based sentiment computed at build time from the review text; entities (technicians, services, service areas); topics; FAQ; an editorial summary.',
      mediaType: JSON_MEDIA,
      schema: ref('schemas', 'Insights'),
      negotiated: true,
      lastModified: true,
    }),
    '/moderation.json': readOnlyPath({
      path: '/moderation.json',
      id: 'getModerationLog',
      tag: 'Datasets',
      summary: 'The moderation log',
      description:
        'Every review taken down (id, rating, day, reason from a fixed list; never its text or author) and the counts: published reviews by verification method, removals by reason and by rating. How reviews are handled: /about-reviews.',
      mediaType: JSON_MEDIA,
      schema: ref('schemas', 'ModerationLog'),
      // Small until a business has removed many reviews: then compressed, and Vary is sent.
      negotiated: false,
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
      negotiated: true,
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
      negotiated: true,
      lastModified: true,
    }),
    '/api/reviews/search': withRateLimit(
      SEARCH_RATE_LIMITED,
      readOnlyPath({
        path: '/api/reviews/search',
        id: 'searchReviews',
        tag: 'Reviews',
        summary: 'Search reviews',
        description:
          'Reviews matching every filter given (filters combine with AND), newest first (date descending, then id ascending), at most `limit` of them; `total` counts all matches. An unknown technician or service matches nothing (200 with no reviews), it is not an error. Only the parameters listed exist: any other, a repeated or an empty one is a 400. The HTTP twin of the MCP tool search_reviews.',
        parameters: searchParameters(),
        mediaType: JSON_MEDIA,
        schema: ref('schemas', 'SearchResponse'),
        negotiated: true,
        lastModified: true,
        invalid: true,
      }),
    ),
    '/api/reviews/since/{date}': readOnlyPath({
      path: '/api/reviews/since/{date}',
      id: 'listReviewsSince',
      tag: 'Reviews',
      summary: 'Reviews on or after a date (incremental sync)',
      description:
        `The reviews dated on or after {date}, oldest first (date ascending, then id ascending), one page of at most ${SINCE_PAGE_SIZE} at a time. ` +
        'A page holds whole days: it ends before the first day that would not fit whole, so one day with more reviews than a page is a page of its own. ' +
        'To walk every page: while `has_more` is true, GET `next` (the path since/{next_date}, resolved against this URL); the next page starts right after this one, so each review comes exactly once. ' +
        "Made for incremental sync: keep each page's ETag and send it back in If-None-Match, a 304 means that page is unchanged; to pick up new reviews later, ask since/{the date of the newest review you hold} again and skip the ids you have. " +
        'Last-Modified is the newest `updated` among all reviews on or after {date}, not only this page. A malformed or impossible date is a 400; the endpoint takes no query parameters.',
      parameters: [
        {
          name: 'date',
          in: 'path',
          required: true,
          description: since.description,
          schema: since.schema,
          example: '2025-01-01',
        },
      ],
      mediaType: JSON_MEDIA,
      schema: ref('schemas', 'SinceResponse'),
      negotiated: true,
      lastModified: true,
      invalid: true,
    }),
    '/openapi.json': readOnlyPath({
      path: '/openapi.json',
      id: 'getOpenApiDocument',
      tag: 'Meta',
      summary: 'This OpenAPI 3.1 document',
      description:
        'The description of the whole interface, generated from the same schemas the server validates with. Human-readable at /api-reference.',
      mediaType: JSON_MEDIA,
      schema: { type: 'object', description: 'An OpenAPI 3.1.0 document.' },
      negotiated: true,
      lastModified: false,
    }),
  };
}

/** The WebSub hub in the OpenAPI document: its form POST, the preflight, and the callbacks it makes to subscribers. */
import { siteLinks } from '../../feeds/links.ts';
import { DEFAULT_HUB_CONFIG, HUB_MAX_BODY_BYTES } from '../../websub/config.ts';
import { topicUrls } from './component-schemas.ts';
import type { JsonObject, PathItem } from './document-types.ts';
import { corsHeaders, JSON_MEDIA, ref } from './http-components.ts';

export function websubHubPath(origin: string): PathItem {
  const links = siteLinks(origin);
  return {
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
              subscribe: {
                summary: 'Subscribe to the Atom feed for 7 days',
                value: {
                  'hub.mode': 'subscribe',
                  'hub.callback': 'https://subscriber.example/callback',
                  'hub.topic': links.atomFeed,
                  'hub.lease_seconds': 604800,
                },
              },
              publish: {
                summary: 'Tell the hub a topic changed',
                value: { 'hub.mode': 'publish', 'hub.url': links.reviewsJson },
              },
            },
          },
        },
      },
      responses: {
        '202': {
          description:
            'Accepted. For subscribe and unsubscribe the verification follows asynchronously: 202 says nothing about its outcome.',
          headers: { 'Cache-Control': ref('headers', 'NoStore'), ...corsHeaders },
          content: { [JSON_MEDIA]: { schema: ref('schemas', 'HubAccepted') } },
        },
        '400': {
          description:
            'Refused, nothing stored, nothing sent to the callback: a missing or invalid field, a plain-HTTP callback, credentials in the callback URL, a callback resolving to a loopback, private, link-local or metadata address, an unknown topic or mode, or a hub.secret of 200 bytes or more.',
          content: { [JSON_MEDIA]: { schema: ref('schemas', 'ErrorResponse') } },
        },
        '413': {
          description: `The body is larger than ${HUB_MAX_BODY_BYTES} bytes.`,
          content: { [JSON_MEDIA]: { schema: ref('schemas', 'MessageError') } },
        },
        '415': {
          description: 'The body is not application/x-www-form-urlencoded.',
          content: { [JSON_MEDIA]: { schema: ref('schemas', 'MessageError') } },
        },
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
      responses: {
        '204': { ...ref('responses', 'Preflight'), description: 'Allows POST from any origin. No body.' } as JsonObject,
      },
    },
  };
}

function hubCallbacks(): JsonObject {
  const callback = '{$request.body#/hub.callback}';
  const query = (name: string, description: string, schema: JsonObject, required = true) => ({
    name,
    in: 'query',
    required,
    description,
    schema,
  });
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
            '200': {
              description: 'Confirmed when the body equals hub.challenge (any 2xx).',
              content: { 'text/plain': { schema: { type: 'string' } } },
            },
            default: {
              description:
                'Any other status, a different body or a redirect: not verified (a re-subscription keeps the old state).',
            },
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
            {
              name: 'Link',
              in: 'header',
              required: true,
              description: '<hub>; rel="hub", <topic>; rel="self"',
              schema: { type: 'string' },
            },
            {
              name: 'X-Hub-Signature',
              in: 'header',
              required: false,
              description: 'sha256=<hex HMAC-SHA256 of the body with hub.secret>; only when a secret was given.',
              schema: { type: 'string', pattern: '^sha256=[0-9a-f]{64}$' },
            },
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

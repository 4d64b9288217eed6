/**
 * The error bodies of json.ts as zod schemas, for the OpenAPI document and the
 * tests: `{ error: "invalid_request", issues }` for a 400, `{ error, message }`
 * for the other JSON errors (404, 405, 413, 429). The shapes are those of
 * invalidRequest, notFound, methodNotAllowed and payloadTooLarge.
 */
import { z } from 'zod';

export const issue = z
  .object({
    code: z
      .string()
      .describe(
        'What kind of problem: a zod issue code such as invalid_type, too_small, too_big, invalid_format, unrecognized_keys or custom.',
      ),
    path: z
      .array(z.union([z.string(), z.int()]))
      .describe('Where the problem is: the parameter name first (["limit"], ["date"], ["hub.callback"]).'),
    message: z.string().describe('A sentence for people, naming the parameter. Not meant to be parsed.'),
  })
  .meta({ id: 'Issue' });

export const errorResponse = z
  .object({
    error: z.literal('invalid_request'),
    issues: z.array(issue).min(1).describe('Every problem found in the request, not only the first.'),
  })
  .meta({
    id: 'ErrorResponse',
    description:
      'The body of every 400: the request was refused before any data was read, and each issue names the parameter at fault.',
    examples: [
      {
        error: 'invalid_request',
        issues: [{ code: 'too_big', path: ['limit'], message: 'limit: limit must be from 1 to 100' }],
      },
    ],
  });

export const messageError = z
  .object({
    error: z
      .string()
      .describe('A stable machine-readable code: not_found, method_not_allowed, payload_too_large, rate_limited, ...'),
    message: z.string().describe('A sentence for people. Not meant to be parsed.'),
  })
  .meta({
    id: 'MessageError',
    description: 'The body of JSON errors other than 400 (404, 405, 413, 429).',
    examples: [{ error: 'method_not_allowed', message: 'Use GET, HEAD, OPTIONS.' }],
  });

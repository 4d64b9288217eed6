/**
 * The search query: one zod schema that is the single source for HTTP
 * validation (GET /api/reviews/search), the MCP tool's input schema, the
 * OpenAPI document and the types. HTTP values arrive as strings and are
 * turned into numbers strictly (see fromSearchParams) before this schema sees
 * them, so both front doors validate the same thing the same way. Beside it,
 * the interface's sizes: query length, search limit, since page.
 */
import { z } from 'zod';
import { validate, type Issue, type Parsed } from '../http/issues.ts';
import { isoDate } from './schema.ts';

export const MAX_QUERY_LENGTH = 200;
export const DEFAULT_SEARCH_LIMIT = 20;
export const MAX_SEARCH_LIMIT = 100;
/** Reviews per since page: about 570 KiB of JSON with generated reviews, where a serverless answer may be 4.5 MB. */
export const SINCE_PAGE_SIZE = 1000;

const nonEmpty = (what: string) => z.string().min(1, `${what} must not be empty`);

export const searchQuery = z
  .strictObject({
    rating: z
      .int('rating must be a whole number from 1 to 5')
      .min(1, 'rating must be from 1 to 5')
      .max(5, 'rating must be from 1 to 5')
      .optional()
      .describe('Exact star rating, 1 to 5.'),
    min_rating: z
      .number('min_rating must be a number from 1 to 5')
      .min(1, 'min_rating must be from 1 to 5')
      .max(5, 'min_rating must be from 1 to 5')
      .optional()
      .describe('Minimum star rating, inclusive, 1 to 5.'),
    since: isoDate.optional().describe('Only reviews dated on or after this day (YYYY-MM-DD).'),
    until: isoDate.optional().describe('Only reviews dated on or before this day (YYYY-MM-DD).'),
    query: nonEmpty('query')
      .max(MAX_QUERY_LENGTH, `query may be at most ${MAX_QUERY_LENGTH} characters`)
      .optional()
      .describe('Case-insensitive substring of the review text or title (Unicode NFKC).'),
    mentions_technician: nonEmpty('mentions_technician')
      .max(200)
      .optional()
      .describe("A technician's full name or id, case-insensitive. An unknown name matches nothing."),
    mentions_service: nonEmpty('mentions_service')
      .max(200)
      .optional()
      .describe('A service id (see the business). An unknown id matches nothing.'),
    limit: z
      .int('limit must be a whole number from 1 to 100')
      .min(1, `limit must be from 1 to ${MAX_SEARCH_LIMIT}`)
      .max(MAX_SEARCH_LIMIT, `limit must be from 1 to ${MAX_SEARCH_LIMIT}`)
      .default(DEFAULT_SEARCH_LIMIT)
      .describe(`Maximum number of reviews returned, 1 to ${MAX_SEARCH_LIMIT}; default ${DEFAULT_SEARCH_LIMIT}.`),
  })
  .superRefine((q, ctx) => {
    if (q.since !== undefined && q.until !== undefined && q.since > q.until) {
      ctx.addIssue({ code: 'custom', path: ['since'], message: `since (${q.since}) is after until (${q.until})` });
    }
    if (q.rating !== undefined && q.min_rating !== undefined && q.rating < q.min_rating) {
      ctx.addIssue({
        code: 'custom',
        path: ['rating'],
        message: `rating ${q.rating} contradicts min_rating ${q.min_rating}: no review can match`,
      });
    }
  })
  .meta({ id: 'SearchQuery' });

export type SearchQuery = z.output<typeof searchQuery>;
const SEARCH_PARAMETERS = Object.keys(searchQuery.shape) as (keyof SearchQuery)[];

/** The date of GET /api/reviews/since/{date} and of the reviews_since tool. */
export const sinceDate = isoDate.describe('Reviews dated on or after this day (YYYY-MM-DD) are returned.');

/*
 * Which text becomes a number: plain decimal literals only. Anything else
 * (`1e0`, `0x1`, `+1`, ` 1`, `1.0` for an integer) stays a string, which the
 * schema refuses naming the parameter; Number() alone would take all of these.
 * A leading minus is kept so `limit=-1` is refused as out of range, not as text.
 */
const INTEGER_TEXT = /^-?\d+$/;
const DECIMAL_TEXT = /^-?\d+(?:\.\d+)?$/;
const NUMERIC: ReadonlyMap<string, RegExp> = new Map([
  ['rating', INTEGER_TEXT],
  ['min_rating', DECIMAL_TEXT],
  ['limit', INTEGER_TEXT],
]);

/**
 * URL query → SearchQuery. Unknown, repeated and empty parameters are refused
 * here, each naming the parameter; everything else is the schema's to judge.
 */
export function fromSearchParams(params: URLSearchParams): Parsed<SearchQuery> {
  const issues: Issue[] = [];
  const input: Record<string, unknown> = {};
  const seen = new Map<string, number>();
  for (const [name, value] of params) {
    seen.set(name, (seen.get(name) ?? 0) + 1);
    if (!(SEARCH_PARAMETERS as string[]).includes(name)) continue;
    if (value === '' || seen.get(name)! > 1) {
      delete input[name];
      continue;
    }
    input[name] = NUMERIC.get(name)?.test(value) ? Number(value) : value;
  }
  for (const [name, times] of seen) {
    if (!(SEARCH_PARAMETERS as string[]).includes(name)) {
      issues.push({
        code: 'unrecognized_keys',
        path: [name],
        message: `unknown parameter "${name}"; the parameters are ${SEARCH_PARAMETERS.join(', ')}`,
      });
    } else if (times > 1) {
      issues.push({ code: 'custom', path: [name], message: `${name} is given ${times} times; give it once` });
    } else if (params.get(name) === '') {
      issues.push({ code: 'too_small', path: [name], message: `${name} must not be empty` });
    }
  }
  const validated = validate(searchQuery, input);
  if (issues.length === 0) return validated;
  // Report the schema's findings on the other parameters too: one round trip shows every problem.
  return { ok: false, issues: [...issues, ...(validated.ok ? [] : validated.issues)] };
}

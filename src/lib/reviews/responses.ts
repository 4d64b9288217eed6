/** The bodies of search and since (one schema each: types, OpenAPI, MCP output schemas). */
import { z } from 'zod';
import { isoDate, review } from './schema.ts';
import { SINCE_PAGE_SIZE } from './query.ts';

export const searchResponse = z
  .object({
    total: z.int().min(0).describe('Matching reviews before the limit.'),
    count: z.int().min(0).describe('Reviews in this response.'),
    limit: z.int().min(1).max(100),
    reviews: z.array(review).describe('Newest first: date descending, then id ascending.'),
  })
  .meta({ id: 'SearchResponse' });

export const sinceResponse = z
  .object({
    since: isoDate.describe('The date asked for.'),
    count: z
      .int()
      .min(0)
      .describe(
        `Reviews in this page: at most ${SINCE_PAGE_SIZE}, unless one day alone has more (that day is then one page).`,
      ),
    has_more: z.boolean().describe('Whether reviews after this page exist; then fetch `next`.'),
    next: z
      .string()
      .nullable()
      .describe(
        'The next page, a URL path to resolve against this one: since/{next_date}. Pages hold whole days, so the next page starts exactly after this one and every review comes once. Null on the last page.',
      ),
    next_date: isoDate
      .nullable()
      .describe('The date of the next page (the `date` to ask for next), or null on the last page.'),
    reviews: z.array(review).describe('Oldest first: date ascending, then id ascending.'),
  })
  .meta({
    id: 'SinceResponse',
    description: `One page of the reviews dated on or after \`since\`, oldest first. Walk: ask since/{date}; while \`has_more\`, ask \`next\` (since/{next_date}). To sync later, ask since/{the date of the newest review you hold} again and skip the ids you already have.`,
  });

export type SearchResponse = z.infer<typeof searchResponse>;
export type SinceResponse = z.infer<typeof sinceResponse>;

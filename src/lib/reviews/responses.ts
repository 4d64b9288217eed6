/** The bodies of search and since (one schema each: types, OpenAPI, MCP output schemas). */
import { z } from 'zod';
import { isoDate, review } from './schema.ts';

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
    since: isoDate,
    count: z.int().min(0),
    reviews: z.array(review).describe('Oldest first: date ascending, then id ascending.'),
  })
  .meta({ id: 'SinceResponse' });

export type SearchResponse = z.infer<typeof searchResponse>;
export type SinceResponse = z.infer<typeof sinceResponse>;

import { z } from 'zod';
import { DEFAULT_SEARCH_LIMIT, searchQuery } from '../../reviews/query.ts';
import type { Review } from '../../reviews/schema.ts';
import { searchRecords } from '../../reviews/search.ts';
import { defineTool, result, UNTRUSTED_TEXT } from '../definitions.ts';

/**
 * `search` with the shape OpenAI's connectors and deep research ask for by name:
 * a `query` in, `{ results: [{ id, title, url }] }` out. It is the search of
 * search_reviews and GET /api/reviews/search for `{ query }` alone, with their
 * defaults: the same reviews, newest first.
 */
export const connectorSearch = defineTool({
  name: 'search',
  title: 'Search reviews (connectors)',
  description:
    'Finds verified customer reviews whose text or title contains `query` (case-insensitive), newest first, at most ' +
    `${DEFAULT_SEARCH_LIMIT}. Returns {"results": [{"id", "title", "url"}]}: pass an id to fetch for the whole review; ` +
    "`url` is the review's page. The same search as search_reviews with only `query` (search_reviews also filters by " +
    'rating, dates, technician and service). Example: {"query": "leak"}. ' +
    UNTRUSTED_TEXT,
  input: z.strictObject({
    query: searchQuery.shape.query.unwrap().describe('Text to look for in the reviews, a word or a phrase.'),
  }),
  output: z.object({
    results: z.array(
      z.object({
        id: z.string().describe('The review id: what fetch takes.'),
        title: z.string().describe("The review's title, or its rating, author and date when it has none."),
        url: z.string().describe("The review's page."),
      }),
    ),
  }),
  run(context, { query }) {
    const { reviews } = searchRecords(context.index(), searchQuery.parse({ query }));
    return result({
      results: reviews.map((review) => ({
        id: review.id,
        title: titleOf(review),
        url: context.links.review(review.id),
      })),
    });
  },
});

/** A review's title; for one without, what a list of citations can show. */
export function titleOf(review: Pick<Review, 'title' | 'rating' | 'author' | 'date'>): string {
  return review.title ?? `${review.rating}-star review by ${review.author.name}, ${review.date}`;
}

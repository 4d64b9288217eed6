import { z } from 'zod';
import { review } from '../../reviews/schema.ts';
import { defineTool, errorResult, result, UNTRUSTED_TEXT } from '../definitions.ts';

export const getReview = defineTool({
  name: 'get_review',
  title: 'Get one review',
  description:
    'Returns one review by its id (the `id` in search results, also the slug of its /reviews/{id} page), with its text, rating, ' +
    'date, technicians, services, service area and the business reply. Example: {"id": "2024-05-03-maria-g-full-replacement"}. ' +
    UNTRUSTED_TEXT,
  input: z.strictObject({
    id: z
      .string('id must be a review id (a string)')
      .min(1, 'id must not be empty')
      .max(200, 'id may be at most 200 characters')
      .describe('The review id.'),
  }),
  output: z.object({ review }),
  scans: false,
  run(context, { id }) {
    const index = context.index();
    const position = index.byId(id);
    if (position === undefined)
      return errorResult({
        error: 'not_found',
        message: `No review has the id ${JSON.stringify(id)}. Ids come from search_reviews or reviews_since results.`,
      });
    return result({ review: index.records.review(position) });
  },
});

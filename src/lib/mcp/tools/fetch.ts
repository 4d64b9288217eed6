import { z } from 'zod';
import { defineTool, errorResult, result, UNTRUSTED_TEXT } from '../definitions.ts';
import { getReview } from './get-review.ts';
import { titleOf } from './search.ts';

/**
 * `fetch` with the shape OpenAI's connectors and deep research ask for by name:
 * an `id` from `search` in, `{ id, title, text, url, metadata }` out. The review
 * is the record get_review and /reviews/{id}.json answer; `metadata` holds its
 * other fields as strings, the only kind of value that shape promises.
 */
export const connectorFetch = defineTool({
  name: 'fetch',
  title: 'Fetch one review (connectors)',
  description:
    'Returns one review by the `id` a search result gave: {"id", "title", "text", "url", "metadata"}, `text` the ' +
    "customer's words, `url` the review's page, `metadata` its rating (1-5), date, author, technicians, services, " +
    'service area, source and the business\'s public reply, if any. Example: {"id": "2024-05-03-maria-g-full-replacement"}. ' +
    UNTRUSTED_TEXT,
  input: getReview.input,
  // One review by its id: no scan, so outside the search-miss limit like get_review.
  scans: false,
  output: z.object({
    id: z.string(),
    title: z.string(),
    text: z.string(),
    url: z.string(),
    metadata: z.record(z.string(), z.string()),
  }),
  run(context, { id }) {
    const index = context.index();
    const position = index.byId(id);
    if (position === undefined)
      return errorResult({
        error: 'not_found',
        message: `No review has the id ${JSON.stringify(id)}. Ids come from search results.`,
      });
    const review = index.records.review(position);
    return result({
      id: review.id,
      title: titleOf(review),
      text: review.text,
      url: context.links.review(review.id),
      metadata: {
        rating: String(review.rating),
        date: review.date,
        author: review.author.name,
        technicians: review.technicians.join(', '),
        services: review.services.join(', '),
        service_area: review.service_area ?? '',
        source: review.source,
        ...(review.response ? { reply: review.response.text, reply_date: review.response.date } : {}),
        json: context.links.reviewJson(review.id),
      },
    });
  },
});

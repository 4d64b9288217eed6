/**
 * Every tool of /mcp, registered here and nowhere else: one file per tool,
 * each read-only over the same dataset, index and query schemas as the REST
 * API, so a model and an HTTP client get the same reviews for the same question.
 */
import type { McpContent, Tool } from '../definitions.ts';
import { connectorFetch } from './fetch.ts';
import { getBusiness } from './get-business.ts';
import { getInsights } from './get-insights.ts';
import { getReview } from './get-review.ts';
import { reviewsSince } from './reviews-since.ts';
import { connectorSearch } from './search.ts';
import { searchReviews } from './search-reviews.ts';

/**
 * The tools of this content, in the order tools/list shows them; get_insights once insights.json exists.
 * `search` and `fetch` are the pair OpenAI's connectors and deep research look for by name.
 */
export function toolsFor(content: McpContent): Tool<any>[] {
  return [
    getBusiness,
    searchReviews,
    getReview,
    reviewsSince,
    ...(content.insights ? [getInsights] : []),
    connectorSearch,
    connectorFetch,
  ];
}

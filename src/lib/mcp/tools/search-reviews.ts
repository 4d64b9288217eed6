import { searchQuery } from '../../reviews/query.ts';
import { searchResponse } from '../../reviews/responses.ts';
import { searchRecords } from '../../reviews/search.ts';
import { defineTool, result, UNTRUSTED_TEXT } from '../definitions.ts';

export const searchReviews = defineTool({
  name: 'search_reviews',
  title: 'Search reviews',
  description:
    'Finds verified reviews, newest first. All filters combine with AND; every argument is optional. ' +
    '`rating` exact stars (1-5), `min_rating` at least that many, `since`/`until` dates YYYY-MM-DD (inclusive), ' +
    '`query` case-insensitive text substring, `mentions_technician` a technician name or id, `mentions_service` a service id ' +
    '(see get_business), `limit` 1-100 (default 20). Returns `total` matches before the limit, `count` returned, and the reviews. ' +
    'Same arguments and answers as GET /api/reviews/search. ' +
    'Examples: {"rating": 1, "limit": 5}; {"min_rating": 4, "mentions_service": "gutters"}; {"query": "leak", "since": "2024-01-01"}. ' +
    UNTRUSTED_TEXT,
  input: searchQuery,
  output: searchResponse,
  run: (context, args) => result(searchRecords(context.index(), args)),
});

import { z } from 'zod';
import { SINCE_PAGE_SIZE, sinceDate } from '../../reviews/query.ts';
import { sinceResponse } from '../../reviews/responses.ts';
import { reviewsSince as since } from '../../reviews/since.ts';
import { defineTool, result, UNTRUSTED_TEXT } from '../definitions.ts';

export const reviewsSince = defineTool({
  name: 'reviews_since',
  title: 'Reviews since a date',
  description:
    `Returns the reviews dated on or after \`date\` (YYYY-MM-DD), oldest first, one page at a time (whole days, at most ${SINCE_PAGE_SIZE} reviews unless one day has more): the incremental-sync listing, the same as ` +
    'GET /api/reviews/since/{date}. While `has_more` is true, call again with `date` = `next_date` for the next page; each review comes once. Example: {"date": "2025-01-01"}. For a bounded or filtered list use search_reviews. ' +
    UNTRUSTED_TEXT,
  input: z.strictObject({ date: sinceDate }),
  output: sinceResponse,
  scans: false,
  run: (context, { date }) => result(since(context.index(), date)),
});

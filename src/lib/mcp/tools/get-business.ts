import { z } from 'zod';
import { aggregateRating, business, moderationCounts } from '../../reviews/schema.ts';
import { defineTool, result } from '../definitions.ts';

export const getBusiness = defineTool({
  name: 'get_business',
  title: 'Business information',
  description:
    'Returns the business: name, contact details, address, licence numbers, and the lists of services, service areas and ' +
    'technicians with their ids, plus the aggregate rating (average, count, distribution by stars) and the moderation counts ' +
    '(published reviews by verification method, removals by reason and by rating; the log is the moderation.json resource). ' +
    'Call it first to learn the service ids and technician names that search_reviews accepts. Takes no arguments: {}.',
  input: z.strictObject({}),
  output: z.object({ business, aggregate_rating: aggregateRating, moderation: moderationCounts.optional() }),
  scans: false,
  run: ({ content: { dataset, moderation } }) =>
    result({
      business: dataset.business,
      aggregate_rating: dataset.aggregate_rating,
      ...(moderation ? { moderation: moderation.counts } : {}),
    }),
});

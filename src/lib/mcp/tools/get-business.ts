import { z } from 'zod';
import { aggregateRating, business } from '../../reviews/schema.ts';
import { defineTool, result } from '../definitions.ts';

export const getBusiness = defineTool({
  name: 'get_business',
  title: 'Business information',
  description:
    'Returns the business: name, contact details, address, licence numbers, and the lists of services, service areas and ' +
    'technicians with their ids, plus the aggregate rating (average, count, distribution by stars). ' +
    'Call it first to learn the service ids and technician names that search_reviews accepts. Takes no arguments: {}.',
  input: z.strictObject({}),
  output: z.object({ business, aggregate_rating: aggregateRating }),
  scans: false,
  run: ({ content: { dataset } }) => result({ business: dataset.business, aggregate_rating: dataset.aggregate_rating }),
});

/**
 * The insights.json document: one zod schema for the whole of it. The types,
 * the JSON Schema in OpenAPI and the MCP output schema all derive from
 * `insightsDataset`; nothing is written twice.
 */
import { z } from 'zod';
import { utcInstant } from '../reviews/schema.ts';
import { ASPECT_IDS } from './lexicon.ts';

const score = z.number().min(-1).max(1);
const count = z.int().min(0);

export const aspectId = z.enum(ASPECT_IDS).describe('Aspect of roofing work, from the documented lexicon.');

export const aspectExample = z.object({
  review_id: z.string().describe('The review the sentence comes from.'),
  sentence: z.string().describe('The sentence that carried the aspect, as written.'),
  polarity: z.enum(['positive', 'neutral', 'negative']),
  score,
  terms: z.array(z.string()).describe('The words that named the aspect.'),
});

export const aspectSummary = z.object({
  id: aspectId,
  label: z.string(),
  mentions: count.describe('Sentences that name the aspect.'),
  positive: count,
  neutral: count,
  negative: count,
  score: score.describe('Mean sentence score over the mentions, -1..1.'),
  examples: z.array(aspectExample).describe('The strongest positive and negative sentences, newest first within each.'),
});

export const entityAspectScore = z.object({
  id: aspectId,
  mentions: count,
  score,
});

export const entity = z.object({
  id: z.string(),
  name: z.string(),
  review_count: count,
  average_rating: z.number().min(0).max(5).describe('Mean star rating of the reviews that name the entity (2 decimals); 0 when none.'),
  sentiment: score.describe('Mean sentence score of those reviews, -1..1.'),
  aspects: z.array(entityAspectScore).describe('Per-aspect scores within those reviews, in lexicon order.'),
});

export const topic = z.object({
  id: z.string(),
  label: z.string(),
  keywords: z.array(z.string()).describe('The keyphrase and the longer phrases that contain it.'),
  review_count: count,
  share: z.number().min(0).max(1).describe('review_count / all reviews, 3 decimals.'),
  by_year: z.record(z.string().regex(/^\d{4}$/), count).describe('Reviews per year of their date.'),
});

export const faqEntry = z.object({ question: z.string(), answer: z.string() });

export const summary = z.object({
  text: z.string().describe('Editorial summary, plain text paragraphs separated by blank lines.'),
  highlights: z.array(z.string()),
  updated: utcInstant,
  figures: z.record(z.string(), z.number()).describe('The figures the text and highlights quote, as filled into their placeholders at build time (rounded as quoted).'),
});

export const insightsDataset = z
  .object({
    updated: utcInstant.describe('The newest of the reviews dataset and the editorial files; never the build clock.'),
    review_count: count,
    aspects: z.array(aspectSummary),
    entities: z.object({
      technicians: z.array(entity),
      services: z.array(entity),
      service_areas: z.array(entity),
    }),
    topics: z.array(topic),
    faq: z.array(faqEntry),
    summary,
  })
  .meta({ id: 'Insights' });

export type InsightsDataset = z.infer<typeof insightsDataset>;
export type AspectSummary = z.infer<typeof aspectSummary>;
export type Entity = z.infer<typeof entity>;
export type Topic = z.infer<typeof topic>;
export type FaqEntry = z.infer<typeof faqEntry>;
export type Summary = z.infer<typeof summary>;

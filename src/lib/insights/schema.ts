/**
 * The insights.json document: one zod schema for the whole of it. The types,
 * the JSON Schema in OpenAPI and the MCP output schema all derive from
 * `insightsDataset`; nothing is written twice.
 */
import { z } from 'zod';
import { isoDate, moderationCounts, utcInstant } from '../reviews/schema.ts';
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
  average_rating: z
    .number()
    .min(0)
    .max(5)
    .describe('Mean star rating of the reviews that name the entity (2 decimals); 0 when none.'),
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

const rating = z.number().min(1).max(5);

export const aspectCounts = z.object({ positive: count, neutral: count, negative: count });

const trendFigures = {
  review_count: count,
  average_rating: rating.nullable().describe('Mean star rating (2 decimals); null when the period has no reviews.'),
  reply_count: count.describe('Reviews of the period with an owner reply.'),
  reply_rate: z
    .number()
    .min(0)
    .max(1)
    .nullable()
    .describe("Share of the period's reviews with an owner reply (3 decimals); null when it has no reviews."),
  median_reply_days: z
    .number()
    .min(0)
    .nullable()
    .describe(
      "Median whole days from a review's date to its reply's date (the mean of the two middle ones for an even count); null when no review of the period has a reply.",
    ),
};

export const trendPeriod = z.object({
  ...trendFigures,
  distribution: z
    .object({ '1': count, '2': count, '3': count, '4': count, '5': count })
    .describe('Reviews by star rating.'),
  aspects: z
    .record(aspectId, aspectCounts)
    .describe("Sentences naming each aspect in the period's reviews, by polarity; every aspect listed."),
});

export const trendMonth = z.object({
  month: z
    .string()
    .regex(/^\d{4}-(0[1-9]|1[0-2])$/)
    .describe('Calendar month, YYYY-MM.'),
  ...trendPeriod.shape,
});
export const trendQuarter = z.object({
  quarter: z
    .string()
    .regex(/^\d{4}-Q[1-4]$/)
    .describe('Calendar quarter, YYYY-Qn.'),
  ...trendPeriod.shape,
});

export const recentWindow = z.object({
  from: isoDate.describe('First day of the window.'),
  to: isoDate.describe('Last day of the window (included).'),
  ...trendFigures,
  aspects: z
    .record(
      aspectId,
      aspectCounts.extend({
        mentions: count,
        score: score.nullable().describe('Mean sentence score (3 decimals); null without mentions.'),
      }),
    )
    .describe("Each aspect's sentences in the window; every aspect listed."),
});

export const trends = z
  .object({
    months: z
      .array(trendMonth)
      .describe(
        "Every calendar month from the first review's to the newest's, oldest first; months without reviews included.",
      ),
    quarters: z
      .array(trendQuarter)
      .describe("Every calendar quarter from the first review's to the newest's, oldest first."),
    recent: z
      .object({
        days: z.literal(90).describe('Length of each window.'),
        current: recentWindow.describe("The newest review's day and the 89 days before it."),
        previous: recentWindow.describe('The 90 days before the current window.'),
        change: z
          .object({
            review_count: z.int(),
            average_rating: z.number().nullable(),
            reply_rate: z.number().nullable(),
            median_reply_days: z.number().nullable(),
            aspects: z.record(aspectId, z.number().nullable()).describe("Change of each aspect's score."),
          })
          .describe('current minus previous; null where either is null.'),
      })
      .nullable()
      .describe(
        'The last 90 days against the 90 before, dated by the newest review (never the build clock); null without reviews.',
      ),
  })
  .describe('The reviews over time.');

export const faqEntry = z.object({ question: z.string(), answer: z.string() });

export const summary = z.object({
  text: z.string().describe('Editorial summary, plain text paragraphs separated by blank lines.'),
  highlights: z.array(z.string()),
  updated: utcInstant,
  figures: z
    .record(z.string(), z.number())
    .describe(
      'The figures the text and highlights quote, as filled into their placeholders at build time (rounded as quoted).',
    ),
});

export const insightsDataset = z
  .object({
    updated: utcInstant.describe('The newest of the reviews dataset and the editorial files; never the build clock.'),
    review_count: count,
    aspects: z.array(aspectSummary),
    entities: z.object({
      technicians: z
        .array(entity)
        .describe(
          "Each technician's reviews, rating and sentiment; empty when the business keeps them private (business.technician_ratings).",
        ),
      services: z.array(entity),
      service_areas: z.array(entity),
    }),
    topics: z.array(topic),
    trends,
    faq: z.array(faqEntry),
    summary,
    moderation: moderationCounts
      .optional()
      .describe(
        'Published reviews by verification method, removals by reason and by rating (the log itself: /moderation.json); in every built insights.json.',
      ),
  })
  .meta({ id: 'Insights' });

export type InsightsDataset = z.infer<typeof insightsDataset>;
export type AspectSummary = z.infer<typeof aspectSummary>;
export type Entity = z.infer<typeof entity>;
export type InsightTopic = z.infer<typeof topic>;
export type FaqEntry = z.infer<typeof faqEntry>;
export type Summary = z.infer<typeof summary>;
export type Trends = z.infer<typeof trends>;
export type TrendPeriod = z.infer<typeof trendPeriod>;
export type RecentWindow = z.infer<typeof recentWindow>;
export type AspectCounts = z.infer<typeof aspectCounts>;

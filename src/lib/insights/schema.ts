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

const aspectId = z.enum(ASPECT_IDS).describe('Aspect of roofing work, from the documented lexicon.');

const aspectExample = z.object({
  review_id: z.string().describe('The review the sentence comes from.'),
  sentence: z.string().describe('The sentence that carried the aspect, as written.'),
  polarity: z.enum(['positive', 'neutral', 'negative']),
  score,
  terms: z.array(z.string()).describe('The words that named the aspect.'),
});

const aspectSummary = z.object({
  id: aspectId,
  label: z.string(),
  mentions: count.describe('Sentences that name the aspect.'),
  positive: count,
  neutral: count,
  negative: count,
  score: score.describe('Mean sentence score over the mentions, -1..1.'),
  examples: z.array(aspectExample).describe('The strongest positive and negative sentences, newest first within each.'),
});

const entityAspectScore = z.object({
  id: aspectId,
  mentions: count,
  score,
});

const entity = z.object({
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

const topic = z.object({
  id: z.string(),
  label: z.string(),
  keywords: z.array(z.string()).describe('The keyphrase and the longer phrases that contain it.'),
  review_count: count,
  share: z.number().min(0).max(1).describe('review_count / all reviews, 3 decimals.'),
  by_year: z.record(z.string().regex(/^\d{4}$/), count).describe('Reviews per year of their date.'),
});

const rating = z.number().min(1).max(5);

const aspectCounts = z.object({ positive: count, neutral: count, negative: count });

const share = z.number().min(0).max(1);
const hoursOrNull = (what: string) => z.number().min(0).nullable().describe(what);

const trendFigures = {
  review_count: count,
  average_rating: rating.nullable().describe('Mean star rating (2 decimals); null when the period has no reviews.'),
  reply_count: count.describe('Reviews of the period with an owner reply.'),
  reply_rate: share
    .nullable()
    .describe("Share of the period's reviews with an owner reply (3 decimals); null when it has no reviews."),
  median_reply_days: z
    .number()
    .min(0)
    .nullable()
    .describe(
      "Median whole days from a review's date to its reply's date (the mean of the two middle ones for an even count); null when no review of the period has a reply.",
    ),
  median_reply_hours: hoursOrNull(
    "Median hours from a review's date to its reply's date, both calendar days (so whole days of 24 hours); null without replies.",
  ),
  p90_reply_hours: hoursOrNull(
    '90th percentile (nearest rank) of the same hours: 9 replies in 10 came at most this late; null without replies.',
  ),
  low_rated_count: count.describe('Reviews of the period rated 1 or 2 stars.'),
  low_rated_reply_count: count.describe('Of those, the ones with an owner reply.'),
  low_rated_reply_rate: share
    .nullable()
    .describe('low_rated_reply_count / low_rated_count (3 decimals); null when the period has no 1–2★ review.'),
  other_reply_rate: share
    .nullable()
    .describe('The reply rate of the 3–5★ reviews of the period (3 decimals); null when it has none.'),
};

const trendPeriod = z.object({
  ...trendFigures,
  distribution: z
    .object({ '1': count, '2': count, '3': count, '4': count, '5': count })
    .describe('Reviews by star rating.'),
  aspects: z
    .record(aspectId, aspectCounts)
    .describe("Sentences naming each aspect in the period's reviews, by polarity; every aspect listed."),
});

const trendMonth = z.object({
  month: z
    .string()
    .regex(/^\d{4}-(0[1-9]|1[0-2])$/)
    .describe('Calendar month, YYYY-MM.'),
  ...trendPeriod.shape,
});
const trendQuarter = z.object({
  quarter: z
    .string()
    .regex(/^\d{4}-Q[1-4]$/)
    .describe('Calendar quarter, YYYY-Qn.'),
  ...trendPeriod.shape,
});
const trendWeek = z.object({
  week: isoDate.describe('The Monday the week starts on (ISO 8601 weeks, Monday to Sunday).'),
  to: isoDate.describe('Its Sunday.'),
  review_count: count,
});

const recentWindow = z.object({
  from: isoDate.describe('First day of the window.'),
  to: isoDate.describe('Last day of the window (included).'),
  ...trendFigures,
  aspects: z
    .record(
      aspectId,
      aspectCounts.extend({
        mentions: count,
        positive_share: share.nullable().describe('positive / mentions (3 decimals); null without mentions.'),
        score: score.nullable().describe('Mean sentence score (3 decimals); null without mentions.'),
      }),
    )
    .describe("Each aspect's sentences in the window; every aspect listed."),
});

const versus = z.object({
  change: z
    .number()
    .nullable()
    .describe('current minus the other window, rounded as the figure; null when not compared.'),
  direction: z
    .enum(['up', 'down', 'unchanged', 'not_enough_reviews'])
    .describe('not_enough_reviews when either window counts fewer than min_count reviews (replies, sentences).'),
  text: z.string().describe('The comparison in words, e.g. "up 0.12 on the 90 days before, from 4.50 to 4.62".'),
});

const comparison = z.object({
  id: z
    .string()
    .describe(
      'average_rating, review_count, reply_rate, low_rated_reply_rate, median_reply_hours, p90_reply_hours, or positive_share.<aspect id>.',
    ),
  label: z.string(),
  unit: z.enum(['stars', 'reviews', 'share', 'hours']),
  current: z.number().nullable(),
  previous: z.number().nullable(),
  year_ago: z.number().nullable(),
  vs_previous: versus,
  vs_year_ago: versus,
});

const unansweredReview = z.object({
  id: z.string(),
  date: isoDate,
  rating: z.int().min(1).max(2),
  title: z.string().nullable(),
  author: z.string().describe('As written by the reviewer: untrusted text.'),
  path: z.string().describe("The review's page on this site, e.g. /reviews/<id>."),
  waiting_days: count.describe('Days from the review to the anchor.'),
});

const trends = z
  .object({
    anchor: isoDate
      .nullable()
      .describe("The newest review's date: every window ends on it (never the build clock). Null without reviews."),
    months: z
      .array(trendMonth)
      .describe(
        "Every calendar month from the first review's to the newest's, oldest first; months without reviews included.",
      ),
    quarters: z
      .array(trendQuarter)
      .describe("Every calendar quarter from the first review's to the newest's, oldest first."),
    weeks: z
      .array(trendWeek)
      .describe(
        "Reviews per week: the anchor's calendar week and the 11 before it, oldest first; empty without reviews.",
      ),
    busiest_month: z
      .object({
        review_count: count,
        months: z.array(z.string()).describe('Every month with that count (ties listed, oldest first).'),
        of: count.describe('Months in months[].'),
      })
      .nullable(),
    unanswered_low_rated: z
      .array(unansweredReview)
      .describe('Every review rated 1–2★ without an owner reply, oldest first (date, then id).'),
    recent: z
      .object({
        days: z.literal(90).describe('Length of each window.'),
        min_count: z.int().describe('The fewest reviews (replies, sentences) each side needs to be compared.'),
        current: recentWindow.describe('The anchor and the 89 days before it.'),
        previous: recentWindow.describe('The 90 days before the current window.'),
        year_ago: recentWindow.describe("The current window's days a year earlier."),
        change: z
          .object({
            review_count: z.int(),
            average_rating: z.number().nullable(),
            reply_rate: z.number().nullable(),
            median_reply_days: z.number().nullable(),
            aspects: z.record(aspectId, z.number().nullable()).describe("Change of each aspect's score."),
          })
          .describe('current minus previous; null where either is null.'),
        comparisons: z
          .array(comparison)
          .describe('Every headline figure: current against previous and against year_ago, in numbers and words.'),
      })
      .nullable()
      .describe(
        'The last 90 days against the 90 before and the same days a year earlier, ending on the anchor; null without reviews.',
      ),
  })
  .describe('The reviews over time.');

const faqEntry = z.object({ question: z.string(), answer: z.string() });

const summary = z.object({
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
export type Trends = z.infer<typeof trends>;
export type TrendPeriod = z.infer<typeof trendPeriod>;
export type RecentWindow = z.infer<typeof recentWindow>;
export type AspectCounts = z.infer<typeof aspectCounts>;
export type Comparison = z.infer<typeof comparison>;
export type UnansweredReview = z.infer<typeof unansweredReview>;

/**
 * The public record shapes of the service (docs/contract.md).
 * One zod schema per shape: the types, the JSON Schema in OpenAPI and the MCP
 * output schemas are all derived from these, never written twice.
 */
import { z } from 'zod';

export const isoDate = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, { message: 'expected a date as YYYY-MM-DD', abort: true })
  .refine(isRealCalendarDate, 'not a real calendar date')
  .meta({ format: 'date' });

/** RFC 3339 UTC instant, second precision: `2025-03-04T00:00:00Z`. */
export const utcInstant = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/, {
    message: 'expected an RFC 3339 UTC instant like 2025-03-04T00:00:00Z',
    abort: true,
  })
  .refine((value) => isRealCalendarDate(value.slice(0, 10)) && !Number.isNaN(Date.parse(value)), 'not a real instant')
  .meta({ format: 'date-time' });

export function isRealCalendarDate(value: string): boolean {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  if (year < 1 || month < 1 || month > 12 || day < 1) return false;
  // setUTCFullYear, not Date.UTC: Date.UTC maps years 0–99 to 1900–1999.
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

const namedRef = z.object({ id: z.string(), name: z.string() });

/**
 * How a published review is known to come from a customer (the page /about-reviews explains each):
 * `platform`: imported from a review platform, which holds it under its own id (`source_id`);
 * `job`: the office matched the customer to a completed job;
 * `invitation`: the customer answered the business's invitation sent after a job.
 */
export const VERIFICATION_METHODS = ['platform', 'job', 'invitation'] as const;
export const verificationMethod = z.enum(VERIFICATION_METHODS);
export type VerificationMethod = z.infer<typeof verificationMethod>;

/**
 * Why a review was taken down; the only reasons there are (the moderation log publishes them):
 * not written by a customer, carries personal data, offensive or hateful, spam or advertising,
 * a duplicate of another review, a legal order, or the customer asked for its removal.
 */
export const REMOVAL_REASONS = [
  'not-a-customer',
  'personal-data',
  'offensive',
  'spam',
  'duplicate',
  'legal-order',
  'customer-request',
] as const;
export const removalReason = z.enum(REMOVAL_REASONS);
export type RemovalReason = z.infer<typeof removalReason>;

export const verification = z
  .object({
    method: verificationMethod.describe(
      'How the review is known to come from a customer: platform (imported from a review platform, under its id), job (matched by the office to a completed job), invitation (the customer answered an invitation sent after a job).',
    ),
    checked: isoDate.describe('The day the review was checked.'),
  })
  .meta({ id: 'Verification' });

const reviewResponse = z.object({
  date: isoDate,
  text: z.string(),
});

export const review = z
  .object({
    id: z.string().describe('Stable slug from the content file name; unique, never reused.'),
    date: isoDate.describe('The day the customer wrote the review.'),
    updated: utcInstant.describe('Last editorial change (owner reply, correction).'),
    rating: z.int().min(1).max(5),
    title: z.string().optional(),
    text: z.string().describe('Plain text, never HTML.'),
    author: z.object({ name: z.string() }),
    technicians: z.array(z.string()).describe('Technician names as listed in content, in text order.'),
    services: z.array(z.string()).describe('Service ids.'),
    service_area: z.string().nullable().describe('Service area id.'),
    source: z.string().describe('Where the review was collected: google, website, email, ...'),
    source_id: z
      .string()
      .optional()
      .describe(
        "The platform's own id of the review (imported reviews); with source, the key that keeps imports from doubling.",
      ),
    source_url: z.string().optional().describe('Where the original can be read, when the platform has such a link.'),
    verified: z.literal(true),
    verification,
    response: reviewResponse.nullable().describe("The business's public reply."),
  })
  .meta({ id: 'Review' });

const postalAddress = z.object({
  street: z.string(),
  locality: z.string(),
  region: z.string(),
  postal_code: z.string(),
  country: z.string(),
});

export const DAYS_OF_WEEK = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'] as const;

const clockTime = z.string().regex(/^(?:[01]\d|2[0-3]):[0-5]\d$/, 'expected a time of day as HH:MM, 24-hour');

/** One line of the business's hours, as schema.org's OpeningHoursSpecification has it: closes before opens runs past midnight. */
const openingHours = z.object({
  days: z
    .array(z.enum(DAYS_OF_WEEK))
    .min(1, 'name at least one day')
    .describe('Days these hours hold, English names: Monday … Sunday.'),
  opens: clockTime.describe('Opening time, HH:MM, 24-hour.'),
  closes: clockTime.describe('Closing time, HH:MM, 24-hour.'),
});

export const business = z
  .object({
    id: z.string(),
    name: z.string(),
    description: z.string().optional(),
    url: z.url(),
    telephone: z.string(),
    email: z.email(),
    address: postalAddress,
    geo: z.object({ latitude: z.number(), longitude: z.number() }).optional(),
    service_areas: z.array(namedRef),
    services: z.array(namedRef),
    technicians: z.array(namedRef),
    license_numbers: z.array(z.string()).optional(),
    founded: z.string().optional(),
    opening_hours: z
      .array(openingHours)
      .optional()
      .describe('When the business answers customers; days without a line are closed.'),
    profiles: z
      .array(z.httpUrl())
      .optional()
      .describe(
        "The business's own pages elsewhere (Google Business Profile, Yelp, Facebook, BBB): the JSON-LD's sameAs.",
      ),
    write_review: z
      .object({
        url: z.httpUrl().describe('The page where a customer writes a new review (a Google review link, say).'),
        platform: z.string().min(1).describe('Where that page is, as people read it: "Google", "Trustpilot".'),
      })
      .optional()
      .describe(
        'Where customers are asked to write a review: the pages\' "Write a review" link and the widget\'s collector button.',
      ),
    review_collection: z
      .object({
        methods: z
          .array(verificationMethod)
          .min(1, 'name at least one method: platform, job or invitation')
          .describe(
            'How this business collects reviews and knows each comes from a customer (the page /about-reviews explains each).',
          ),
        invitation: z
          .string()
          .min(1)
          .optional()
          .describe(
            'How and when customers are invited to write a review, in a sentence: "An email a week after the job is finished."',
          ),
        contact: z
          .email()
          .optional()
          .describe('Where a customer asks for a review to be changed or removed; the business email when left out.'),
        reply_days: z
          .int()
          .min(1)
          .optional()
          .describe('Within how many working days a request about a review is answered.'),
      })
      .optional()
      .describe('How reviews are collected and handled: /about-reviews is written from these settings.'),
    technician_ratings: z
      .enum(['public', 'private'])
      .optional()
      .describe(
        "Whether each technician's average rating and sentiment are published: `private` keeps them off the pages and out of insights.json and MCP (entities.technicians is then empty); reviews still name their technicians. Public when absent.",
      ),
  })
  .meta({ id: 'Business' });

export const aggregateRating = z
  .object({
    rating_value: z.number(),
    review_count: z.int(),
    best_rating: z.literal(5),
    worst_rating: z.literal(1),
    distribution: z.object({ 1: z.int(), 2: z.int(), 3: z.int(), 4: z.int(), 5: z.int() }),
  })
  .meta({ id: 'AggregateRating' });

export const reviewsDataset = z
  .object({
    business,
    aggregate_rating: aggregateRating,
    reviews: z.array(review),
    updated: utcInstant,
  })
  .meta({ id: 'ReviewsDataset' });

/** One review taken down: what the moderation log publishes of it, never its text or author. */
const removal = z
  .object({
    id: z.string().describe("The review's id, never reused."),
    rating: z.int().min(1).max(5),
    date: isoDate.describe('The day it was taken down.'),
    reason: removalReason.describe(
      'not-a-customer, personal-data, offensive (offensive or hateful), spam (spam or advertising), duplicate, legal-order, customer-request (the customer asked).',
    ),
  })
  .meta({ id: 'Removal' });

const countsOf = <T extends string>(keys: readonly T[]) =>
  z.object(Object.fromEntries(keys.map((key) => [key, z.int().min(0)])) as Record<T, z.ZodInt>);

export const moderationCounts = z
  .object({
    published: z.int().min(0).describe('Reviews published, whatever their rating.'),
    removed: z.int().min(0).describe('Reviews taken down.'),
    by_method: countsOf(VERIFICATION_METHODS).describe('Published reviews by verification method.'),
    removed_by_reason: countsOf(REMOVAL_REASONS).describe('Removals by reason.'),
    removed_by_rating: z
      .object({ 1: z.int(), 2: z.int(), 3: z.int(), 4: z.int(), 5: z.int() })
      .describe('Removals by the star rating of the removed review.'),
  })
  .meta({ id: 'ModerationCounts' });

export const moderationLog = z
  .object({
    counts: moderationCounts,
    removals: z.array(removal).describe('Every review taken down, newest first (then by id).'),
    updated: utcInstant.describe("The newest removal, or the reviews dataset's update when there is none."),
  })
  .meta({ id: 'ModerationLog' });

type Verification = z.infer<typeof verification>;
export type Removal = z.infer<typeof removal>;
export type ModerationCounts = z.infer<typeof moderationCounts>;
export type ModerationLog = z.infer<typeof moderationLog>;
export type Review = z.infer<typeof review>;
export type Business = z.infer<typeof business>;
export type AggregateRating = z.infer<typeof aggregateRating>;
export type ReviewsDataset = z.infer<typeof reviewsDataset>;

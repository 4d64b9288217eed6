/**
 * The editors' contract: what a review file's frontmatter and the business file
 * may contain. Kept apart from the published record (reviews/schema.ts) because
 * editors write friendlier forms (an author as a plain name, technicians by name
 * or id, `updated` omitted) that the loader normalises.
 */
import { z } from 'zod';
import { isoDate, removalReason, utcInstant, verificationMethod, type Business } from '../reviews/schema.ts';

export const REVIEW_ID = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/** Limits that keep one file from swelling every page that quotes it (docs/editing.md). */
const TEXT_LIMITS = { text: 10_000, reply: 5_000, title: 200, name: 100, source: 50, sourceId: 200, sourceUrl: 2_000, jobRef: 100 } as const;

// C0 and C1 control characters other than tab and line breaks: invisible, and unsafe to pass on.
const CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/;

/** Where the first control character is, in words an editor can act on; undefined when none. */
function controlCharacterProblem(value: string): string | undefined {
  const match = CONTROL.exec(value);
  if (!match) return undefined;
  const code = match[0].codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0');
  return `contains an invisible control character (U+${code}) at character ${match.index + 1}: retype that part, or paste it as plain text`;
}

/** What is wrong with a review's text (below the frontmatter); undefined when nothing. The loader and the /admin form share it. */
export function reviewTextProblem(text: string): string | undefined {
  if (text === '') return 'the review text is empty: write it below the closing ---';
  if (text.length > TEXT_LIMITS.text) return `the review text is too long (${text.length} characters): at most ${TEXT_LIMITS.text}`;
  const control = controlCharacterProblem(text);
  return control && `the review text ${control}`;
}

const nonEmpty = z.string().trim().min(1, 'must not be empty');

/** Text published as is: not empty, at most `max` characters, no control characters. */
function published(max: number) {
  return nonEmpty.max(max, `is too long: at most ${max} characters`).superRefine((value, context) => {
    const problem = controlCharacterProblem(value);
    if (problem) context.addIssue({ code: 'custom', message: problem });
  });
}

// The descriptions are what editors read: hover text in VS Code (through the JSON
// Schema made from this one) and hints under the fields of the /admin form.
export const reviewFrontmatter = z
  .strictObject({
    date: isoDate.describe('The day the customer wrote the review, as YYYY-MM-DD.'),
    updated: utcInstant
      .optional()
      .describe('When a reply, a correction or a late publication happened, in UTC (2025-05-23T18:05:00Z). Leave it out unless you change an older review; a reply alone sets it to the reply date.'),
    rating: z.int('must be a whole number from 1 to 5').min(1, 'must be from 1 to 5').max(5, 'must be from 1 to 5').describe('Stars, a whole number from 1 to 5.'),
    title: published(TEXT_LIMITS.title).optional().describe('A short headline, if the customer gave one.'),
    author: z.union([published(TEXT_LIMITS.name), z.strictObject({ name: published(TEXT_LIMITS.name) })]).describe('The customer as shown publicly, e.g. "Linda K."'),
    technicians: z.array(nonEmpty).default([]).describe('Who did the job: names (or ids) from business.yaml.'),
    services: z.array(nonEmpty).describe('Service ids from business.yaml: at least one, unless the review was imported (source_id) and names none.'),
    service_area: nonEmpty.nullable().optional().describe('A service area id from business.yaml.'),
    source: published(TEXT_LIMITS.source).describe('Where the customer wrote it: google, yelp, nextdoor, website, email…'),
    source_id: published(TEXT_LIMITS.sourceId)
      .optional()
      .describe("The platform's own id of the review (set by `npm run import`): with source, what keeps an import from doubling it. Leave it as it is."),
    source_url: z
      .url({ protocol: /^https?$/, error: 'must be an http(s) address' })
      .max(TEXT_LIMITS.sourceUrl, `is too long: at most ${TEXT_LIMITS.sourceUrl} characters`)
      .optional()
      .describe('Where the original review can be read on its platform, if it has such a link.'),
    // false takes a review down (or keeps a draft out) without deleting its file: it is
    // still checked, its id stays taken, and nothing of it is published.
    verified: z
      .boolean('must be true (published) or false (not published): only verified reviews are published')
      .describe('true publishes the review; false takes it off the site (then say why under removal).'),
    verification: z
      .strictObject({
        method: verificationMethod.describe(
          'How you know a customer wrote it: platform (imported from Google or another platform, with its source_id), job (you matched the customer to a completed job), invitation (the customer answered our invitation after a job).',
        ),
        checked: isoDate.describe('The day you checked it, as YYYY-MM-DD.'),
        job: published(TEXT_LIMITS.jobRef)
          .optional()
          .describe('Your job or invoice number, for the office only: never published.'),
      })
      .optional()
      .describe('How the review is known to be real. Required for a published review.'),
    removal: z
      .strictObject({
        reason: removalReason.describe(
          'Why it was taken down: not-a-customer, personal-data, offensive, spam, duplicate, legal-order or customer-request.',
        ),
        date: isoDate.describe('The day it was taken down, as YYYY-MM-DD.'),
      })
      .optional()
      .describe('Only with verified: false: why and when the review was taken down. Published in the moderation log (never its text or author).'),
    response: z
      .strictObject({ date: isoDate.describe('The day the business replied.'), text: published(TEXT_LIMITS.reply).describe('The reply, plain text.') })
      .nullable()
      .optional()
      .describe("The business's public reply, if any."),
  })
  // A customer writing on a platform need not name the job: an imported review (one with a
  // source_id) may list no service; one typed here names at least one.
  .superRefine((data, context) => {
    if (data.services.length === 0 && data.source_id === undefined) {
      context.addIssue({ code: 'custom', path: ['services'], message: 'name at least one service id' });
    }
    if (data.verified && data.verification === undefined) {
      context.addIssue({
        code: 'custom',
        path: ['verification', 'method'],
        message: 'is required: say how the review is known to be real (platform, job or invitation) and the day it was checked (verification.checked)',
      });
    }
    if (data.verification?.method === 'platform' && data.source_id === undefined) {
      context.addIssue({
        code: 'custom',
        path: ['verification', 'method'],
        message: 'platform is for reviews imported with their platform id (source_id): use job or invitation for a review typed in',
      });
    }
    if (!data.verified && data.removal === undefined) {
      context.addIssue({
        code: 'custom',
        path: ['removal', 'reason'],
        message: 'is required: a review taken down (verified: false) needs a reason (not-a-customer, personal-data, offensive, spam, duplicate, legal-order, customer-request) and a date (removal.date)',
      });
    }
    if (data.verified && data.removal !== undefined) {
      context.addIssue({ code: 'custom', path: ['removal'], message: 'is only for a review taken down: set verified: false, or delete removal' });
    }
    if (data.removal && data.removal.date < data.date) {
      context.addIssue({ code: 'custom', path: ['removal', 'date'], message: `${data.removal.date} is before the review's date ${data.date}` });
    }
  });

export type ReviewFrontmatter = z.infer<typeof reviewFrontmatter>;

/** The customer's name, in either spelling of `author`. */
export const authorName = ({ author }: ReviewFrontmatter): string => (typeof author === 'string' ? author : author.name);

/** The business.yaml lists an editor picks from. */
export type BusinessChoices = Pick<Business, 'technicians' | 'services' | 'service_areas'>;

/**
 * business.yaml's settings for the editors' checks, read beside the business
 * (whose published record leaves them out).
 */
export const editingSettings = z.object({
  not_technicians: z
    .array(nonEmpty)
    .default([])
    .describe(
      'Names that reviews mention but that are no technician (the owner, a neighbour, a brand): the build stops warning about them.',
    ),
});

export type EditingSettings = z.infer<typeof editingSettings>;

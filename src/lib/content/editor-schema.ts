/**
 * The editors' contract: what a review file's frontmatter and the business file
 * may contain. Kept apart from the published record (reviews/schema.ts) because
 * editors write friendlier forms (an author as a plain name, technicians by name
 * or id, `updated` omitted) that the loader normalises.
 */
import { z } from 'zod';
import { business, isoDate, utcInstant } from '../reviews/schema.ts';

export const REVIEW_ID = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

const nonEmpty = z.string().trim().min(1, 'must not be empty');

export const reviewFrontmatter = z.strictObject({
  date: isoDate,
  updated: utcInstant.optional(),
  rating: z.int('must be a whole number from 1 to 5').min(1, 'must be from 1 to 5').max(5, 'must be from 1 to 5'),
  title: nonEmpty.optional(),
  author: z.union([nonEmpty, z.strictObject({ name: nonEmpty })]),
  technicians: z.array(nonEmpty).default([]),
  services: z.array(nonEmpty).min(1, 'name at least one service id'),
  service_area: nonEmpty.nullable().optional(),
  source: nonEmpty,
  // false takes a review down (or keeps a draft out) without deleting its file: it is
  // still checked, its id stays taken, and nothing of it is published.
  verified: z.boolean('must be true (published) or false (not published): only verified reviews are published'),
  response: z
    .strictObject({ date: isoDate, text: nonEmpty })
    .nullable()
    .optional(),
});

export type ReviewFrontmatter = z.infer<typeof reviewFrontmatter>;

export const businessFile = business;

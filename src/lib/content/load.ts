/**
 * Reads the editors' content folder into validated records. Every problem in
 * every file is collected before failing, so one build run shows an editor all
 * of them at once, each with its file, field and what is wrong.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import type { z } from 'zod';
import { business as businessFile, type Business, type Review } from '../reviews/schema.ts';
import { authorName, REVIEW_ID, reviewFrontmatter, reviewTextProblem, type ReviewFrontmatter } from './editor-schema.ts';
import { FrontmatterError, parseMarkdown, parseYaml } from './split-frontmatter.ts';
import { ContentError, fieldName, type ContentProblem } from './problems.ts';

export interface LoadedContent {
  business: Business;
  /** The published reviews. */
  reviews: Review[];
  /** Ids of valid review files marked `verified: false`: checked, never published. */
  unpublished: string[];
}

export const BUSINESS_FILE = 'business.yaml';
export const REVIEWS_DIR = 'reviews';

/** Loads and cross-checks the whole folder; throws ContentError listing every problem. */
export function loadContent(contentDir: string): LoadedContent {
  const problems: ContentProblem[] = [];
  const business = loadBusiness(contentDir, problems);
  const { reviews, unpublished } = loadReviews(contentDir, business, problems);
  if (problems.length > 0 || !business) throw new ContentError(problems);
  return { business, reviews, unpublished };
}

/** business.yaml, checked; null (with the problems added) when it cannot be used. */
export function loadBusiness(contentDir: string, problems: ContentProblem[]): Business | null {
  let raw: unknown;
  try {
    raw = parseYaml(readFileSync(join(contentDir, BUSINESS_FILE), 'utf8'));
  } catch (error) {
    problems.push({ file: BUSINESS_FILE, field: '(file)', message: describeReadError(error) });
    return null;
  }
  const parsed = businessFile.safeParse(raw, { reportInput: true });
  if (!parsed.success) {
    problems.push(...zodProblems(BUSINESS_FILE, parsed.error));
    return null;
  }
  const business = parsed.data;
  for (const list of ['service_areas', 'services', 'technicians'] as const) {
    const seen = new Set<string>();
    business[list].forEach((entry, index) => {
      if (!REVIEW_ID.test(entry.id)) {
        problems.push({ file: BUSINESS_FILE, field: `${list}[${index}].id`, message: `"${entry.id}" is not a slug (lowercase letters, digits and single hyphens)` });
      }
      if (seen.has(entry.id)) {
        problems.push({ file: BUSINESS_FILE, field: `${list}[${index}].id`, message: `duplicate id "${entry.id}"` });
      }
      seen.add(entry.id);
    });
  }
  return business;
}

/** The review files of the folder, in code-point order, relative paths and ids beside; throws when the folder cannot be read. */
export function listReviewFiles(contentDir: string): ReviewFile[] {
  return listMarkdownFiles(join(contentDir, REVIEWS_DIR)).map((absolute) => ({
    absolute,
    file: relative(contentDir, absolute).split(sep).join('/'),
    id: absolute.slice(absolute.lastIndexOf(sep) + 1, -'.md'.length),
  }));
}

export interface ReviewFile {
  absolute: string;
  /** Relative to the content folder, with forward slashes: what problems name. */
  file: string;
  id: string;
}

/** One review file read and checked on its own (everything but the checks across files). */
export interface ReadReview {
  problems: ContentProblem[];
  /** The record, when the file has no problem and the business could be read. */
  review: Review | null;
  verified: boolean;
}

/**
 * Reads one review file. Depends on the file and the business only, so files
 * can be read in any order or in other threads (see src/lib/build/parallel-load.ts).
 */
export function readReviewFile(entry: ReviewFile, business: Business | null, resolver = business ? createReferenceResolver(business) : null): ReadReview {
  const { absolute, file, id } = entry;
  const problems: ContentProblem[] = [];
  let markdown;
  try {
    markdown = parseMarkdown(readFileSync(absolute, 'utf8'));
  } catch (error) {
    problems.push({ file, field: '(frontmatter)', message: describeReadError(error) });
    return { problems, review: null, verified: false };
  }
  const parsed = reviewFrontmatter.safeParse(markdown.data, { reportInput: true });
  if (!parsed.success) {
    problems.push(...zodProblems(file, parsed.error));
    return { problems, review: null, verified: false };
  }
  const textProblem = reviewTextProblem(markdown.body);
  if (textProblem) problems.push({ file, field: '(body)', message: textProblem });
  const review = resolver ? toReview(id, file, parsed.data, markdown.body, resolver, problems) : null;
  return { problems, review: problems.length === 0 ? review : null, verified: parsed.data.verified };
}

/** The checks across files (ids): problems per file, in file order, before the file's own. */
export function idProblems(files: readonly ReviewFile[]): ContentProblem[][] {
  const firstFileById = new Map<string, string>();
  return files.map(({ file, id }) => {
    const problems: ContentProblem[] = [];
    if (!REVIEW_ID.test(id)) {
      problems.push({ file, field: '(file name)', message: `"${id}" is not a valid review id: use lowercase letters, digits and single hyphens` });
    }
    const earlier = firstFileById.get(id);
    if (earlier) problems.push({ file, field: '(file name)', message: `duplicate review id "${id}", also used by ${earlier}` });
    else firstFileById.set(id, file);
    return problems;
  });
}

/**
 * Puts the files' results together in file order: every problem, and the
 * reviews of the files without any (published, or only checked when `verified: false`).
 */
export function collectReviews(files: readonly ReviewFile[], read: readonly ReadReview[], problems: ContentProblem[]): Pick<LoadedContent, 'reviews' | 'unpublished'> {
  const reviews: Review[] = [];
  const unpublished: string[] = [];
  const byId = idProblems(files);
  files.forEach((_file, index) => {
    const { problems: own, review, verified } = read[index];
    problems.push(...byId[index], ...own);
    if (review && byId[index].length === 0) {
      if (verified) reviews.push(review);
      else unpublished.push(review.id);
    }
  });
  return { reviews, unpublished };
}

function loadReviews(contentDir: string, business: Business | null, problems: ContentProblem[]): Pick<LoadedContent, 'reviews' | 'unpublished'> {
  let files: ReviewFile[];
  try {
    files = listReviewFiles(contentDir);
  } catch (error) {
    problems.push({ file: REVIEWS_DIR, field: '(folder)', message: describeReadError(error) });
    return { reviews: [], unpublished: [] };
  }
  const resolver = business ? createReferenceResolver(business) : null;
  return collectReviews(files, files.map((entry) => readReviewFile(entry, business, resolver)), problems);
}

export function createReferenceResolver(business: Business) {
  const technicians = new Map<string, string>();
  for (const t of business.technicians) {
    technicians.set(t.id, t.name);
    technicians.set(t.name.toLowerCase(), t.name);
  }
  const services = new Set(business.services.map((s) => s.id));
  const areas = new Set(business.service_areas.map((a) => a.id));
  return {
    technician: (ref: string) => technicians.get(ref) ?? technicians.get(ref.toLowerCase()),
    service: (ref: string) => services.has(ref),
    area: (ref: string) => areas.has(ref),
    known: {
      technicians: business.technicians.map((t) => t.name).join(', '),
      services: [...services].join(', '),
      areas: [...areas].join(', '),
    },
  };
}

type ReferenceResolver = ReturnType<typeof createReferenceResolver>;

function toReview(
  id: string,
  file: string,
  data: ReviewFrontmatter,
  text: string,
  refs: ReferenceResolver,
  problems: ContentProblem[],
): Review | null {
  const technicians: string[] = [];
  data.technicians.forEach((ref, index) => {
    const name = refs.technician(ref);
    if (name === undefined) {
      problems.push({ file, field: `technicians[${index}]`, message: `unknown technician "${ref}" (known: ${refs.known.technicians})` });
    } else if (technicians.includes(name)) {
      problems.push({ file, field: `technicians[${index}]`, message: `technician "${name}" is listed twice` });
    } else technicians.push(name);
  });
  data.services.forEach((ref, index) => {
    if (!refs.service(ref)) problems.push({ file, field: `services[${index}]`, message: `unknown service id "${ref}" (known: ${refs.known.services})` });
    else if (data.services.indexOf(ref) !== index) problems.push({ file, field: `services[${index}]`, message: `service "${ref}" is listed twice` });
  });
  const area = data.service_area ?? null;
  if (area !== null && !refs.area(area)) {
    problems.push({ file, field: 'service_area', message: `unknown service area id "${area}" (known: ${refs.known.areas})` });
  }
  // Without an `updated`, a reply counts as the last editorial change: it is when the
  // review changed for readers (and what clients revalidating by date must see).
  const lastChange = data.response && data.response.date > data.date ? data.response.date : data.date;
  const updated = data.updated ?? `${lastChange}T00:00:00Z`;
  if (updated.slice(0, 10) < data.date) {
    problems.push({ file, field: 'updated', message: `${updated} is before the review's date ${data.date}` });
  }
  if (data.response && data.response.date < data.date) {
    problems.push({ file, field: 'response.date', message: `the reply (${data.response.date}) is dated before the review (${data.date})` });
  }
  if (data.response && updated.slice(0, 10) < data.response.date) {
    problems.push({ file, field: 'updated', message: `${updated} is before the owner's reply of ${data.response.date}: set updated to when the reply was published` });
  }
  const review: Review = {
    id,
    date: data.date,
    updated,
    rating: data.rating,
    ...(data.title === undefined ? {} : { title: data.title }),
    text,
    author: { name: authorName(data) },
    technicians,
    services: data.services,
    service_area: area,
    source: data.source,
    ...(data.source_id === undefined ? {} : { source_id: data.source_id }),
    ...(data.source_url === undefined ? {} : { source_url: data.source_url }),
    verified: true,
    response: data.response ?? null,
  };
  return review;
}

function listMarkdownFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name.startsWith('.')) continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...listMarkdownFiles(path));
    else if (entry.name.endsWith('.md') && statSync(path).isFile()) out.push(path);
  }
  // sort()'s own order (UTF-16 code units), not locale order: the same folder lists the same way everywhere.
  return out.sort();
}

/** The problems of a parse made with `reportInput`: a value of the wrong kind that is not there at all is missing. */
function zodProblems(file: string, error: z.ZodError): ContentProblem[] {
  return error.issues.map((issue) => ({ file, field: fieldName(issue.path), message: issueMessage(issue) }));
}

function issueMessage(issue: z.core.$ZodIssue): string {
  if (issue.code === 'unrecognized_keys') return `unknown field${issue.keys.length > 1 ? 's' : ''} ${issue.keys.map((k) => `"${k}"`).join(', ')}`;
  if ((issue.code === 'invalid_type' || issue.code === 'invalid_union') && issue.input === undefined) return 'is required';
  return issue.message;
}

export function describeReadError(error: unknown): string {
  if (error instanceof FrontmatterError) return error.message;
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ENOENT') return 'file or folder not found';
  return error instanceof Error ? error.message : String(error);
}

/**
 * Reads the editors' content folder into validated records. Every problem in
 * every file is collected before failing, so one build run shows an editor all
 * of them at once, each with its file, field and what is wrong.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import type { z } from 'zod';
import { business as businessFile, type Business, type Removal, type Review } from '../reviews/schema.ts';
import {
  authorName,
  editingSettings,
  REVIEW_ID,
  reviewFrontmatter,
  reviewTextProblem,
  type EditingSettings,
  type ReviewFrontmatter,
} from './editor-schema.ts';
import { FrontmatterError, parseMarkdown, parseYaml } from './split-frontmatter.ts';
import { ContentError, fieldName, nearest, typedValue, unknownFieldProblem, withLines, type ContentProblem } from './problems.ts';

export interface LoadedContent {
  business: Business;
  /** The published reviews. */
  reviews: Review[];
  /** Ids of valid review files marked `verified: false`: checked, never published. */
  unpublished: string[];
  /** What the moderation log publishes of each of those: id, rating, date and reason. */
  removals: Removal[];
}

export const BUSINESS_FILE = 'business.yaml';
export const REVIEWS_DIR = 'reviews';

/** Loads and cross-checks the whole folder; throws ContentError listing every problem. */
export function loadContent(contentDir: string): LoadedContent {
  const problems: ContentProblem[] = [];
  const business = loadBusiness(contentDir, problems);
  const { reviews, unpublished, removals } = loadReviews(contentDir, business, problems);
  if (problems.length > 0 || !business) throw new ContentError(problems);
  return { business, reviews, unpublished, removals };
}

/** business.yaml, checked; null (with the problems added) when it cannot be used. */
export function loadBusiness(contentDir: string, problems: ContentProblem[]): Business | null {
  let raw: unknown;
  let source: string;
  try {
    source = readFileSync(join(contentDir, BUSINESS_FILE), 'utf8');
    raw = parseYaml(source);
  } catch (error) {
    problems.push({ file: BUSINESS_FILE, field: '(file)', message: describeReadError(error) });
    return null;
  }
  const parsed = businessFile.safeParse(raw, { reportInput: true });
  // Only its own fields: what else is wrong with the file is the business schema's to say.
  const settingsPart = raw !== null && typeof raw === 'object' ? { not_technicians: (raw as Record<string, unknown>).not_technicians } : {};
  const settings = editingSettings.safeParse(settingsPart, { reportInput: true });
  if (!settings.success) problems.push(...withLines(zodProblems(BUSINESS_FILE, settings.error, []), source, 'yaml'));
  if (!parsed.success) {
    problems.push(...withLines(zodProblems(BUSINESS_FILE, parsed.error, Object.keys(businessFile.shape)), source, 'yaml'));
    return null;
  }
  if (!settings.success) return null;
  const business = parsed.data;
  const own: ContentProblem[] = [];
  for (const list of ['service_areas', 'services', 'technicians'] as const) {
    const seen = new Set<string>();
    business[list].forEach((entry, index) => {
      if (!REVIEW_ID.test(entry.id)) {
        own.push({ file: BUSINESS_FILE, field: `${list}[${index}].id`, message: `"${entry.id}" is not a slug (lowercase letters, digits and single hyphens)` });
      }
      if (seen.has(entry.id)) {
        own.push({ file: BUSINESS_FILE, field: `${list}[${index}].id`, message: `duplicate id "${entry.id}"` });
      }
      seen.add(entry.id);
    });
  }
  problems.push(...withLines(own, source, 'yaml'));
  return business;
}

/** business.yaml's settings for the editors' checks; the defaults when it cannot be read (loadBusiness says why). */
export function loadEditingSettings(contentDir: string): EditingSettings {
  try {
    const parsed = editingSettings.safeParse(parseYaml(readFileSync(join(contentDir, BUSINESS_FILE), 'utf8')));
    if (parsed.success) return parsed.data;
  } catch {
    // Reported by loadBusiness, with the file and line.
  }
  return editingSettings.parse({});
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
  /** A valid file taken down (verified: false): its entry in the moderation log. */
  removal?: Removal;
}

/**
 * Reads one review file. Depends on the file and the business only, so files
 * can be read in any order or in other threads (see src/lib/build/parallel-load.ts).
 */
export function readReviewFile(entry: ReviewFile, business: Business | null, resolver = business ? createReferenceResolver(business) : null): ReadReview {
  const { absolute, file, id } = entry;
  const problems: ContentProblem[] = [];
  let markdown;
  let source: string;
  try {
    source = readFileSync(absolute, 'utf8');
    markdown = parseMarkdown(source);
  } catch (error) {
    problems.push({ file, field: '(frontmatter)', message: describeReadError(error) });
    return { problems, review: null, verified: false };
  }
  const parsed = reviewFrontmatter.safeParse(markdown.data, { reportInput: true });
  const textProblem = reviewTextProblem(markdown.body);
  if (!parsed.success) {
    // Every mistake of the file at once: the references the schema had no complaint about are checked too.
    problems.push(...zodProblems(file, parsed.error, Object.keys(reviewFrontmatter.shape)));
    if (resolver) {
      const flagged = new Set(parsed.error.issues.map((issue) => issue.path[0]));
      const raw = (markdown.data ?? {}) as Record<string, unknown>;
      const strings = (value: unknown) => (Array.isArray(value) && value.every((v) => typeof v === 'string') ? (value as string[]) : []);
      referenceProblems(
        file,
        {
          technicians: flagged.has('technicians') ? [] : strings(raw.technicians),
          services: flagged.has('services') ? [] : strings(raw.services),
          service_area: !flagged.has('service_area') && typeof raw.service_area === 'string' ? raw.service_area : null,
        },
        resolver,
        problems,
      );
    }
    if (textProblem) problems.push({ file, field: '(body)', message: textProblem });
    return { problems: withLines(problems, source, 'markdown'), review: null, verified: false };
  }
  if (textProblem) problems.push({ file, field: '(body)', message: textProblem });
  const review = resolver ? toReview(id, file, parsed.data, markdown.body, resolver, problems) : null;
  const { verified, removal, rating } = parsed.data;
  return {
    problems: withLines(problems, source, 'markdown'),
    review: problems.length === 0 ? review : null,
    verified,
    ...(!verified && removal ? { removal: { id, rating, date: removal.date, reason: removal.reason } } : {}),
  };
}

/** The checks across files (ids): problems per file, in file order, before the file's own. */
function idProblems(files: readonly ReviewFile[]): ContentProblem[][] {
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
export function collectReviews(files: readonly ReviewFile[], read: readonly ReadReview[], problems: ContentProblem[]): Pick<LoadedContent, 'reviews' | 'unpublished' | 'removals'> {
  const reviews: Review[] = [];
  const unpublished: string[] = [];
  const removals: Removal[] = [];
  const byId = idProblems(files);
  files.forEach((_file, index) => {
    const { problems: own, review, verified, removal } = read[index];
    problems.push(...byId[index], ...own);
    if (review && byId[index].length === 0) {
      if (verified) reviews.push(review);
      else {
        unpublished.push(review.id);
        if (removal) removals.push(removal);
      }
    }
  });
  return { reviews, unpublished, removals };
}

function loadReviews(contentDir: string, business: Business | null, problems: ContentProblem[]): Pick<LoadedContent, 'reviews' | 'unpublished' | 'removals'> {
  let files: ReviewFile[];
  try {
    files = listReviewFiles(contentDir);
  } catch (error) {
    problems.push({ file: REVIEWS_DIR, field: '(folder)', message: describeReadError(error) });
    return { reviews: [], unpublished: [], removals: [] };
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
    /** What a mistyped reference was probably meant to be. */
    nearest: {
      technician: (ref: string) => nearest(ref, business.technicians.map((t) => t.name)),
      service: (ref: string) => nearest(ref, [...services]),
      area: (ref: string) => nearest(ref, [...areas]),
    },
    known: {
      technicians: business.technicians.map((t) => t.name).join(', '),
      services: [...services].join(', '),
      areas: [...areas].join(', '),
    },
  };
}

type ReferenceResolver = ReturnType<typeof createReferenceResolver>;

/** The checks of a review's references to business.yaml; returns the technicians' names. */
function referenceProblems(
  file: string,
  data: { technicians: readonly string[]; services: readonly string[]; service_area?: string | null },
  refs: ReferenceResolver,
  problems: ContentProblem[],
): string[] {
  const withSuggestion = (problem: ContentProblem, suggestion: string | undefined): ContentProblem =>
    suggestion ? { ...problem, suggestion } : problem;
  const technicians: string[] = [];
  data.technicians.forEach((ref, index) => {
    const name = refs.technician(ref);
    if (name === undefined) {
      problems.push(
        withSuggestion(
          { file, field: `technicians[${index}]`, message: `unknown technician "${ref}" (known: ${refs.known.technicians})` },
          refs.nearest.technician(ref),
        ),
      );
    } else if (technicians.includes(name)) {
      problems.push({ file, field: `technicians[${index}]`, message: `technician "${name}" is listed twice` });
    } else technicians.push(name);
  });
  data.services.forEach((ref, index) => {
    if (!refs.service(ref))
      problems.push(
        withSuggestion(
          { file, field: `services[${index}]`, message: `unknown service id "${ref}" (known: ${refs.known.services})` },
          refs.nearest.service(ref),
        ),
      );
    else if (data.services.indexOf(ref) !== index) problems.push({ file, field: `services[${index}]`, message: `service "${ref}" is listed twice` });
  });
  const area = data.service_area ?? null;
  if (area !== null && !refs.area(area)) {
    problems.push(
      withSuggestion(
        { file, field: 'service_area', message: `unknown service area id "${area}" (known: ${refs.known.areas})` },
        refs.nearest.area(area),
      ),
    );
  }
  return technicians;
}

function toReview(
  id: string,
  file: string,
  data: ReviewFrontmatter,
  text: string,
  refs: ReferenceResolver,
  problems: ContentProblem[],
): Review | null {
  const technicians = referenceProblems(file, data, refs, problems);
  const area = data.service_area ?? null;
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
    // The office's job reference stays in the file: only the method and the day are published.
    // A file taken down need not say (it is never published); the schema requires it of the rest.
    verification: data.verification
      ? { method: data.verification.method, checked: data.verification.checked }
      : { method: 'job', checked: data.date },
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
function zodProblems(file: string, error: z.ZodError, fields: readonly string[]): ContentProblem[] {
  return error.issues.flatMap((issue): ContentProblem[] => {
    if (issue.code === 'unrecognized_keys') {
      // One problem per field, each with its line and the field it was probably meant to be
      // (top-level fields only: a nested object's own fields are few and named in the guide).
      return issue.keys.map((key) => ({ ...unknownFieldProblem(file, key, issue.path.length === 0 ? fields : []), field: fieldName(issue.path) }));
    }
    const missing = (issue.code === 'invalid_type' || issue.code === 'invalid_union') && issue.input === undefined;
    if (missing) return [{ file, field: fieldName(issue.path), message: 'is required' }];
    return [{ file, field: fieldName(issue.path), message: issue.message, ...(issue.input === undefined ? {} : { value: typedValue(issue.input) }) }];
  });
}

export function describeReadError(error: unknown): string {
  if (error instanceof FrontmatterError) return error.message;
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ENOENT') return 'file or folder not found';
  return error instanceof Error ? error.message : String(error);
}

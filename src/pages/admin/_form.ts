/**
 * The review form's own checks, run by Decap's `preSave` hook in the browser
 * (src/pages/admin/index.astro) before anything is written:
 *
 * - blank optional fields are dropped, so a reply touched then cleared is not
 *   saved as `response: { text: "" }`;
 * - the frontmatter is validated with the very schema the loader uses
 *   (`reviewFrontmatter`), and with the loader's checks between dates
 *   (src/lib/content/load.ts), so the form never writes a file that fails the build.
 *
 * Choices (technicians, services, areas) need no check here: the form only
 * offers those of business.yaml.
 */
import { reviewFrontmatter, reviewTextProblem } from '../../lib/content/editor-schema.ts';

export type FormData = Record<string, unknown>;

/** The frontmatter the form's values make: the review text (`body`) is not part of it. */
export function cleanFrontmatter(data: FormData): FormData {
  const out: FormData = {};
  for (const [key, value] of Object.entries(data)) {
    if (key === 'body') continue;
    const cleaned = clean(value);
    if (cleaned === undefined && isOptional(key)) continue;
    out[key] = cleaned;
  }
  return out;
}

/** What is wrong with the form's values, field by field, as the build would say it; empty when it would build. */
export function formProblems(data: FormData): string[] {
  const problems: string[] = [];
  const body = typeof data.body === 'string' ? data.body.trim() : '';
  const parsed = reviewFrontmatter.safeParse(cleanFrontmatter(data));
  if (!parsed.success) {
    const frontmatter = cleanFrontmatter(data);
    for (const issue of parsed.error.issues) {
      const missing = issue.code === 'invalid_type' && valueAt(frontmatter, issue.path) === undefined;
      problems.push(`${issue.path.join('.') || '(form)'}: ${missing ? 'is required' : issue.message}`);
    }
  } else {
    const { date, updated, response } = parsed.data;
    // The same checks between dates as load.ts (toReview).
    if (response && response.date < date)
      problems.push(`response.date: the reply (${response.date}) is dated before the review (${date})`);
    if (updated && updated.slice(0, 10) < date)
      problems.push(`updated: ${updated} is before the review's date ${date}`);
    if (updated && response && updated.slice(0, 10) < response.date) {
      problems.push(
        `updated: ${updated} is before the reply of ${response.date}: set it to when the reply was published, or leave it empty`,
      );
    }
  }
  const textProblem = reviewTextProblem(body);
  if (textProblem) problems.push(`body: ${textProblem}`);
  return problems;
}

function valueAt(value: unknown, path: readonly PropertyKey[]): unknown {
  for (const key of path) {
    if (value === null || typeof value !== 'object') return undefined;
    value = (value as Record<PropertyKey, unknown>)[key];
  }
  return value;
}

function isOptional(key: string): boolean {
  const field = (reviewFrontmatter.shape as Record<string, { safeParse(value: unknown): { success: boolean } }>)[key];
  return field !== undefined && field.safeParse(undefined).success;
}

/** The value with blank strings, empty lists and all-blank objects taken out; undefined when nothing is left. */
function clean(value: unknown): unknown {
  if (value === null || value === undefined) return undefined;
  if (typeof value === 'string') return value.trim() === '' ? undefined : value;
  if (Array.isArray(value)) {
    const items = value.map(clean).filter((item) => item !== undefined);
    return items.length === 0 ? undefined : items;
  }
  if (typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .map(([key, inner]) => [key, clean(inner)] as const)
      .filter(([, inner]) => inner !== undefined);
    return entries.length === 0 ? undefined : Object.fromEntries(entries);
  }
  return value;
}

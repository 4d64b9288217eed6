/**
 * The editorial part of insights.json: the FAQ and the summary, written by
 * editors as Markdown in `content/insights/` and validated like reviews (every
 * problem at once, each with its file, field and message).
 *
 * faq.md      frontmatter `updated`; then each question is a `## ` heading
 *             ending in "?", and its answer is the text below it.
 * summary.md  frontmatter `updated`, `figures` (every number the prose quotes,
 *             by name) and `highlights` (short lines); the body is the summary.
 *
 * Figures are checked at build time against the computed values (checkFigures),
 * rounded to the decimals the editor wrote, and each must appear in the text.
 * Both files are optional: without faq.md the FAQ is empty; without
 * summary.md the summary is generated from the computed figures.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { FrontmatterError, parseMarkdown } from '../content/frontmatter.ts';
import { ContentError, fieldName, type ContentProblem } from '../content/problems.ts';
import { roundTo } from '../reviews/dataset.ts';
import { isoDate, utcInstant } from '../reviews/schema.ts';
import { ASPECT_IDS } from './lexicon.ts';

export const INSIGHTS_DIR = 'insights';
export const FAQ_FILE = `${INSIGHTS_DIR}/faq.md`;
export const SUMMARY_FILE = `${INSIGHTS_DIR}/summary.md`;

export interface Editorial {
  faq: { entries: Array<{ question: string; answer: string }>; updated: string } | null;
  summary: { text: string; highlights: string[]; figures: Record<string, number>; updated: string } | null;
}

export const EMPTY_EDITORIAL: Editorial = { faq: null, summary: null };

const updatedField = z.union([utcInstant, isoDate], 'expected a date (2025-06-01) or an RFC 3339 UTC instant (2025-06-01T09:00:00Z)');

const faqFrontmatter = z.strictObject({ updated: updatedField });

const summaryFrontmatter = z.strictObject({
  updated: updatedField,
  figures: z.record(z.string(), z.number('must be a number as the text quotes it, e.g. 4.52 or 61')).default({}),
  highlights: z.array(z.string().trim().min(1, 'must not be empty')).default([]),
});

function toInstant(value: string): string {
  return value.length === 10 ? `${value}T00:00:00Z` : value;
}

/** Reads content/insights/*.md; throws ContentError listing every problem. */
export function loadEditorial(contentDir: string): Editorial {
  const problems: ContentProblem[] = [];
  const faq = loadFaq(contentDir, problems);
  const summary = loadSummary(contentDir, problems);
  if (problems.length > 0) throw new ContentError(problems);
  return { faq, summary };
}

function readOptional(contentDir: string, file: string, problems: ContentProblem[]): { data: unknown; body: string } | null {
  let source: string;
  try {
    source = readFileSync(join(contentDir, file), 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    problems.push({ file, field: '(file)', message: error instanceof Error ? error.message : String(error) });
    return null;
  }
  try {
    return parseMarkdown(source);
  } catch (error) {
    problems.push({ file, field: '(frontmatter)', message: error instanceof FrontmatterError ? error.message : String(error) });
    return null;
  }
}

function loadFaq(contentDir: string, problems: ContentProblem[]): Editorial['faq'] {
  const markdown = readOptional(contentDir, FAQ_FILE, problems);
  if (!markdown) return null;
  const parsed = faqFrontmatter.safeParse(markdown.data);
  if (!parsed.success) for (const issue of parsed.error.issues) problems.push({ file: FAQ_FILE, field: fieldName(issue.path), message: issue.message });
  const entries: Array<{ question: string; answer: string }> = [];
  const sections = markdown.body.split(/^##[ \t]+/m);
  if (sections[0].trim() !== '') {
    problems.push({ file: FAQ_FILE, field: '(body)', message: 'text before the first question: start each question with "## " on its own line' });
  }
  sections.slice(1).forEach((section, index) => {
    const newline = section.indexOf('\n');
    const question = (newline === -1 ? section : section.slice(0, newline)).trim();
    const answer = newline === -1 ? '' : paragraphs(section.slice(newline + 1));
    const field = `question ${index + 1}`;
    if (!question.endsWith('?')) problems.push({ file: FAQ_FILE, field, message: `"${question}" does not end with "?": write the heading as the question a customer asks` });
    if (answer === '') problems.push({ file: FAQ_FILE, field, message: `"${question}" has no answer: write it below the heading` });
    if (entries.some((e) => e.question.toLowerCase() === question.toLowerCase())) problems.push({ file: FAQ_FILE, field, message: `"${question}" is asked twice` });
    entries.push({ question, answer });
  });
  if (sections.length === 1) problems.push({ file: FAQ_FILE, field: '(body)', message: 'no questions: write each as a "## " heading followed by its answer' });
  return parsed.success ? { entries, updated: toInstant(parsed.data.updated) } : null;
}

function loadSummary(contentDir: string, problems: ContentProblem[]): Editorial['summary'] {
  const markdown = readOptional(contentDir, SUMMARY_FILE, problems);
  if (!markdown) return null;
  const parsed = summaryFrontmatter.safeParse(markdown.data);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const message = issue.code === 'unrecognized_keys' ? `unknown field${issue.keys.length > 1 ? 's' : ''} ${issue.keys.map((k) => `"${k}"`).join(', ')}` : issue.message;
      problems.push({ file: SUMMARY_FILE, field: fieldName(issue.path), message });
    }
  }
  const text = paragraphs(markdown.body);
  if (text === '') problems.push({ file: SUMMARY_FILE, field: '(body)', message: 'the summary is empty: write it below the closing ---' });
  if (!parsed.success) return null;
  for (const name of Object.keys(parsed.data.figures)) {
    if (!FIGURE_NAMES.includes(name)) {
      problems.push({ file: SUMMARY_FILE, field: `figures.${name}`, message: `unknown figure "${name}" (known: ${FIGURE_NAMES.join(', ')})` });
    }
  }
  return { text, highlights: parsed.data.highlights, figures: parsed.data.figures, updated: toInstant(parsed.data.updated) };
}

/** Markdown paragraphs as plain text: lines joined, paragraphs separated by a blank line. */
function paragraphs(body: string): string {
  return body
    .trim()
    .split(/\n[ \t]*\n/)
    .map((p) => p.split('\n').map((line) => line.trim()).join(' ').trim())
    .filter(Boolean)
    .join('\n\n');
}

// ---------------------------------------------------------------------------
// Figures an editor may quote, computed from the reviews.

export const ASPECT_FIGURE_PREFIX = 'percent_positive_';

export const BASE_FIGURES = [
  'review_count',
  'average_rating',
  'percent_five_star',
  'percent_four_or_five_star',
  'percent_one_or_two_star',
  'technician_count',
] as const;


export const FIGURE_NAMES: readonly string[] = [...BASE_FIGURES, ...ASPECT_IDS.map((id) => `${ASPECT_FIGURE_PREFIX}${id}`)];

/** Decimals as the editor wrote the number: 4.52 → 2, 61 → 0. */
export function decimalsOf(value: number): number {
  const text = String(value);
  const dot = text.indexOf('.');
  return dot === -1 ? 0 : text.length - dot - 1;
}

/** The number as it may appear in prose: "163", "1,204", "4.52", "61" (a "%" or "percent" may follow). */
function numberPattern(value: number): RegExp {
  const [whole, fraction] = String(Math.abs(value)).split('.');
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',?');
  const body = `${value < 0 ? '-' : ''}${grouped}${fraction ? `\\.${fraction}` : ''}`;
  return new RegExp(`(?<![\\d.,])${body}(?![\\d]|[.,]\\d)`);
}

/**
 * Compares each declared figure with the computed one (rounded as declared)
 * and checks the text quotes it. Throws ContentError naming the file, the
 * figure, the stale and the current value.
 */
export function checkFigures(summary: NonNullable<Editorial['summary']>, computed: Readonly<Record<string, number>>): void {
  const problems: ContentProblem[] = [];
  const prose = [summary.text, ...summary.highlights].join('\n');
  for (const [name, declared] of Object.entries(summary.figures)) {
    const actual = computed[name];
    if (actual === undefined) {
      problems.push({ file: SUMMARY_FILE, field: `figures.${name}`, message: `unknown figure "${name}" (known: ${FIGURE_NAMES.join(', ')})` });
      continue;
    }
    const decimals = decimalsOf(declared);
    const current = roundTo(actual, decimals);
    if (current !== declared) {
      problems.push({
        file: SUMMARY_FILE,
        field: `figures.${name}`,
        message: `is stale: the summary says ${declared} but the reviews now give ${current} (${actual} rounded to ${decimals} decimal${decimals === 1 ? '' : 's'}); update the figure and the sentence that quotes it`,
      });
    }
    if (!numberPattern(declared).test(prose)) {
      problems.push({ file: SUMMARY_FILE, field: `figures.${name}`, message: `${declared} is declared but the summary text and highlights never quote it: quote it, or remove it from figures` });
    }
  }
  if (problems.length > 0) throw new ContentError(problems);
}

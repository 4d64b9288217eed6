/**
 * The editorial part of insights.json: the FAQ and the summary, written by
 * editors as Markdown in `content/insights/` and validated like reviews (every
 * problem at once, each with its file, field and message).
 *
 * faq.md      frontmatter `updated`; then each question is a `## ` heading
 *             ending in "?", and its answer is the text below it.
 * summary.md  frontmatter `updated` and `highlights` (short lines); the body
 *             is the summary. Figures are quoted as placeholders
 *             (`{review_count}`, see figures.ts), checked here by name and
 *             filled at build time, so the summary never goes stale.
 *
 * Both files are optional: without faq.md the FAQ is empty; without
 * summary.md the summary is generated from the computed figures.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { FrontmatterError, parseMarkdown } from '../content/split-frontmatter.ts';
import { ContentError, fieldName, type ContentProblem } from '../content/problems.ts';
import { isoDate, utcInstant } from '../reviews/schema.ts';
import { placeholderProblems } from './figures.ts';

export const INSIGHTS_DIR = 'insights';
export const FAQ_FILE = `${INSIGHTS_DIR}/faq.md`;
export const SUMMARY_FILE = `${INSIGHTS_DIR}/summary.md`;

export interface Editorial {
  faq: { entries: Array<{ question: string; answer: string }>; updated: string } | null;
  /** Text and highlights as written, placeholders unfilled. */
  summary: { text: string; highlights: string[]; updated: string } | null;
}

export const EMPTY_EDITORIAL: Editorial = { faq: null, summary: null };

const updatedField = z.union(
  [utcInstant, isoDate],
  'expected a date (2025-06-01) or an RFC 3339 UTC instant (2025-06-01T09:00:00Z)',
);

const faqFrontmatter = z.strictObject({ updated: updatedField });

const summaryFrontmatter = z.strictObject({
  updated: updatedField,
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

function readOptional(
  contentDir: string,
  file: string,
  problems: ContentProblem[],
): { data: unknown; body: string } | null {
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
    problems.push({
      file,
      field: '(frontmatter)',
      message: error instanceof FrontmatterError ? error.message : String(error),
    });
    return null;
  }
}

function loadFaq(contentDir: string, problems: ContentProblem[]): Editorial['faq'] {
  const markdown = readOptional(contentDir, FAQ_FILE, problems);
  if (!markdown) return null;
  const parsed = faqFrontmatter.safeParse(markdown.data);
  if (!parsed.success)
    for (const issue of parsed.error.issues)
      problems.push({ file: FAQ_FILE, field: fieldName(issue.path), message: issue.message });
  const entries: Array<{ question: string; answer: string }> = [];
  const sections = markdown.body.split(/^##[ \t]+/m);
  if (sections[0].trim() !== '') {
    problems.push({
      file: FAQ_FILE,
      field: '(body)',
      message: 'text before the first question: start each question with "## " on its own line',
    });
  }
  sections.slice(1).forEach((section, index) => {
    const newline = section.indexOf('\n');
    const question = (newline === -1 ? section : section.slice(0, newline)).trim();
    const answer = newline === -1 ? '' : paragraphs(section.slice(newline + 1));
    const field = `question ${index + 1}`;
    if (!question.endsWith('?'))
      problems.push({
        file: FAQ_FILE,
        field,
        message: `"${question}" does not end with "?": write the heading as the question a customer asks`,
      });
    if (answer === '')
      problems.push({ file: FAQ_FILE, field, message: `"${question}" has no answer: write it below the heading` });
    if (entries.some((e) => e.question.toLowerCase() === question.toLowerCase()))
      problems.push({ file: FAQ_FILE, field, message: `"${question}" is asked twice` });
    entries.push({ question, answer });
  });
  if (sections.length === 1)
    problems.push({
      file: FAQ_FILE,
      field: '(body)',
      message: 'no questions: write each as a "## " heading followed by its answer',
    });
  return parsed.success ? { entries, updated: toInstant(parsed.data.updated) } : null;
}

function loadSummary(contentDir: string, problems: ContentProblem[]): Editorial['summary'] {
  const markdown = readOptional(contentDir, SUMMARY_FILE, problems);
  if (!markdown) return null;
  const parsed = summaryFrontmatter.safeParse(markdown.data);
  if (!parsed.success) {
    for (const issue of parsed.error.issues)
      problems.push({ file: SUMMARY_FILE, field: fieldName(issue.path), message: summaryIssueMessage(issue) });
  }
  const text = paragraphs(markdown.body);
  if (text === '')
    problems.push({
      file: SUMMARY_FILE,
      field: '(body)',
      message: 'the summary is empty: write it below the closing ---',
    });
  for (const problem of placeholderProblems(text))
    problems.push({ file: SUMMARY_FILE, field: '(body)', message: problem.message });
  // Highlights are checked even when another field is wrong: every problem at once.
  const highlights = (markdown.data as { highlights?: unknown } | null)?.highlights;
  if (Array.isArray(highlights)) {
    highlights.forEach((line, index) => {
      if (typeof line !== 'string') return;
      for (const problem of placeholderProblems(line))
        problems.push({ file: SUMMARY_FILE, field: `highlights[${index}]`, message: problem.message });
    });
  }
  if (!parsed.success) return null;
  return { text, highlights: parsed.data.highlights, updated: toInstant(parsed.data.updated) };
}

function summaryIssueMessage(issue: z.core.$ZodIssue): string {
  if (issue.code !== 'unrecognized_keys') return issue.message;
  const unknown = `unknown field${issue.keys.length > 1 ? 's' : ''} ${issue.keys.map((k) => `"${k}"`).join(', ')}`;
  // Summaries written before placeholders declared their numbers under `figures`.
  if (!issue.keys.includes('figures')) return unknown;
  return `${unknown}: figures are no longer declared; write each number in the text as a placeholder such as {review_count} or {average_rating}, filled at build time`;
}

/** Markdown paragraphs as plain text: lines joined, paragraphs separated by a blank line. */
function paragraphs(body: string): string {
  return body
    .trim()
    .split(/\n[ \t]*\n/)
    .map((p) =>
      p
        .split('\n')
        .map((line) => line.trim())
        .join(' ')
        .trim(),
    )
    .filter(Boolean)
    .join('\n\n');
}

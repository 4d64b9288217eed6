/**
 * The figures an editor may quote in the summary, and the placeholders that
 * quote them. The summary is written with `{review_count}`, `{average_rating}`,
 * `{percent_five_star}` … in its text; the build fills each from the reviews,
 * so adding, editing or removing a review never leaves the summary stale and
 * never fails the build. A number typed by hand is the editor's own choice and
 * is left alone.
 *
 * Syntax: `{name}` uses the figure's usual precision (counts and percentages
 * whole, the average rating to 2 decimals); `{name:1}` asks for 1 decimal
 * (0–3). Anything else between braces without spaces (`{review_cuont}`,
 * `{average_rating:x}`) is a mistake reported with the file and field; braces
 * around words with spaces are ordinary text.
 */
import { roundTo } from '../reviews/published-dataset.ts';
import type { ReviewsDataset } from '../reviews/schema.ts';
import { ASPECT_IDS } from './lexicon.ts';
import type { AspectSummary } from './schema.ts';
import { TREND_FIGURES } from './trends.ts';

const ASPECT_FIGURE_PREFIX = 'percent_positive_';

/** Name → decimals used when the placeholder names none. */
const BASE_FIGURES = {
  review_count: 0,
  average_rating: 2,
  percent_five_star: 0,
  percent_four_or_five_star: 0,
  percent_one_or_two_star: 0,
  technician_count: 0,
} as const;

const FIGURE_NAMES: readonly string[] = [
  ...Object.keys(BASE_FIGURES),
  ...Object.keys(TREND_FIGURES),
  ...ASPECT_IDS.map((id) => `${ASPECT_FIGURE_PREFIX}${id}`),
];

const MAX_DECIMALS = 3;

function defaultDecimals(name: string): number {
  return (BASE_FIGURES as Record<string, number>)[name] ?? (TREND_FIGURES as Record<string, number>)[name] ?? 0;
}

/** Every figure an editor may quote, unrounded. */
export function computeFigures(dataset: ReviewsDataset, aspects: readonly AspectSummary[]): Record<string, number> {
  const total = dataset.reviews.length;
  const d = dataset.aggregate_rating.distribution;
  const pct = (n: number) => (total === 0 ? 0 : (n / total) * 100);
  const figures: Record<string, number> = {
    review_count: total,
    average_rating: total === 0 ? 0 : dataset.reviews.reduce((s, r) => s + r.rating, 0) / total,
    percent_five_star: pct(d[5]),
    percent_four_or_five_star: pct(d[4] + d[5]),
    percent_one_or_two_star: pct(d[1] + d[2]),
    technician_count: dataset.business.technicians.length,
  };
  for (const aspect of aspects)
    figures[`${ASPECT_FIGURE_PREFIX}${aspect.id}`] =
      aspect.mentions === 0 ? 0 : (aspect.positive / aspect.mentions) * 100;
  return figures;
}

// Braces around a run without spaces: a placeholder, or a mistaken one.
const PLACEHOLDER = /\{([^{}\s]*)\}/g;
const VALID = /^([a-z][a-z0-9_]*)(?::(\d))?$/;

export interface PlaceholderProblem {
  /** What the editor wrote, braces included. */
  written: string;
  message: string;
}

/** The mistakes among the placeholders of a text (none when every one names a figure). */
export function placeholderProblems(text: string): PlaceholderProblem[] {
  const problems: PlaceholderProblem[] = [];
  for (const match of text.matchAll(PLACEHOLDER)) {
    const message = checkPlaceholder(match[1]);
    if (message) problems.push({ written: match[0], message });
  }
  return problems;
}

function checkPlaceholder(inner: string): string | undefined {
  const parts = VALID.exec(inner);
  if (!parts)
    return `"{${inner}}" is not a placeholder: write {figure} or {figure:decimals}, e.g. {average_rating} or {average_rating:1}`;
  if (!FIGURE_NAMES.includes(parts[1])) return `unknown placeholder "{${inner}}" (known: ${FIGURE_NAMES.join(', ')})`;
  if (parts[2] !== undefined && Number(parts[2]) > MAX_DECIMALS)
    return `"{${inner}}" asks for ${parts[2]} decimals; at most ${MAX_DECIMALS}`;
  return undefined;
}

/** A figure as prose quotes it: "1,204", "4.16", "61". */
function formatFigure(value: number, decimals: number): string {
  return roundTo(value, decimals).toLocaleString('en-US', { maximumFractionDigits: decimals, useGrouping: true });
}

export interface FilledText {
  text: string;
  /** Each figure the text quoted (by name, or `name:decimals` when it named its decimals), rounded as quoted. */
  quoted: Record<string, number>;
}

/**
 * Replaces every placeholder with its figure. Callers check placeholderProblems
 * first (at load time, with the file and field); one that slips through throws.
 */
export function fillPlaceholders(text: string, figures: Readonly<Record<string, number>>): FilledText {
  const quoted: Record<string, number> = {};
  const filled = text.replace(PLACEHOLDER, (written, inner: string) => {
    const message = checkPlaceholder(inner);
    if (message) throw new Error(message);
    const [, name, decimals] = VALID.exec(inner)!;
    const places = decimals === undefined ? defaultDecimals(name) : Number(decimals);
    const value = figures[name];
    if (value === undefined) throw new Error(`no value computed for "${written}"`);
    // Keyed as written: `{average_rating}` and `{average_rating:1}` in one text are two quotes.
    quoted[decimals === undefined ? name : `${name}:${decimals}`] = roundTo(value, places);
    return formatFigure(value, places);
  });
  return { text: filled, quoted };
}

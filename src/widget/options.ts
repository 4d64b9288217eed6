/**
 * What a <roofing-reviews> element asks for, read from its attributes. A value
 * the widget cannot honour is a problem naming the attribute, never an
 * exception: the element then shows its fallback link (see element.ts).
 */

import { LOCALES, type Locale } from './locales/index.ts';

export const LAYOUTS = ['badge', 'list', 'compact', 'grid', 'carousel', 'collector'] as const;
export type Layout = (typeof LAYOUTS)[number];
/** Layouts that show reviews; `badge` and `collector` show the figures only. */
export const showsReviews = (layout: Layout): boolean => layout !== 'badge' && layout !== 'collector';

/** `auto` follows the visitor's `prefers-color-scheme`; `light` and `dark` follow the owner's site. */
const THEMES = ['auto', 'light', 'dark'] as const;
type Theme = (typeof THEMES)[number];

/** A widget is a teaser for the site, not the review list: a few reviews, ten at most. */
export const DEFAULT_WIDGET_LIMIT = 3;
export const MAX_WIDGET_LIMIT = 10;

/** The attributes the element reacts to; every other attribute is the host page's own business. */
export const WIDGET_ATTRIBUTES = ['layout', 'limit', 'min-rating', 'service', 'technician', 'theme', 'locale'] as const;
export type WidgetAttribute = (typeof WIDGET_ATTRIBUTES)[number];

export interface WidgetOptions {
  limit: number;
  layout: Layout;
  theme: Theme;
  locale: Locale;
  minRating?: number;
  /** A service id of the business (`roof-repair`). */
  service?: string;
  /** A technician's full name or id, matched case-insensitively like the search API does. */
  technician?: string;
}

export interface AttributeProblem {
  attribute: WidgetAttribute;
  value: string;
  expected: string;
}

export type ReadOptions = { ok: true; options: WidgetOptions } | { ok: false; problem: AttributeProblem };

function wholeNumber(value: string, min: number, max: number): number | undefined {
  if (!/^\s*\d+\s*$/.test(value)) return undefined;
  const n = Number(value);
  return n >= min && n <= max ? n : undefined;
}

export function readOptions(element: { getAttribute(name: string): string | null }): ReadOptions {
  const problem = (attribute: WidgetAttribute, value: string, expected: string): ReadOptions => ({
    ok: false,
    problem: { attribute, value, expected },
  });
  const options: WidgetOptions = { limit: DEFAULT_WIDGET_LIMIT, layout: 'list', theme: 'auto', locale: 'en' };

  const limit = element.getAttribute('limit');
  if (limit !== null) {
    const n = wholeNumber(limit, 1, MAX_WIDGET_LIMIT);
    if (n === undefined) return problem('limit', limit, `a whole number from 1 to ${MAX_WIDGET_LIMIT}`);
    options.limit = n;
  }
  for (const [attribute, allowed] of [
    ['layout', LAYOUTS],
    ['theme', THEMES],
    ['locale', LOCALES],
  ] as const) {
    const value = element.getAttribute(attribute);
    if (value === null) continue;
    const wanted = value.trim().toLowerCase();
    if (!(allowed as readonly string[]).includes(wanted))
      return problem(attribute, value, `one of ${allowed.join(', ')}`);
    (options as unknown as Record<string, string>)[attribute] = wanted;
  }
  const minRating = element.getAttribute('min-rating');
  if (minRating !== null) {
    const n = wholeNumber(minRating, 1, 5);
    if (n === undefined) return problem('min-rating', minRating, 'a whole number from 1 to 5');
    options.minRating = n;
  }
  for (const attribute of ['service', 'technician'] as const) {
    const value = element.getAttribute(attribute);
    if (value === null) continue;
    if (value.trim() === '')
      return problem(
        attribute,
        value,
        attribute === 'service' ? 'a service id of the business' : "a technician's name or id",
      );
    options[attribute] = value.trim();
  }
  return { ok: true, options };
}

/** Filters need the search API; without them the dataset's newest reviews are the answer. */
export function isFiltered(options: WidgetOptions): boolean {
  return options.minRating !== undefined || options.service !== undefined || options.technician !== undefined;
}

export function describeProblem({ attribute, value, expected }: AttributeProblem): string {
  return `attribute ${attribute}="${value}" must be ${expected}`;
}

/**
 * The list a visitor came to a review from, carried on the review's link as
 * `?from=<the list's query>`: the review page links back to that list and
 * moves to the previous and next review in it. A `from` that is not a list's
 * query is ignored (the page is still the review), never an error.
 */
import type { Business } from '../reviews/schema.ts';
import { filtersHref, parseFilters, type ReviewFilters } from './review-filters.ts';

export interface ListContext {
  filters: ReviewFilters;
  page: number;
}

/** The suffix for the review links of a list page: `?from=…`, or nothing for the first page of every review, newest first. */
export function fromSuffix(filters: ReviewFilters, page: number): string {
  const query = filtersHref(filters, page).split('?')[1];
  return query ? `?from=${encodeURIComponent(query)}` : '';
}

export function readListContext(params: URLSearchParams, business: Business): ListContext | undefined {
  const from = params.get('from');
  if (from === null || from.length > 400) return undefined;
  const parsed = parseFilters(new URLSearchParams(from), business);
  return parsed.ok ? { filters: parsed.filters, page: parsed.page } : undefined;
}

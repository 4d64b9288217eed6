/**
 * "All reviews" narrowed by stars, service, technician and a keyword, in an
 * order: the page's query parameters (`rating`, `service`, `technician`,
 * `query`, `sort`, `page`), read strictly; the matching reviews, paged, and
 * each choice's count, all answered by the search the API uses
 * (searchPositions, so `query` matches exactly what the API's `query`
 * matches); and the links between them, so that narrowing works with plain
 * links and a GET form, no JavaScript.
 */
import type { ReviewIndex } from '../reviews/review-index.ts';
import { searchQuery, type SearchQuery } from '../reviews/query.ts';
import type { Business } from '../reviews/schema.ts';
import { searchPositions } from '../reviews/search.ts';
import { REVIEWS_PER_PAGE, reviewPageCount } from './paging.ts';

const FILTERS_PATH = '/reviews';

export interface ReviewFilters {
  rating?: number;
  /** A service id of the business. */
  service?: string;
  /** A technician id of the business. */
  technician?: string;
  /** The API's `query`: a case-insensitive substring of the title or text. */
  query?: string;
  /** The order of the list; newest first when absent. */
  sort?: Exclude<SortOrder, 'newest'>;
}

/** The orders a visitor can choose, with their labels; the first is the default. */
export const SORT_ORDERS = [
  ['newest', 'Newest first'],
  ['oldest', 'Oldest first'],
  ['highest', 'Highest rated'],
  ['lowest', 'Lowest rated'],
  ['replied', 'With an owner reply first'],
] as const;
type SortOrder = (typeof SORT_ORDERS)[number][0];

type FilterName = 'rating' | 'service' | 'technician';
const PARAM_NAMES: readonly (keyof ReviewFilters)[] = ['rating', 'service', 'technician', 'query', 'sort'];
const RATINGS = [5, 4, 3, 2, 1] as const;
/** Beyond this a page number is not a page of any dataset this site serves. */
const MAX_PAGE_TEXT = /^[1-9]\d{0,6}$/;

interface FilterProblem {
  parameter: string;
  message: string;
}

export type ParsedFilters =
  { ok: true; filters: ReviewFilters; page: number } | { ok: false; problems: FilterProblem[] };

/**
 * The page's parameters. Other parameters (a campaign's `utm_*`) are left
 * alone, as a page does; an empty one counts as not given; a value that names
 * nothing of this business, or a repeated parameter, is a problem that names it.
 */
export function parseFilters(params: URLSearchParams, business: Business): ParsedFilters {
  const problems: FilterProblem[] = [];
  const filters: ReviewFilters = {};
  let page = 1;
  const single = (name: string): string | undefined => {
    const values = params.getAll(name).filter((value) => value !== '');
    if (values.length > 1)
      problems.push({ parameter: name, message: `${name} is given ${values.length} times; give it once` });
    return values.length === 1 ? values[0] : undefined;
  };
  const rating = single('rating');
  if (rating !== undefined) {
    if (/^[1-5]$/.test(rating)) filters.rating = Number(rating);
    else problems.push({ parameter: 'rating', message: 'rating must be a whole number from 1 to 5' });
  }
  for (const [name, known] of [
    ['service', business.services],
    ['technician', business.technicians],
  ] as const) {
    const id = single(name);
    if (id === undefined) continue;
    if (known.some((k) => k.id === id)) filters[name] = id;
    else
      problems.push({
        parameter: name,
        message: `${name} must be one of the business's ${name} ids (${known.map((k) => k.id).join(', ')})`,
      });
  }
  const query = single('query');
  if (query !== undefined) {
    // The API's own rule for `query`, so the page refuses exactly what the API refuses.
    const checked = searchQuery.shape.query.safeParse(query);
    if (checked.success) filters.query = query;
    else problems.push({ parameter: 'query', message: checked.error.issues[0]?.message ?? 'query is not valid' });
  }
  const sort = single('sort');
  if (sort !== undefined) {
    const known = SORT_ORDERS.map(([id]) => id);
    if (!(known as readonly string[]).includes(sort))
      problems.push({ parameter: 'sort', message: `sort must be one of ${known.join(', ')}` });
    else if (sort !== 'newest') filters.sort = sort as ReviewFilters['sort'];
  }
  const pageText = single('page');
  if (pageText !== undefined) {
    if (MAX_PAGE_TEXT.test(pageText)) page = Number(pageText);
    else problems.push({ parameter: 'page', message: 'page must be a whole number from 1' });
  }
  return problems.length > 0 ? { ok: false, problems } : { ok: true, filters, page };
}

/** The link to the filtered list: the parameters in one order, page 1 and absent filters left out. */
export function filtersHref(filters: ReviewFilters, page = 1): string {
  const params = new URLSearchParams();
  for (const name of PARAM_NAMES) if (filters[name] !== undefined) params.set(name, String(filters[name]));
  if (page > 1) params.set('page', String(page));
  const query = params.toString();
  return query ? `${FILTERS_PATH}?${query}` : FILTERS_PATH;
}

function searchFor(filters: ReviewFilters, limit: number): SearchQuery {
  const query: SearchQuery = { limit };
  if (filters.rating !== undefined) query.rating = filters.rating;
  if (filters.service !== undefined) query.mentions_service = filters.service;
  if (filters.technician !== undefined) query.mentions_technician = filters.technician;
  if (filters.query !== undefined) query.query = filters.query;
  return query;
}

export interface FilteredPage {
  total: number;
  page: number;
  lastPage: number;
  /** The place of this page's first review in the list, from 1. */
  first: number;
  /** Newest-first positions of this page's reviews in the index. */
  positions: number[];
}

/** One page of the reviews the filters match, in their order; undefined past the last page. */
export function filteredPage(index: ReviewIndex, filters: ReviewFilters, page: number): FilteredPage | undefined {
  const skipped = (page - 1) * REVIEWS_PER_PAGE;
  if (filters.sort === undefined) {
    // Newest first is the search's own order, and it hands back the first `limit` matches: ask for this page's end.
    const hits = searchPositions(index, searchFor(filters, page * REVIEWS_PER_PAGE));
    const lastPage = reviewPageCount(hits.total);
    if (page > lastPage) return undefined;
    return { total: hits.total, page, lastPage, first: skipped + 1, positions: hits.positions.slice(skipped) };
  }
  const ordered = orderedPositions(index, filters);
  const lastPage = reviewPageCount(ordered.length);
  if (page > lastPage) return undefined;
  return {
    total: ordered.length,
    page,
    lastPage,
    first: skipped + 1,
    positions: ordered.slice(skipped, skipped + REVIEWS_PER_PAGE),
  };
}

/** Every match in the filters' order: the search's newest-first answer, re-ordered (a stable sort keeps newest first among equals). */
export function orderedPositions(index: ReviewIndex, filters: ReviewFilters): number[] {
  const positions = searchPositions(index, searchFor(filters, index.length)).positions;
  const ratings = index.records.ratings;
  switch (filters.sort) {
    case undefined:
      return positions;
    case 'oldest':
      return positions.reverse();
    case 'highest':
      return positions.sort((a, b) => ratings[b]! - ratings[a]!);
    case 'lowest':
      return positions.sort((a, b) => ratings[a]! - ratings[b]!);
    case 'replied': {
      const replied = repliedPositions(index);
      return positions.sort((a, b) => replied[b]! - replied[a]!);
    }
  }
}

const replies = new WeakMap<ReviewIndex, Uint8Array>();
/** 1 at each position whose review has an owner reply: each record read once per index, then kept. */
function repliedPositions(index: ReviewIndex): Uint8Array {
  let replied = replies.get(index);
  if (!replied) {
    replied = new Uint8Array(index.length);
    for (let position = 0; position < index.length; position++)
      replied[position] = index.records.review(position).response ? 1 : 0;
    replies.set(index, replied);
  }
  return replied;
}

interface FacetChoice {
  label: string;
  /** Reviews matching the current filters with this choice in place of the facet's current one. */
  count: number;
  /** Where choosing it leads; for the active choice, the list without this facet. */
  href: string;
  active: boolean;
}

export interface Facet {
  name: FilterName;
  title: string;
  choices: FacetChoice[];
}

/**
 * The three facets with a count per choice: how many reviews the list would
 * hold with that choice and the other facets' current choices.
 */
export function facets(index: ReviewIndex, business: Business, filters: ReviewFilters): Facet[] {
  const facet = <V extends string | number>(
    name: FilterName,
    title: string,
    values: ReadonlyArray<{ value: V; label: string }>,
  ): Facet => ({
    name,
    title,
    choices: values.map(({ value, label }) => {
      const chosen = { ...filters, [name]: value };
      const active = filters[name] === value;
      const without = { ...filters };
      delete without[name];
      return {
        label,
        count: searchPositions(index, searchFor(chosen, 0)).total,
        href: filtersHref(active ? without : chosen),
        active,
      };
    }),
  });
  return [
    facet(
      'rating',
      'Stars',
      RATINGS.map((n) => ({ value: n, label: `${n} star${n === 1 ? '' : 's'}` })),
    ),
    facet(
      'service',
      'Service',
      business.services.map((s) => ({ value: s.id, label: s.name })),
    ),
    facet(
      'technician',
      'Technician',
      business.technicians.map((t) => ({ value: t.id, label: t.name })),
    ),
  ];
}

/** The filters in words, for the title and the lede: "rated 5 stars, about Gutter installation and repair, naming Dave Kowalski". */
export function describeFilters(filters: ReviewFilters, business: Business): string {
  const parts: string[] = [];
  if (filters.query !== undefined) parts.push(`mentioning “${filters.query}”`);
  if (filters.rating !== undefined) parts.push(`rated ${filters.rating} star${filters.rating === 1 ? '' : 's'}`);
  if (filters.service !== undefined)
    parts.push(`about ${business.services.find((s) => s.id === filters.service)?.name ?? filters.service}`);
  if (filters.technician !== undefined)
    parts.push(`naming ${business.technicians.find((t) => t.id === filters.technician)?.name ?? filters.technician}`);
  return parts.join(', ');
}

/**
 * Where the widget's figures and reviews come from: the static /widget.json
 * (business, aggregate rating, the newest few reviews; the same size whatever
 * the number of reviews) and, when the element filters, GET
 * /api/reviews/search with a `limit`, so a filter means exactly what the API
 * says it means. Plain fetch with the browser's HTTP cache: the service sends
 * `Cache-Control: max-age=60` and strong ETags, so repeat views within a
 * minute cost no request and later ones a 304 revalidation.
 */
import type { SiteLinks } from '../lib/feeds/links.ts';
import type { SearchQuery } from '../lib/reviews/query.ts';
import type { SearchResponse } from '../lib/reviews/responses.ts';
import type { WidgetDataset, WidgetReview } from '../lib/widget/dataset.ts';
import { isFiltered, showsReviews, type AttributeProblem, type WidgetOptions } from './options.ts';

export interface WidgetData {
  business: WidgetDataset['business'];
  ratingValue: number;
  reviewCount: number;
  reviews: WidgetReview[];
}

export type LoadResult = { ok: true; data: WidgetData } | { ok: false; problem: AttributeProblem };

/** A request that did not give usable JSON: offline, a timeout, a non-2xx status, a body of the wrong shape. */
export class LoadError extends Error {}

/** A hung service must not leave a skeleton on the owner's page forever. */
const TIMEOUT_MS = 10_000;

/** Several widgets on one page share one request per URL; a failed one is forgotten so a later try refetches. */
const inFlight = new Map<string, Promise<unknown>>();

function getJson<T>(url: string): Promise<T> {
  let request = inFlight.get(url) as Promise<T> | undefined;
  if (!request) {
    request = fetchJson<T>(url);
    inFlight.set(url, request);
    request.catch(() => inFlight.delete(url));
  }
  return request;
}

async function fetchJson<T>(url: string): Promise<T> {
  let response: Response;
  try {
    response = await fetch(url, { credentials: 'omit', signal: AbortSignal.timeout(TIMEOUT_MS) });
  } catch (error) {
    throw new LoadError(`could not reach ${url} (${error instanceof Error ? error.name : 'network error'})`);
  }
  if (!response.ok) throw new LoadError(`${url} answered HTTP ${response.status}`);
  try {
    return (await response.json()) as T;
  } catch {
    throw new LoadError(`${url} did not answer JSON`);
  }
}

/** The search URL for the element's filters, with the API's own parameter names. */
function searchUrl(links: SiteLinks, options: WidgetOptions): string {
  const query: Partial<Record<keyof SearchQuery, string>> = { limit: String(options.limit) };
  if (options.minRating !== undefined) query.min_rating = String(options.minRating);
  if (options.service !== undefined) query.mentions_service = options.service;
  if (options.technician !== undefined) query.mentions_technician = options.technician;
  const url = new URL('/api/reviews/search', links.home);
  for (const [name, value] of Object.entries(query)) url.searchParams.set(name, value);
  return url.href;
}

/**
 * An unknown service or technician is no error for the API (it matches
 * nothing), but on a widget it is almost surely a typo: the owner is told
 * which attribute, rather than shown an empty box.
 */
function unknownFilter(business: WidgetData['business'], options: WidgetOptions): AttributeProblem | undefined {
  if (options.service !== undefined && !business.services.some((s) => s.id === options.service)) {
    return {
      attribute: 'service',
      value: options.service,
      expected: `one of the service ids ${business.services.map((s) => s.id).join(', ')}`,
    };
  }
  const wanted = options.technician?.toLowerCase();
  if (
    wanted !== undefined &&
    !business.technicians.some((t) => t.id.toLowerCase() === wanted || t.name.toLowerCase() === wanted)
  ) {
    return {
      attribute: 'technician',
      value: options.technician!,
      expected: `a technician's name or id: ${business.technicians.map((t) => t.id).join(', ')}`,
    };
  }
  return undefined;
}

function checkedDataset(value: unknown, url: string): WidgetDataset {
  const dataset = value as Partial<WidgetDataset> | null;
  if (
    !dataset?.business?.name ||
    typeof dataset.aggregate_rating?.rating_value !== 'number' ||
    !Array.isArray(dataset.reviews)
  ) {
    throw new LoadError(`${url} is not the widget's dataset`);
  }
  return dataset as WidgetDataset;
}

export async function loadWidgetData(links: SiteLinks, options: WidgetOptions): Promise<LoadResult> {
  // Both requests start at once (getJson already handles a rejection, so an early return leaves none unhandled).
  const filtered = isFiltered(options) && showsReviews(options.layout);
  const search = filtered ? getJson<SearchResponse>(searchUrl(links, options)) : undefined;
  const url = new URL('/widget.json', links.home).href;
  const dataset = checkedDataset(await getJson<unknown>(url), url);
  const problem = unknownFilter(dataset.business, options);
  if (problem) return { ok: false, problem };
  if (options.layout === 'collector' && !dataset.business.write_review)
    return {
      ok: false,
      problem: {
        attribute: 'layout',
        value: 'collector',
        expected: 'used with a review link (write_review in business.yaml)',
      },
    };
  let reviews = dataset.reviews.slice(0, options.limit);
  if (search) {
    const found = await search;
    if (!Array.isArray(found?.reviews)) throw new LoadError('the search answer has no reviews');
    reviews = found.reviews;
  }
  const { rating_value: ratingValue, review_count: reviewCount } = dataset.aggregate_rating;
  return { ok: true, data: { business: dataset.business, ratingValue, reviewCount, reviews } };
}

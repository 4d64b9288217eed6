/**
 * GET /api/reviews/search and GET /api/reviews/since/{date}: parse, call the
 * index, answer with validators. Everything a client can send ends in a 200,
 * a 304 or a 400 that names the parameter.
 */
import type { ApiAnswer, ApiRequest } from '../http/answer.ts';
import { invalidRequest } from '../http/json.ts';
import { newestUpdated } from '../reviews/dataset.ts';
import { getReviewIndex } from '../reviews/index.ts';
import { validate } from '../http/issues.ts';
import { fromSearchParams, sinceDate, type SearchQuery } from '../reviews/query.ts';
import type { Review } from '../reviews/schema.ts';
import { searchReviews } from '../reviews/search.ts';
import { reviewsSince, sinceLastModified } from '../reviews/since.ts';
import { BodyCache, cachedBody, conditionalJsonAnswer, type CachedBody } from './cached-json.ts';
import { ReviewJson } from './review-json.ts';
import type { ApiContext } from './context.ts';

const caches = new WeakMap<ApiContext['dataset'], BodyCache>();
const reviewJson = new WeakMap<ApiContext['dataset'], ReviewJson>();

/** The answers kept for one dataset (exported for tests, which check its budget: no HTTP route shows it). */
export function cacheFor(context: ApiContext): BodyCache {
  let cache = caches.get(context.dataset);
  if (!cache) caches.set(context.dataset, (cache = new BodyCache()));
  return cache;
}

function reviewJsonFor(context: ApiContext): ReviewJson {
  let json = reviewJson.get(context.dataset);
  if (!json) reviewJson.set(context.dataset, (json = new ReviewJson()));
  return json;
}

export function searchEndpoint(request: ApiRequest, context: ApiContext): ApiAnswer {
  const cache = cacheFor(context);
  // A query string seen before was valid then and is valid now: answer it without parsing again.
  // Past MAX_ALIAS_KEY_LENGTH (a padded spelling) the cache neither finds nor keeps it by its raw text.
  const rawKey = `search${request.search}`;
  let cached = cache.getByAlias(rawKey);
  if (!cached) {
    const parsed = fromSearchParams(new URLSearchParams(request.search));
    if (!parsed.ok) return invalidRequest(parsed.issues);
    // The same query written another way (order, defaults) shares one body and one ETag.
    const key = `search:${canonicalKey(parsed.value)}`;
    cached = cache.get(key);
    if (!cached) {
      const result = searchReviews(getReviewIndex(context.dataset), parsed.value);
      cached = cachedBody(reviewJsonFor(context).body(result), lastModifiedOf(result.reviews, context));
      cache.set(key, cached);
    }
    cache.alias(rawKey, key);
  }
  return conditionalJsonAnswer(request, cached);
}

export function sinceEndpoint(request: ApiRequest, context: ApiContext, rawDate: string): ApiAnswer {
  const cache = cacheFor(context);
  const key = `since:${rawDate}`;
  let cached: CachedBody | undefined = request.search === '' ? cache.get(key) : undefined;
  if (!cached) {
    const parsed = validate(sinceDate, rawDate);
    if (!parsed.ok) return invalidRequest(parsed.issues.map((issue) => ({ ...issue, path: ['date'], message: `date: ${issue.message}` })));
    if (request.search !== '') {
      const names = [...new Set(new URLSearchParams(request.search).keys())];
      if (names.length > 0) {
        return invalidRequest(names.map((name) => ({ code: 'unrecognized_keys', path: [name], message: `unknown parameter "${name}": this endpoint takes none` })));
      }
    }
    const index = getReviewIndex(context.dataset);
    const result = reviewsSince(index, parsed.value);
    cached = cachedBody(reviewJsonFor(context).body(result), sinceLastModified(index, parsed.value) ?? context.dataset.updated);
    if (request.search === '') cache.set(key, cached);
  }
  return conditionalJsonAnswer(request, cached);
}

/** The newest `updated` among the reviews served, or the dataset's when none are. */
function lastModifiedOf(reviews: readonly Review[], context: ApiContext): string {
  return reviews.length === 0 ? context.dataset.updated : newestUpdated(reviews);
}

function canonicalKey(query: SearchQuery): string {
  return JSON.stringify(Object.entries(query).sort(([a], [b]) => (a < b ? -1 : 1)));
}

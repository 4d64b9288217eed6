/**
 * GET /api/reviews/search and GET /api/reviews/since/{date}: parse, call the
 * index, answer with validators. Everything a client can send ends in a 200,
 * a 304 or a 400 that names the parameter, or for a search not in the cache, a
 * 429 once the client has asked for too many of those.
 */
import type { ApiAnswer, ApiRequest } from '../http/answer.ts';
import { invalidRequest, tooManyRequests } from '../http/json.ts';
import { newestInstant } from '../reviews/published-dataset.ts';
import { getReviewIndex, type ReviewIndex } from '../reviews/review-index.ts';
import { validate } from '../http/issues.ts';
import { fromSearchParams, sinceDate, type SearchQuery } from '../reviews/query.ts';
import { searchPositions } from '../reviews/search.ts';
import { sinceLastModified, sincePage } from '../reviews/since.ts';
import { answerCached, cachedBody, type CachedBody } from '../http/representation.ts';
import { BodyCache } from './answer-cache.ts';
import { bodyWithRecords } from './review-json.ts';
import type { ApiClient, ApiContext } from './context.ts';

const caches = new WeakMap<ApiContext['dataset'], BodyCache>();

/** The answers kept for one dataset. */
export function cacheFor(context: ApiContext): BodyCache {
  let cache = caches.get(context.dataset);
  if (!cache) caches.set(context.dataset, (cache = new BodyCache()));
  return cache;
}

/** `client` is counted only when the answer is not cached (context.searchMisses). */
export function searchEndpoint(request: ApiRequest, context: ApiContext, client?: ApiClient): ApiAnswer {
  const cache = cacheFor(context);
  // A query string seen before was valid then and is valid now: answer it without parsing again.
  // Past MAX_ALIAS_KEY_LENGTH (a padded spelling) the cache neither finds nor keeps it by its raw text.
  const rawKey = `search${request.search}`;
  const seenKey = cache.keyOf(rawKey);
  const seen = seenKey === undefined ? undefined : cache.get(seenKey);
  if (seenKey !== undefined && seen) return answerCached(request.headers, seen);
  const parsed = fromSearchParams(new URLSearchParams(request.search));
  if (!parsed.ok) return invalidRequest(parsed.issues);
  // The same query written another way (order, defaults) shares one body and one ETag.
  const key = `search:${canonicalKey(parsed.value)}`;
  let cached = cache.get(key);
  if (!cached) {
    const verdict = context.searchMisses?.take(client?.address ?? 'unknown');
    if (verdict && !verdict.ok) {
      return tooManyRequests(
        `Too many new searches from this address; try again in ${verdict.retryAfterSeconds} s. Searches asked before still answer.`,
        verdict.retryAfterSeconds,
      );
    }
    const index = getReviewIndex(context.dataset);
    const { positions, ...hits } = searchPositions(index, parsed.value);
    const envelope = { total: hits.total, count: positions.length, limit: hits.limit };
    cached = cachedBody(
      bodyWithRecords(envelope, index.records, positions),
      lastModifiedOf(index, positions, context),
      () => cache.recount(key),
    );
    cache.set(key, cached);
  }
  cache.alias(rawKey, key);
  return answerCached(request.headers, cached);
}

export function sinceEndpoint(request: ApiRequest, context: ApiContext, rawDate: string): ApiAnswer {
  const cache = cacheFor(context);
  const key = `since:${rawDate}`;
  let cached: CachedBody | undefined = request.search === '' ? cache.get(key) : undefined;
  if (!cached) {
    const parsed = validate(sinceDate, rawDate);
    if (!parsed.ok)
      return invalidRequest(
        parsed.issues.map((issue) => ({ ...issue, path: ['date'], message: `date: ${issue.message}` })),
      );
    if (request.search !== '') {
      const names = [...new Set(new URLSearchParams(request.search).keys())];
      if (names.length > 0) {
        return invalidRequest(
          names.map((name) => ({
            code: 'unrecognized_keys',
            path: [name],
            message: `unknown parameter "${name}": this endpoint takes none`,
          })),
        );
      }
    }
    const index = getReviewIndex(context.dataset);
    const { positions, ...envelope } = sincePage(index, parsed.value);
    cached = cachedBody(
      bodyWithRecords(envelope, index.records, positions),
      sinceLastModified(index, parsed.value) ?? context.dataset.updated,
      () => cache.recount(key),
    );
    if (request.search === '') cache.set(key, cached);
  }
  return answerCached(request.headers, cached);
}

/** The newest `updated` among the reviews served, or the dataset's when none are. */
function lastModifiedOf(index: ReviewIndex, positions: readonly number[], context: ApiContext): string {
  return positions.length === 0
    ? context.dataset.updated
    : newestInstant(positions.map((position) => index.records.updates[position]!));
}

function canonicalKey(query: SearchQuery): string {
  return JSON.stringify(Object.entries(query).sort(([a], [b]) => (a < b ? -1 : 1)));
}

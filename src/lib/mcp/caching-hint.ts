/**
 * The caching hint of the 2026-07-28 list and read results, derived from the
 * `Cache-Control` the same data carries over REST (CONTENT_CACHE), so the two
 * never disagree: public (nothing per caller), fresh for its `max-age`.
 */
import { CONTENT_CACHE } from '../static/manifest.ts';

function maxAgeSeconds(cacheControl: string): number {
  const match = /(?:^|,)\s*max-age=(\d+)/i.exec(cacheControl);
  if (!match) throw new Error(`no max-age in Cache-Control ${JSON.stringify(cacheControl)}`);
  return Number(match[1]);
}

export const CACHE_HINT = {
  ttlMs: maxAgeSeconds(CONTENT_CACHE) * 1000,
  cacheScope: /(?:^|,)\s*public\b/i.test(CONTENT_CACHE) ? 'public' : 'private',
} as const satisfies { ttlMs: number; cacheScope: 'public' | 'private' };

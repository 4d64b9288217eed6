/**
 * What a request handler needs from the running service: the build's own
 * dataset (loaded once per process, never re-read from content files) and the
 * site's base URL. The Node server and the Astro routes both build one.
 */
import type { SearchMissLimit } from '../limits/search-misses.ts';
import type { DatasetSource } from '../reviews/review-index.ts';

export interface ApiContext {
  site: string;
  /** The dataset object (Astro routes) or its compact records (the Node server). */
  dataset: DatasetSource;
  /** Searches answered outside the cache, per client (src/lib/limits/search-misses.ts); absent: not limited. */
  searchMisses?: SearchMissLimit;
}

/** Who sent the request, for rate limits (src/lib/http/client-address.ts decides). */
export interface ApiClient {
  address: string;
}

/**
 * What a request handler needs from the running service: the build's own
 * dataset (loaded once per process, never re-read from content files) and the
 * site's base URL. The Node server and the Astro routes both build one.
 */
import type { ReviewsDataset } from '../reviews/schema.ts';

export interface ApiContext {
  site: string;
  dataset: ReviewsDataset;
}

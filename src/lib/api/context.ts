/**
 * What a request handler needs from the running service: the build's own
 * dataset (loaded once per process, never re-read from content files) and the
 * site's base URL. The Node server and the Astro routes both build one.
 */
import type { DatasetSource } from '../reviews/review-index.ts';
import type { AnswerBuffers } from './answer-buffers.ts';

export interface ApiContext {
  site: string;
  /** The dataset object (Astro routes) or its compact records (the Node server). */
  dataset: DatasetSource;
  /**
   * Reused buffers for answers too large to cache. Only a caller that calls every answer's
   * `release` once its body is written may set this (the Node entry); the others allocate.
   */
  answerBuffers?: AnswerBuffers;
}

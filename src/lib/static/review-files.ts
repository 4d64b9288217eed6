/**
 * One review as JSON, /reviews/{id}.json: the review's record exactly as
 * reviews.json holds it, with the record's own `updated` as Last-Modified.
 * Made on request from the dataset in memory (the Node server's, or the
 * content collections on a serverless host), not written by the build.
 */
import { httpDate } from '../http/conditional.ts';
import { JSON_TYPE, toJsonBody } from '../http/json.ts';
import type { Review, ReviewsDataset } from '../reviews/schema.ts';
import { renderedFile, type RenderedFile, type RenderedFiles } from './rendered.ts';

const REVIEW_JSON = /^\/reviews\/([^/]+)\.json$/;

export function reviewJsonFile(review: Review, precompress: boolean): RenderedFile {
  const path = `/reviews/${review.id}.json`;
  return renderedFile(path, Buffer.from(toJsonBody(review)), { contentType: JSON_TYPE, lastModified: httpDate(review.updated), precompress });
}

/** Reviews by id, made once per dataset (a serverless route asks on every request). */
const indexes = new WeakMap<ReviewsDataset, Map<string, Review>>();

export function reviewJsonFiles(dataset: ReviewsDataset, precompress: boolean): RenderedFiles {
  const byId = indexes.get(dataset) ?? new Map(dataset.reviews.map((review) => [review.id, review]));
  indexes.set(dataset, byId);
  return {
    owns: (pathname) => REVIEW_JSON.test(pathname),
    render(pathname) {
      const review = byId.get(REVIEW_JSON.exec(pathname)?.[1] ?? '');
      return review && reviewJsonFile(review, precompress);
    },
  };
}

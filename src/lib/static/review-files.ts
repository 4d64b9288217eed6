/**
 * One review as JSON, /reviews/{id}.json: the review's record exactly as
 * reviews.json holds it, with the record's own `updated` as Last-Modified.
 * Made on request from the dataset in memory (the Node server's, or the
 * content collections on a serverless host), not written by the build.
 */
import { httpDate } from '../http/conditional.ts';
import { JSON_TYPE, toJsonBody } from '../http/json.ts';
import { reviewById } from '../reviews/dataset.ts';
import type { Review, ReviewsDataset } from '../reviews/schema.ts';
import { renderedFile, type RenderedFile, type RenderedFiles } from './rendered.ts';

const REVIEW_JSON = /^\/reviews\/([^/]+)\.json$/;

export function reviewJsonFile(review: Review, precompress: boolean): RenderedFile {
  const path = `/reviews/${review.id}.json`;
  return renderedFile(path, Buffer.from(toJsonBody(review)), { contentType: JSON_TYPE, lastModified: httpDate(review.updated), precompress });
}

export function reviewJsonFiles(dataset: ReviewsDataset, precompress: boolean): RenderedFiles {
  return {
    owns: (pathname) => REVIEW_JSON.test(pathname),
    render(pathname) {
      const review = reviewById(dataset, REVIEW_JSON.exec(pathname)?.[1] ?? '');
      return review && reviewJsonFile(review, precompress);
    },
  };
}

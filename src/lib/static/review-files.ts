/**
 * One review as JSON, /reviews/{id}.json: the review's record exactly as
 * reviews.json holds it, with the record's own `updated` as Last-Modified.
 * Made on request from the dataset's records (the Node server's, read from
 * reviews.json by offset, or the content collections' on a serverless host),
 * not written by the build.
 */
import { httpDate } from '../http/conditional.ts';
import { JSON_TYPE } from '../http/json.ts';
import { getReviewIndex, type DatasetSource } from '../reviews/review-index.ts';
import { renderedFile, type RenderedFiles } from './rendered.ts';

const REVIEW_JSON = /^\/reviews\/([^/]+)\.json$/;
const NEWLINE = Buffer.from('\n');

export function reviewJsonFiles(dataset: DatasetSource, precompress: boolean): RenderedFiles {
  return {
    owns: (pathname) => REVIEW_JSON.test(pathname),
    render(pathname) {
      const index = getReviewIndex(dataset);
      const position = index.byId(REVIEW_JSON.exec(pathname)?.[1] ?? '');
      if (position === undefined) return undefined;
      // The record's bytes and the newline every JSON body ends with: toJsonBody(review).
      const body = Buffer.concat([index.records.json(position), NEWLINE]);
      return renderedFile(pathname, body, {
        contentType: JSON_TYPE,
        lastModified: httpDate(index.records.updates[position]!),
        precompress,
      });
    },
  };
}

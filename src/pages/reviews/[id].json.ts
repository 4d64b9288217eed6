/**
 * One review as JSON, /reviews/{id}.json, made on request from the dataset
 * (src/lib/static/review-files.ts): the review's record exactly as reviews.json
 * holds it, so the MCP resource template's URIs resolve over HTTP and a client
 * can fetch (and revalidate) one review alone. Answered like a static data file
 * (strong content-hash ETag, 304s, CORS, Cache-Control for the CDN, Last-Modified
 * from the record's own `updated`). The Node entry answers these paths itself
 * with compressed variants; this route serves them on the serverless hosts,
 * whose CDNs compress and cache. Not a file per review: 100k files at 100k reviews.
 */
import type { APIRoute } from 'astro';
import { getDatasetSource } from '../../route-services/dataset.ts';
import { toResponse } from '../../lib/http/answer.ts';
import { preflightAnswer } from '../../lib/http/cors.ts';
import { notFound } from '../../lib/http/json.ts';
import { answerRendered } from '../../lib/static/rendered.ts';
import { reviewJsonFiles } from '../../lib/static/review-files.ts';

export const prerender = false;

export const GET: APIRoute = async ({ url, request }) => {
  const file = reviewJsonFiles(await getDatasetSource(), false).render(url.pathname);
  return toResponse(file ? answerRendered(file, request.headers) : notFound());
};

export const OPTIONS: APIRoute = ({ request }) => toResponse(preflightAnswer(request.headers, ['GET', 'HEAD']));

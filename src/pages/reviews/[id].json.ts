/**
 * One review as a static JSON file, /reviews/{id}.json: the review's record
 * exactly as reviews.json holds it, so the MCP resource template's URIs resolve
 * over HTTP and a client can fetch (and revalidate) one review alone. The Node
 * entry and the CDNs serve it like the other data files (ETag, CORS, Last-Modified
 * from the record's own `updated`). An unknown id falls through to the review
 * page route, which answers the 404 page.
 */
import type { APIRoute, GetStaticPaths } from 'astro';
import { getDataset } from '../../data/dataset.ts';
import { toJsonBody } from '../../lib/http/json.ts';
import type { Review } from '../../lib/reviews/schema.ts';

export const prerender = true;

export const getStaticPaths = (async () => {
  const dataset = await getDataset();
  return dataset.reviews.map((review) => ({ params: { id: review.id }, props: { review } }));
}) satisfies GetStaticPaths;

export const GET: APIRoute<{ review: Review }> = ({ props }) =>
  new Response(toJsonBody(props.review), { headers: { 'content-type': 'application/json; charset=utf-8' } });

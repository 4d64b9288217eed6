import type { APIRoute } from 'astro';
import { datasetJsonBody } from '../data/dataset.ts';

export const prerender = true;

export const GET: APIRoute = async () =>
  new Response((await datasetJsonBody()) as BodyInit, { headers: { 'content-type': 'application/json; charset=utf-8' } });

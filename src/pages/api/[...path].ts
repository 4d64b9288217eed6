/** Every /api/ path but the hub and the cron sweep: search, since, and a JSON 404 (or 405 where a path exists), all from the one REST routing. */
import type { APIRoute } from 'astro';
import { getApiContext } from '../../route-services/api-context.ts';
import { handleApiRequest } from '../../lib/api/routes.ts';
import { routeClient } from '../../hosts/route-client.ts';

export const prerender = false;

export const ALL: APIRoute = async (context) =>
  handleApiRequest(context.request, await getApiContext(), routeClient(context));

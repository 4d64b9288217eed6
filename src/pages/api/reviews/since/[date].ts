import type { APIRoute } from 'astro';
import { getApiContext } from '../../../../route-services/api-context.ts';
import { handleApiRequest } from '../../../../lib/api/routes.ts';
import { routeClient } from '../../../../hosts/route-client.ts';

export const prerender = false;

export const ALL: APIRoute = async (context) =>
  handleApiRequest(context.request, await getApiContext(), routeClient(context));

import type { APIRoute } from 'astro';
import { getApiContext } from '../../../../route-services/api-context.ts';
import { handleApiRequest } from '../../../../lib/api/routes.ts';

export const prerender = false;

export const ALL: APIRoute = async ({ request }) => handleApiRequest(request, await getApiContext());

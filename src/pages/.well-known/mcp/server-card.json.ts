/** GET /.well-known/mcp/server-card.json: the MCP server card (SEP-2127, a draft), a static data file. */
import type { APIRoute } from 'astro';
import { serverCardResponse } from '../../../route-services/server-card.ts';

export const prerender = true;

export const GET: APIRoute = () => serverCardResponse();

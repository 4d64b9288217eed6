/** GET /.well-known/mcp.json: the MCP server card at the earlier proposal's path, the same bytes. */
import type { APIRoute } from 'astro';
import { serverCardResponse } from '../../route-services/server-card.ts';

export const prerender = true;

export const GET: APIRoute = () => serverCardResponse();

/** MCP over streamable HTTP (see src/lib/mcp/http-handler.ts): every method goes to the one handler. */
import type { APIRoute } from 'astro';
import { getMcpHandler } from '../data/mcp.ts';

export const prerender = false;

export const ALL: APIRoute = async ({ request }) => (await getMcpHandler())(request);

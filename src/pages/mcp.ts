/**
 * MCP over streamable HTTP (see src/lib/mcp/http-handler.ts): every method goes to the one handler.
 * A serverless deployment without REDIS_URL / MCP_SESSION_SECRET still serves 2026-07-28 clients;
 * only 2025-era sessions answer 503 naming the missing settings (src/data/mcp.ts).
 */
import type { APIRoute } from 'astro';
import { getMcpHandler } from '../data/mcp.ts';

export const prerender = false;

export const ALL: APIRoute = async ({ request }) => (await getMcpHandler())(request);

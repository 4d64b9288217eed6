/** The MCP server card's bytes at build time, from the content the /mcp handler serves (mcp-handler.ts). */
import { serverCardJson } from '../lib/mcp/server-card.ts';
import { getDatasetSource } from './dataset.ts';
import { getInsights } from './insights.ts';
import { getModerationLog } from './moderation.ts';
import { astroSite } from './site-origin.ts';

export async function serverCardResponse(): Promise<Response> {
  const body = serverCardJson({
    site: astroSite(),
    dataset: await getDatasetSource(),
    insights: (await getInsights()) as unknown as Record<string, unknown>,
    moderation: await getModerationLog(),
  });
  return new Response(body, { headers: { 'content-type': 'application/json; charset=utf-8' } });
}

/**
 * The MCP server card (SEP-2127, a draft): what a client can learn about /mcp
 * before connecting, served as a static file at /.well-known/mcp/server-card.json
 * and /.well-known/mcp.json. Its tools, resources and prompts are the lists the
 * catalog answers to tools/list, resources/list and prompts/list, and its
 * capabilities, version and instructions those of server/discover, taken from
 * the same objects, so the card cannot say anything the server does not.
 */
import { siteLinks } from '../feeds/links.ts';
import { createCatalog } from './catalog.ts';
import { SERVER_INFO, type McpContent } from './definitions.ts';
import { SERVED_PROTOCOL_VERSIONS } from './protocol.ts';
import { CAPABILITIES } from './servers.ts';

/** The schema URI as the draft names it (the draft may still change it). */
const SERVER_CARD_SCHEMA = 'https://static.modelcontextprotocol.io/schemas/v1/server-card.schema.json';
/** The `_meta` key under which the card says it follows a draft. */
const DRAFT_META_KEY = 'roofing-reviews/server-card';

/** The card's `name`: the site's host in reverse-DNS order, which the site's owner can prove to a registry. */
function cardName(site: string): string {
  const host = new URL(site).hostname;
  const reversed = /^[\d.]+$|:/.test(host) ? host : host.split('.').reverse().join('.');
  return `${reversed.replace(/[^a-zA-Z0-9.-]/g, '-')}/${SERVER_INFO.name}`;
}

function serverCard(content: McpContent) {
  const catalog = createCatalog(content);
  // The list handlers never refuse; a refusal here would be a bug, thrown as such.
  const lists = catalog.handlers((code, message) => new Error(`${code}: ${message}`));
  const links = siteLinks(content.site);
  const business = content.dataset.business.name;
  return {
    $schema: SERVER_CARD_SCHEMA,
    name: cardName(content.site),
    version: SERVER_INFO.version,
    title: `${business} reviews`,
    description: `Read-only access to the verified customer reviews of ${business}: search, one review, new reviews since a date, the business's services and technicians${content.insights ? ', sentiment insights' : ''}.`,
    websiteUrl: links.home,
    remotes: [
      {
        type: 'streamable-http',
        url: new URL('/mcp', links.home).href,
        supportedProtocolVersions: [...SERVED_PROTOCOL_VERSIONS],
        authentication: { required: false, schemes: [] },
      },
    ],
    capabilities: CAPABILITIES,
    resources: lists['resources/list']().resources,
    tools: lists['tools/list']().tools,
    prompts: lists['prompts/list']().prompts,
    _meta: {
      [DRAFT_META_KEY]: {
        status: 'draft',
        specification:
          'SEP-2127 (MCP Server Cards), a draft: this format may change. tools/list and server/discover are authoritative.',
        serverInfo: { ...SERVER_INFO },
        instructions: catalog.instructions,
        resourceTemplates: lists['resources/templates/list']().resourceTemplates,
      },
    },
  };
}

/** The card's file: the same bytes at both well-known paths (src/pages/.well-known/). */
export function serverCardJson(content: McpContent): string {
  return `${JSON.stringify(serverCard(content), null, 2)}\n`;
}

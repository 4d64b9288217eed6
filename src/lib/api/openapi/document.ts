/**
 * The OpenAPI 3.1.0 description of the whole public interface (/openapi.json,
 * rendered at /api-reference). Every record, response and parameter schema is
 * generated from the zod schemas the server validates and serialises with, so
 * the document cannot drift from the code: the search parameters are
 * `searchQuery.shape`, the bodies are `reviewsDataset`, `review`,
 * `searchResponse`, `sinceResponse` and the error schemas. What is written here by hand is only
 * what HTTP adds (statuses, headers, methods) and the shapes with no schema
 * elsewhere (JSON Feed, JSON-RPC envelope, the hub's form).
 *
 * Deterministic: the same site gives the same bytes (no clock, no content).
 */
import { generateComponents } from './component-schemas.ts';
import type { OpenApiDocument } from './document-types.ts';
import { HEADERS, PARAMETERS, RESPONSES } from './http-components.ts';
import { mcpPath } from './mcp-path.ts';
import { readPaths } from './read-paths.ts';
import { websubHubPath } from './websub-path.ts';

const OPENAPI_VERSION = '3.1.0';
const API_VERSION = '1.0.0';

export function buildOpenApiDocument(site: string): OpenApiDocument {
  const origin = new URL(site).origin;
  const schemas = generateComponents(origin);
  const paths = { ...readPaths(), '/mcp': mcpPath(), '/api/websub/hub': websubHubPath(origin) };

  return {
    openapi: OPENAPI_VERSION,
    info: {
      title: 'Verified roofing reviews',
      version: API_VERSION,
      summary: 'Read-only public data: verified customer reviews of one roofing business, with sentiment insights.',
      description:
        'Every endpoint is public and read-only: no key, no account, no token; an Authorization header is ignored. JSON field names are snake_case, dates are YYYY-MM-DD and instants RFC 3339 UTC. Every JSON body ends with a newline. Records may gain fields: ignore the ones you do not know.\n\n' +
        'Conditional GET: every data response carries a strong ETag (SHA-256 of the body) and, where it applies, Last-Modified. Send them back in If-None-Match / If-Modified-Since; an unchanged resource answers 304 with an empty body. If-None-Match wins when both are sent.\n\n' +
        'Errors: 400 `{ "error": "invalid_request", "issues": [{ "code", "path", "message" }] }`; other JSON errors `{ "error", "message" }`. Unknown /api/ paths are 404, wrong methods 405 with Allow.\n\n' +
        'CORS: every GET answers Access-Control-Allow-Origin: * and exposes ETag and Last-Modified; preflights are answered.',
    },
    servers: [{ url: origin, description: 'This site' }],
    tags: [
      { name: 'Datasets', description: 'Static JSON files with the whole data, rebuilt when content changes.' },
      { name: 'Feeds', description: 'The newest reviews as JSON Feed and Atom, both WebSub topics.' },
      { name: 'Reviews', description: 'Search and incremental sync over the same reviews.' },
      { name: 'MCP', description: 'Model Context Protocol server for AI assistants.' },
      { name: 'WebSub', description: 'Push notifications when the data changes.' },
      { name: 'Meta', description: 'This description.' },
    ],
    paths,
    components: { schemas, parameters: PARAMETERS, headers: HEADERS, responses: RESPONSES },
  };
}

/** The document as served: pretty-printed (people read it too), ending with a newline. */
export function openApiJson(site: string): string {
  return `${JSON.stringify(buildOpenApiDocument(site), null, 2)}\n`;
}

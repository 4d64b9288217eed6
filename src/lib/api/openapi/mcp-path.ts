/** POST, DELETE, GET and the preflight of /mcp in the OpenAPI document: the JSON-RPC envelope; the MCP methods are the MCP specification's. */
import { MCP_MAX_BODY_BYTES } from '../../mcp/protocol.ts';
import type { JsonObject, PathItem } from './document-types.ts';
import { JSON_MEDIA, PARAMETERS, ref } from './http-components.ts';

export function mcpPath(): PathItem {
  const rpcError = (description: string) => ({
    description,
    headers: { 'Cache-Control': ref('headers', 'NoStore') },
    content: { [JSON_MEDIA]: { schema: ref('schemas', 'JsonRpcErrorResponse') } },
  });
  return {
    summary: 'Model Context Protocol server (streamable HTTP, JSON responses)',
    description:
      'Read-only tools over the same data: get_business, search_reviews (the search parameters), get_review, reviews_since, get_insights; resources for reviews.json, insights.json and one review by id. No credentials. Requests without Origin (non-browser clients) are served; a browser Origin must be allowed, and Host must name this site (403 otherwise).',
    post: {
      operationId: 'mcpRequest',
      tags: ['MCP'],
      summary: 'Send a JSON-RPC 2.0 message',
      description:
        'Send `Content-Type: application/json` and `Accept: application/json, text/event-stream`. Start with `initialize` (protocolVersion 2025-06-18); its response carries Mcp-Session-Id, which every later request sends back. Answers are JSON, never an event stream. Batches (JSON arrays) are refused from protocol 2025-06-18 on. A tool called with bad arguments answers 200 with a result whose isError is true and whose text is the REST 400 body.',
      parameters: [ref('parameters', 'McpSessionId'), ref('parameters', 'McpProtocolVersion')],
      requestBody: {
        required: true,
        description: `A JSON-RPC 2.0 request or notification, at most ${MCP_MAX_BODY_BYTES} bytes.`,
        content: {
          [JSON_MEDIA]: {
            schema: ref('schemas', 'JsonRpcRequest'),
            examples: {
              initialize: {
                summary: 'Open a session',
                value: {
                  jsonrpc: '2.0',
                  id: 1,
                  method: 'initialize',
                  params: {
                    protocolVersion: '2025-06-18',
                    capabilities: {},
                    clientInfo: { name: 'example-client', version: '1.0.0' },
                  },
                },
              },
              toolsList: { summary: 'List the tools', value: { jsonrpc: '2.0', id: 2, method: 'tools/list' } },
              searchReviews: {
                summary: 'Call search_reviews',
                value: {
                  jsonrpc: '2.0',
                  id: 3,
                  method: 'tools/call',
                  params: { name: 'search_reviews', arguments: { rating: 5, limit: 3 } },
                },
              },
            },
          },
        },
      },
      responses: {
        '200': {
          description:
            'The JSON-RPC response: a result, or a JSON-RPC error (-32601 unknown method, -32602 invalid params). Content-Type application/json, written by the MCP SDK.',
          headers: {
            'Mcp-Session-Id': {
              ...ref('headers', 'McpSessionId'),
              description: 'Only on a successful initialize.',
            } as JsonObject,
            'Cache-Control': ref('headers', 'NoStore'),
          },
          content: { [JSON_MEDIA]: { schema: ref('schemas', 'JsonRpcResponse') } },
        },
        '202': { description: 'Accepted: a notification or response from the client; no body.' },
        '400': rpcError(
          'Parse error (-32700), not a JSON-RPC message (-32600), a batch, a missing Mcp-Session-Id after initialize, or an unsupported MCP-Protocol-Version.',
        ),
        '403': rpcError('Host is not this site, or the browser Origin is not allowed.'),
        '404': rpcError('Unknown, forged, expired or ended session (-32001): send a new initialize.'),
        '406': rpcError('Accept must list both application/json and text/event-stream.'),
        '413': rpcError(`The body is larger than ${MCP_MAX_BODY_BYTES} bytes.`),
        '415': rpcError('Content-Type must be application/json.'),
      },
    },
    delete: {
      operationId: 'mcpEndSession',
      tags: ['MCP'],
      summary: 'End a session',
      description: 'Ends the session named by Mcp-Session-Id on every instance; the id is then answered 404.',
      parameters: [{ ...PARAMETERS.McpSessionId, required: true }, ref('parameters', 'McpProtocolVersion')],
      responses: {
        '204': { description: 'Ended; no body.' },
        '400': rpcError('Mcp-Session-Id missing, or an unsupported MCP-Protocol-Version.'),
        '404': rpcError('Unknown, forged, expired or already ended session.'),
      },
    },
    get: {
      operationId: 'mcpGet',
      tags: ['MCP'],
      summary: 'Not offered: no server-sent event stream',
      description: 'This server sends no event stream, so GET is refused; use POST (DELETE ends a session).',
      responses: {
        '405': {
          ...rpcError('Method Not Allowed.'),
          headers: {
            Allow: { ...ref('headers', 'Allow'), example: 'POST, DELETE, OPTIONS' } as JsonObject,
            'Cache-Control': ref('headers', 'NoStore'),
          },
        },
      },
    },
    options: {
      operationId: 'mcpPreflight',
      tags: ['MCP'],
      summary: 'CORS preflight for /mcp',
      description:
        'Allows POST and DELETE with Content-Type, Accept, Mcp-Session-Id, MCP-Protocol-Version and Authorization (which is ignored).',
      responses: {
        '204': {
          description: 'No body.',
          headers: {
            Allow: ref('headers', 'Allow'),
            'Access-Control-Allow-Methods': ref('headers', 'AccessControlAllowMethods'),
          },
        },
      },
    },
  };
}

/**
 * The MCP floor: `tools/call search_reviews` through /mcp costs at most 1.25x
 * what the SDK's own minimal server costs calling the same tool function, for
 * each revision:
 *
 * - session revisions (2025-06-18): our endpoint (Host/Origin checks, the
 *   signed session id checked against the store, params, argument validation,
 *   the answer budget, the SDK v1 transport) against the SDK v1's documented
 *   stateless pattern: a `McpServer` with the tool registered and a
 *   `WebStandardStreamableHTTPServerTransport` per request;
 * - 2026-07-28: our endpoint against the SDK v2's `createMcpHandler` over a
 *   `McpServer` with the tool registered.
 *
 * All four answer the same Web `Request`s in this process (no sockets: the
 * HTTP server is the same for both sides and would only add noise), in
 * interleaved rounds; the figure is the median time per call. Every answer
 * is checked once: the same structured content on all four.
 *
 *   node bench/mcp.ts                          # the content test build, 5 rounds of 2,000 calls per target
 *   node bench/mcp.ts --reviews .test-builds/large/client/reviews.json --rounds 7
 *
 * Options: --reviews FILE [.test-builds/content/client/reviews.json]; --rounds N [5]; --calls N [2000];
 * --query JSON [{"min_rating":4,"limit":20}].
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { McpServer as McpServerV1 } from '@modelcontextprotocol/sdk/server/mcp.js';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { createMcpHandler, McpServer as McpServerV2 } from '@modelcontextprotocol/server';
import { createMcpService } from '../src/lib/mcp/service.ts';
import { getReviewIndex } from '../src/lib/reviews/review-index.ts';
import { searchQuery, type SearchQuery } from '../src/lib/reviews/query.ts';
import { searchRecords } from '../src/lib/reviews/search.ts';
import { createStore, storeConfigFromEnv } from '../src/lib/store/index.ts';

const ROOT = resolve(import.meta.dirname, '..');
const { values: args } = parseArgs({
  options: {
    reviews: { type: 'string', default: resolve(ROOT, '.test-builds/content/client/reviews.json') },
    rounds: { type: 'string', default: '5' },
    calls: { type: 'string', default: '2000' },
    query: { type: 'string', default: '{"min_rating":4,"limit":20}' },
  },
});
const SITE = 'http://localhost:4321';
const ACCEPT = 'application/json, text/event-stream';
const STATELESS = '2026-07-28';
const META = {
  'io.modelcontextprotocol/protocolVersion': STATELESS,
  'io.modelcontextprotocol/clientInfo': { name: 'bench', version: '1' },
  'io.modelcontextprotocol/clientCapabilities': {},
};
const query = JSON.parse(args.query) as SearchQuery;
const dataset = JSON.parse(readFileSync(args.reviews, 'utf8'));
const index = getReviewIndex(dataset);

/** The tool function both sides call. */
const searchTool = (input: SearchQuery) => {
  const value = searchRecords(index, input);
  return {
    structuredContent: value as unknown as Record<string, unknown>,
    content: [{ type: 'text' as const, text: JSON.stringify(value) }],
  };
};

type Handler = (request: Request) => Promise<Response>;

function request(body: unknown, headers: Record<string, string> = {}): Request {
  return new Request(`${SITE}/mcp`, {
    method: 'POST',
    headers: { host: 'localhost:4321', 'content-type': 'application/json', accept: ACCEPT, ...headers },
    body: JSON.stringify(body),
  });
}

// Ours: the service as the Node entry builds it, over a store folder and a configured secret.
const storeDir = mkdtempSync(join(tmpdir(), 'bench-mcp-'));
const store = createStore(storeConfigFromEnv({ STORE_DIR: storeDir }));
const ours = await createMcpService({
  content: { site: SITE, dataset },
  store: () => store,
  env: { MCP_SESSION_SECRET: 'b'.repeat(32), MCP_SESSION_RATE_LIMIT: '1000000' },
  bindHost: 'localhost',
});
const init = await ours(
  request({
    jsonrpc: '2.0',
    id: 0,
    method: 'initialize',
    params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'bench', version: '1' } },
  }),
);
const sessionId = init.headers.get('mcp-session-id')!;

// The SDK v1's minimal stateless server: a server and a transport per request.
const sdkV1: Handler = async (req) => {
  const server = new McpServerV1({ name: 'minimal', version: '1' });
  server.registerTool('search_reviews', { inputSchema: searchQuery.shape }, (input) =>
    searchTool(input as SearchQuery),
  );
  const transport = new WebStandardStreamableHTTPServerTransport({
    sessionIdGenerator: undefined,
    enableJsonResponse: true,
  });
  await server.connect(transport);
  try {
    return await transport.handleRequest(req);
  } finally {
    void server.close();
  }
};

// The SDK v2's minimal server: createMcpHandler over a McpServer made per request.
const v2 = createMcpHandler(() => {
  const server = new McpServerV2({ name: 'minimal', version: '1' });
  server.registerTool('search_reviews', { inputSchema: searchQuery }, (input) => searchTool(input as SearchQuery));
  return server;
});
const sdkV2: Handler = (req) => v2.fetch(req);

const call = { name: 'search_reviews', arguments: query };
const sessionCall = () =>
  request(
    { jsonrpc: '2.0', id: 1, method: 'tools/call', params: call },
    { 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-06-18' },
  );
const plainCall = () =>
  request({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: call }, { 'mcp-protocol-version': '2025-06-18' });
const statelessCall = () =>
  request(
    { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { ...call, _meta: META } },
    { 'mcp-protocol-version': STATELESS, 'mcp-method': 'tools/call', 'mcp-name': 'search_reviews' },
  );

const targets: Array<{ name: string; handle: Handler; make: () => Request }> = [
  { name: 'ours, 2025-06-18 session', handle: ours, make: sessionCall },
  { name: 'SDK v1 minimal', handle: sdkV1, make: plainCall },
  { name: 'ours, 2026-07-28', handle: ours, make: statelessCall },
  { name: 'SDK v2 minimal', handle: sdkV2, make: statelessCall },
];

// The same answer from all four, once.
const answers = await Promise.all(
  targets.map(
    async (t) =>
      ((await (await t.handle(t.make())).json()) as { result?: { structuredContent?: unknown } }).result
        ?.structuredContent,
  ),
);
for (const [i, answer] of answers.entries()) {
  if (JSON.stringify(answer) !== JSON.stringify(answers[0]))
    throw new Error(`${targets[i]!.name} answers differently: ${JSON.stringify(answer).slice(0, 200)}`);
}

const calls = Number(args.calls);
async function round(target: (typeof targets)[number]): Promise<number> {
  const started = performance.now();
  for (let i = 0; i < calls; i++) await (await target.handle(target.make())).arrayBuffer();
  return ((performance.now() - started) * 1000) / calls;
}
for (const target of targets) await round(target); // warm-up
const times = new Map(targets.map((t) => [t.name, [] as number[]]));
for (let r = 0; r < Number(args.rounds); r++)
  for (const target of targets) times.get(target.name)!.push(await round(target));
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const us = Object.fromEntries([...times].map(([name, values]) => [name, median(values)]));

console.log(
  `${dataset.reviews.length} reviews, tools/call search_reviews ${JSON.stringify(query)}, median of ${args.rounds} rounds of ${calls} calls`,
);
for (const [name, value] of Object.entries(us))
  console.log(`  ${name.padEnd(26)} ${value.toFixed(0).padStart(6)} µs/call`);
const sessionRatio = us['ours, 2025-06-18 session']! / us['SDK v1 minimal']!;
const statelessRatio = us['ours, 2026-07-28']! / us['SDK v2 minimal']!;
console.log(
  `  session revisions: ${sessionRatio.toFixed(2)}x the SDK v1 (floor 1.25x) ${sessionRatio <= 1.25 ? 'ok' : 'OVER'}`,
);
console.log(
  `  2026-07-28:        ${statelessRatio.toFixed(2)}x the SDK v2 (floor 1.25x) ${statelessRatio <= 1.25 ? 'ok' : 'OVER'}`,
);
await store.close();
rmSync(storeDir, { recursive: true, force: true });

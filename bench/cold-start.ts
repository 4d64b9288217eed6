/**
 * Cold starts of the built serverless functions: a fresh Node process imports
 * the function (Vercel's `_render.func` entry, Netlify's `ssr.mjs`) and
 * serves its first request, one process per endpoint: search, since, MCP
 * (2026-07-28 tools/call, no Redis) and the hub (a publish answered 503
 * without Redis: the route, its imports and its config check, no network).
 * Reported: the import, and the first answer after it, in ms (median of runs).
 *
 *   node bench/cold-start.ts --host vercel --dir .test-builds/vercel/output/functions/_render.func [--runs 5]
 *   node bench/cold-start.ts --host netlify --dir .test-builds/netlify/output/v1/functions/ssr
 */
import { execFileSync } from 'node:child_process';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';

const { values: args } = parseArgs({
  options: {
    host: { type: 'string' },
    dir: { type: 'string' },
    site: { type: 'string', default: 'https://reviews.example' },
    runs: { type: 'string', default: '5' },
  },
});
if ((args.host !== 'vercel' && args.host !== 'netlify') || !args.dir)
  throw new Error('--host vercel|netlify --dir <function folder>');
const dir = resolve(args.dir);
const site = args.site!;
const meta = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientInfo': { name: 'bench', version: '1' },
  'io.modelcontextprotocol/clientCapabilities': {},
};
const REQUESTS = {
  search: { url: `${site}/api/reviews/search?min_rating=4&limit=20` },
  since: { url: `${site}/api/reviews/since/2025-01-01` },
  mcp: {
    url: `${site}/mcp`,
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      host: new URL(site).host,
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': 'tools/call',
      'mcp-name': 'search_reviews',
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name: 'search_reviews', arguments: { min_rating: 5 }, _meta: meta },
    }),
  },
  hub: {
    url: `${site}/api/websub/hub`,
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: `hub.mode=publish&hub.url=${encodeURIComponent(`${site}/feed.xml`)}`,
  },
};

/** The child: import the function, then one request; prints the two times and the status. */
const child = (host: string, request: unknown) => `
const { readFileSync } = await import('node:fs');
const { pathToFileURL } = await import('node:url');
const dir = ${JSON.stringify(dir)};
const t0 = performance.now();
let call;
if (${JSON.stringify(host)} === 'vercel') {
  const { handler } = JSON.parse(readFileSync(dir + '/.vc-config.json', 'utf8'));
  const fn = (await import(pathToFileURL(dir + '/' + handler).href)).default;
  globalThis[Symbol.for('@vercel/request-context')] = { get: () => ({ waitUntil() {}, headers: {} }) };
  call = (request) => fn.fetch(request);
} else {
  const fn = (await import(pathToFileURL(dir + '/ssr.mjs').href)).default;
  call = (request) => fn(request, { ip: '203.0.113.7', waitUntil() {}, site: { url: ${JSON.stringify(site)} }, deploy: { context: 'production' }, geo: {}, cookies: { get() {}, set() {}, delete() {} }, next() { throw new Error('no next'); } });
}
const t1 = performance.now();
const { url, ...init } = ${JSON.stringify(request)};
const response = await call(new Request(url, init));
await response.arrayBuffer();
const t2 = performance.now();
console.log(JSON.stringify({ importMs: t1 - t0, firstMs: t2 - t1, status: response.status }));
process.exit(0);
`;

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const env = Object.fromEntries(
  Object.entries(process.env).filter(([name]) => !/^(REDIS_|MCP_|CRON_SECRET)/.test(name)),
);
console.log(`${args.host} ${dir}`);
console.log('endpoint  status  import ms  first request ms');
for (const [name, request] of Object.entries(REQUESTS)) {
  const runs = Array.from(
    { length: Number(args.runs) },
    () =>
      JSON.parse(
        execFileSync(process.execPath, ['--input-type=module', '-e', child(args.host!, request)], {
          cwd: dir,
          env: { ...env, SITE_URL: site, URL: site },
          encoding: 'utf8',
        })
          .trim()
          .split('\n')
          .at(-1)!,
      ) as { importMs: number; firstMs: number; status: number },
  );
  console.log(
    `${name.padEnd(8)}  ${runs[0]!.status}     ${median(runs.map((run) => run.importMs))
      .toFixed(0)
      .padStart(6)}     ${median(runs.map((run) => run.firstMs))
      .toFixed(0)
      .padStart(6)}`,
  );
}

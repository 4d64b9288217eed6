/**
 * The Netlify build served by Netlify's own CLI (`netlify serve`, offline) and
 * driven over HTTP: the CLI's static server with the `_headers` rules, its
 * functions runtime running the adapter's SSR function and the two functions
 * of netlify/functions/, a real Redis, a real HTTPS subscriber on loopback.
 *
 * The site is the test build (scripts/build-test-sites.ts); the CLI's build
 * step only puts its Frameworks API output back in `.netlify/v1` (Netlify
 * Build clears that folder before the build command runs). Edge functions are
 * disabled (the project has none; offline the CLI could not fetch Deno for them).
 * What the CLI does differently from a deploy (its own weak ETags, its own
 * Content-Type and Cache-Control on static files) is in docs/deploy.md.
 */
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { cpSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, before, it } from 'node:test';
import { HOST_BUILDS, NODE, ROOT } from '../helpers/builds.ts';
import { makeTestCerts, type TestCerts } from '../helpers/certs.ts';
import { startSubscriber, type TestSubscriber } from '../helpers/subscriber.ts';
import { freePort, initializeRequest, JSON_HEADERS, startRedis } from '../mcp/helpers.ts';
import { forgetDistributedContent, isSubscribed, openStore, until } from '../websub/helpers.ts';
import { siteLinks } from '../../src/lib/feeds/links.ts';
import type { Store } from '../../src/lib/store/index.ts';
import { SECRET } from './scenarios.ts';
import { trustTestCa } from './helpers.ts';

const build = HOST_BUILDS.netlify;
const links = siteLinks(build.site);
// Outside this repository: the CLI takes the enclosing Git repository's root for the site's base folder.
const project = join(tmpdir(), `roofing-netlify-cli-${process.pid}`);
let cli: ChildProcess;
let output = '';
let origin = '';
let certs: TestCerts;
let sub: TestSubscriber;
let redis: { url: string; stop: () => Promise<void> };
let store: Store;

/** A site folder as Netlify sees a repository after the build: the publish folder, the functions, a netlify.toml. */
function siteFolder(): void {
  rmSync(project, { recursive: true, force: true });
  mkdirSync(project, { recursive: true });
  cpSync(join(build.dir, 'dist'), join(project, 'dist'), { recursive: true });
  cpSync(join(build.dir, 'output/v1'), join(project, 'prebuilt/v1'), { recursive: true });
  cpSync(join(ROOT, 'netlify/functions'), join(project, 'netlify/functions'), { recursive: true });
  cpSync(join(ROOT, 'package.json'), join(project, 'package.json'));
  // The standalone functions import src/lib; Netlify bundles them from the repository.
  for (const entry of ['src', 'node_modules', 'tsconfig.json']) symlinkSync(join(ROOT, entry), join(project, entry));
  writeFileSync(
    join(project, 'netlify.toml'),
    '[build]\n  publish = "dist"\n  command = "mkdir -p .netlify && cp -r prebuilt/v1 .netlify/v1"\n',
  );
}

before(async () => {
  certs = makeTestCerts();
  trustTestCa(certs.ca);
  sub = await startSubscriber(certs);
  redis = await startRedis();
  store = openStore({ REDIS_URL: redis.url });
  siteFolder();
  const [port, functionsPort] = [await freePort(), await freePort()];
  origin = `http://localhost:${port}`;
  const env = {
    ...process.env,
    PATH: `${dirname(NODE)}:${process.env.PATH}`,
    XDG_CONFIG_HOME: join(project, '.config'),
    URL: build.site,
    REDIS_URL: redis.url,
    MCP_SESSION_SECRET: SECRET,
    MCP_ALLOWED_HOSTS: 'localhost',
    WEBSUB_CONTENT_ORIGIN: origin,
    NODE_EXTRA_CA_CERTS: certs.caFile,
    WEBSUB_ALLOW_LOOPBACK: 'true',
    WEBSUB_TIMEOUT_MS: '3000',
    WEBSUB_SUBSCRIBE_RATE_LIMIT: '10000',
    WEBSUB_PUBLISH_RATE_LIMIT: '10000',
  };
  const bin = join(ROOT, 'node_modules/netlify-cli/bin/run.js');
  const args = [
    bin,
    'serve',
    '--offline',
    '--internal-disable-edge-functions',
    '--port',
    String(port),
    '--functions-port',
    String(functionsPort),
  ];
  cli = spawn(NODE, args, { cwd: project, env, stdio: ['ignore', 'pipe', 'pipe'] });
  cli.stdout!.on('data', (chunk) => (output += chunk));
  cli.stderr!.on('data', (chunk) => (output += chunk));
  await until(() => /Local dev server ready/.test(output) || cli.exitCode !== null, 'netlify serve', 90_000);
  assert.match(output, /Local dev server ready/, output);
});

after(async () => {
  if (cli && cli.exitCode === null) {
    cli.kill('SIGTERM');
    await new Promise((resolve) => cli.once('exit', resolve));
  }
  await store?.close();
  await redis?.stop();
  await sub?.close();
  certs?.remove();
  rmSync(project, { recursive: true, force: true });
});

const get = (path: string, headers: Record<string, string> = {}) => fetch(`${origin}${path}`, { headers });
const rpc = (body: unknown, headers: Record<string, string> = {}) =>
  fetch(`${origin}/mcp`, { method: 'POST', headers: { ...JSON_HEADERS, ...headers }, body: JSON.stringify(body) });
const hub = (fields: Record<string, string>) =>
  fetch(`${origin}/api/websub/hub`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields).toString(),
  });
const modernMeta = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientInfo': { name: 'netlify-cli-test', version: '1' },
  'io.modelcontextprotocol/clientCapabilities': {},
};
const modernCall = () =>
  rpc(
    {
      jsonrpc: '2.0',
      id: 7,
      method: 'tools/call',
      params: { name: 'search_reviews', arguments: { min_rating: 5 }, _meta: modernMeta },
    },
    { 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': 'search_reviews' },
  );

it('datasets and a list page get the _headers rules (a :page pattern included) and a 304 on revalidation', async () => {
  for (const path of ['/reviews.json', '/feed.xml', '/api/feed.json']) {
    const response = await get(path);
    assert.equal(response.status, 200, path);
    await response.arrayBuffer();
    assert.equal(response.headers.get('link'), `<${links.hub}>; rel="hub", <${build.site}${path}>; rel="self"`, path);
    assert.ok(response.headers.get('last-modified'), path);
    assert.equal(response.headers.get('access-control-allow-origin'), '*', path);
    const again = await get(path, { 'if-none-match': response.headers.get('etag')! });
    assert.equal(again.status, 304, path);
  }
  const page = await get('/reviews/page/1/');
  assert.equal(page.status, 200);
  assert.equal(
    page.headers.get('access-control-expose-headers'),
    'ETag, Last-Modified, Retry-After',
    'the /reviews/page/:page rule applied',
  );
});

it("search and since through the CLI's functions runtime: strong ETag, 304, 400 on bad input", async () => {
  const first = await get('/api/reviews/search?min_rating=4');
  assert.equal(first.status, 200);
  assert.equal(first.headers.get('content-type'), 'application/json; charset=utf-8');
  assert.ok((await first.json()).total >= 1);
  const etag = first.headers.get('etag')!;
  assert.match(etag, /^"[\w-]+"$/);
  assert.equal((await get('/api/reviews/search?min_rating=4', { 'if-none-match': etag })).status, 304);
  const since = await get('/api/reviews/since/2020-01-01');
  assert.equal(since.status, 200);
  assert.ok((await since.json()).count >= 1);
  const bad = await get('/api/reviews/search?rating=9');
  assert.equal(bad.status, 400);
  assert.equal((await bad.json()).error, 'invalid_request');
});

it('MCP 2025: initialize, then tools/call in the session (its state in the real Redis)', async () => {
  const init = await rpc(initializeRequest());
  assert.equal(init.status, 200, await init.clone().text());
  const session = init.headers.get('mcp-session-id')!;
  assert.ok(session);
  const headers = { 'mcp-session-id': session, 'mcp-protocol-version': '2025-06-18' };
  assert.equal((await rpc({ jsonrpc: '2.0', method: 'notifications/initialized' }, headers)).status, 202);
  const call = await rpc(
    { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'search_reviews', arguments: { min_rating: 5 } } },
    headers,
  );
  assert.equal(call.status, 200);
  assert.ok(
    (await call.json()).result.structuredContent.reviews.every((review: { rating: number }) => review.rating === 5),
  );
});

it('a hub subscription verified over HTTPS on loopback; a "deploy" (deploy-succeeded through the CLI, twice) delivers the change once', async () => {
  const callback = sub.url('/netlify-cli');
  assert.equal(
    (await hub({ 'hub.mode': 'subscribe', 'hub.callback': callback, 'hub.topic': links.atomFeed })).status,
    202,
  );
  await until(() => isSubscribed(store, 'atom', callback), 'the verification', 10_000);
  assert.equal(sub.verifications('/netlify-cli', 'subscribe').length, 1);
  await until(async () => (await store.keys('websub:job:')).length === 0, 'no delivery pending', 10_000);
  const stale = await forgetDistributedContent(store);
  const deploy = () =>
    fetch(`${origin}/.netlify/functions/deploy-succeeded`, {
      method: 'POST',
      body: JSON.stringify({ payload: { context: 'production', state: 'ready' } }),
    });
  const answers = await Promise.all([deploy(), deploy()]);
  for (const answer of answers) assert.equal(answer.status, 200, await answer.text());
  await until(
    async () => (await store.get<{ hash: string }>('websub:hash:atom'))?.hash !== stale,
    'the publish',
    10_000,
  );
  await until(() => sub.notifications('/netlify-cli').length >= 1, 'the delivery', 10_000);
  await new Promise((resolve) => setTimeout(resolve, 500));
  assert.equal(sub.notifications('/netlify-cli').length, 1);
  const note = sub.notifications('/netlify-cli')[0]!;
  assert.ok(note.body.equals(readFileSync(join(build.dir, 'dist/feed.xml'))), 'the feed as the site serves it');
  // The deploy function forwards the Content-Type the site answered with: the CLI's own `application/xml` here, ours on a deploy.
  assert.match(String(note.headers['content-type']), /^application\/(atom\+)?xml\b/);
});

it('MCP 2026-07-28 needs no Redis: a tools/call answers after Redis is stopped', async () => {
  await store.close();
  await redis.stop();
  const modern = await modernCall();
  assert.equal(modern.status, 200, await modern.clone().text());
  const answer = (await modern.json()).result;
  assert.ok(answer.structuredContent.reviews.length >= 1);
});

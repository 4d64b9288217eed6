/**
 * The CDN header configuration each host build generated (Netlify `_headers`,
 * Vercel config.json routes) against what the Node server sends for the same
 * files: the same Content-Type with charset, Cache-Control, CORS, Last-Modified
 * and WebSub Link discovery headers, for every data file. The host builds and
 * the Node build are made from the same content; only the site URL differs.
 * At 10k reviews, every static file against the rules the same code makes from
 * that build's manifest, and the rules' number at a 100k-shaped manifest.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, it } from 'node:test';
import { HOST_BUILDS, type HostName } from '../helpers/builds.ts';
import { startServer, type RunningServer } from '../helpers/server.ts';
import { DEFAULT_SITE_URL } from '../../src/lib/config/site.ts';
import { netlifyHeadersFile } from '../../src/hosts/netlify/headers-file.ts';
import { ruleRegExp, staticHeaderRules, type HeaderRule } from '../../src/hosts/header-rules.ts';
import { withHeadersAndCrons, type VercelConfig, type VercelRoute } from '../../src/hosts/vercel/output-config.ts';
import { MANIFEST_FILE, type StaticManifest } from '../../src/lib/static/manifest.ts';
import { BUILDS } from '../helpers/builds.ts';
import { pageRoutes } from './routes.ts';

const DATA_FILES = [
  '/reviews.json',
  '/insights.json',
  '/api/feed.json',
  '/feed.xml',
  '/openapi.json',
  '/.well-known/mcp/server-card.json',
  '/.well-known/mcp.json',
];
const SECURITY = ['x-content-type-options', 'referrer-policy', 'x-frame-options', 'content-security-policy'];
const COMPARED = [
  'content-type',
  'cache-control',
  'access-control-allow-origin',
  'access-control-expose-headers',
  'last-modified',
  'link',
  ...SECURITY,
];
/** Paths functions answer: no CDN rule may add headers there. */
const DYNAMIC = [
  '/api/reviews/search',
  '/api/reviews/since/2025-01-01',
  '/api/websub/hub',
  '/mcp',
  '/reviews/2025-06-02-hostile-text',
  '/api/cron/sweep',
];

let node: RunningServer;
before(async () => (node = await startServer('small')));
after(() => node?.stop());

/** The headers a host's rules give `path`, each matching rule's headers in order. */
function netlifyRules(): HeaderRule[] {
  return parseNetlifyHeaders(readFileSync(join(HOST_BUILDS.netlify.dir, 'dist/_headers'), 'utf8'));
}

function netlifyHeaders(path: string, rules = netlifyRules()): Record<string, string> {
  return applied(rules.filter((rule) => ruleRegExp(rule.path).test(path)));
}

function vercelConfig(): VercelConfig {
  return JSON.parse(readFileSync(join(HOST_BUILDS.vercel.dir, 'output/config.json'), 'utf8')) as VercelConfig;
}

function vercelHeaders(path: string, routes: VercelRoute[] = vercelConfig().routes ?? []): Record<string, string> {
  const end = routes.findIndex((route) => route.handle === 'filesystem');
  const matching = routes
    .slice(0, end)
    .filter((route) => route.src && route.headers && new RegExp(route.src, 'i').test(path));
  return applied(matching.map((route) => ({ path: route.src!, headers: route.headers! })));
}

function applied(rules: HeaderRule[]): Record<string, string> {
  assert.ok(rules.length <= 1, `rules must not overlap: ${rules.map((rule) => rule.path).join(', ')}`);
  return Object.fromEntries(
    Object.entries(rules[0]?.headers ?? {}).map(([name, value]) => [name.toLowerCase(), value]),
  );
}

const HOSTS: Array<[HostName, (path: string) => Record<string, string>]> = [
  ['netlify', netlifyHeaders],
  ['vercel', vercelHeaders],
];

for (const [host, headersOf] of HOSTS) {
  it(`${host}: every data file and page gets the Node server's Content-Type, Cache-Control, CORS, Last-Modified, Link and security headers`, async () => {
    for (const path of [...DATA_FILES, '/', '/admin/', '/widget.js']) {
      const response = await fetch(`${node.url}${path}`);
      assert.equal(response.status, 200, path);
      await response.arrayBuffer();
      const configured = headersOf(path);
      for (const name of COMPARED) {
        const fromNode = response.headers.get(name);
        // The Link header names the site, which is the host's production URL in the host build.
        const expected = fromNode?.replaceAll(DEFAULT_SITE_URL, HOST_BUILDS[host].site) ?? undefined;
        assert.equal(configured[name], expected, `${host} ${path} ${name}`);
      }
    }
  });

  it(`${host}: no CDN rule reaches a path a function answers`, () => {
    for (const path of DYNAMIC) assert.deepEqual(headersOf(path), {}, path);
  });
}

it('the Node server sends the WebSub Link header on the four topics only', async () => {
  for (const path of ['/feed.xml', '/api/feed.json', '/reviews.json', '/moderation.json']) {
    const response = await fetch(`${node.url}${path}`, { method: 'HEAD' });
    assert.equal(
      response.headers.get('link'),
      `<${DEFAULT_SITE_URL}/api/websub/hub>; rel="hub", <${DEFAULT_SITE_URL}${path}>; rel="self"`,
    );
  }
  assert.equal((await fetch(`${node.url}/insights.json`, { method: 'HEAD' })).headers.get('link'), null);
});

it('the adapters keep /_astro/* immutable, as the Node server does', () => {
  const netlify = JSON.parse(readFileSync(join(HOST_BUILDS.netlify.dir, 'output/v1/config.json'), 'utf8')) as {
    headers: Array<{ for: string; values: Record<string, string> }>;
  };
  assert.deepEqual(netlify.headers.find((rule) => rule.for === '/_astro/*')?.values, {
    'Cache-Control': 'public, max-age=31536000, immutable',
  });
  const vercel = vercelConfig().routes?.find((route) => route.src?.startsWith('^/_astro'));
  assert.equal(
    vercel?.headers?.['cache-control'] ?? vercel?.headers?.['Cache-Control'],
    'public, max-age=31536000, immutable',
  );
});

it('the Node server sends nosniff and a Referrer-Policy on every answer, and forbids framing the editor only', async () => {
  const answers = await Promise.all(
    [
      '/',
      '/reviews.json',
      '/api/reviews/search?query=roof',
      '/api/nothing',
      '/no-such-page',
      '/reviews/2025-06-02-hostile-text',
      '/%72eviews.json',
      '/mcp',
      '/admin/',
      '/admin/config.yml',
    ].map(async (path) => {
      const response = await fetch(`${node.url}${path}`, { redirect: 'manual' });
      await response.arrayBuffer();
      return [path, response.headers] as const;
    }),
  );
  for (const [path, headers] of answers) {
    assert.equal(headers.get('x-content-type-options'), 'nosniff', path);
    assert.equal(headers.get('referrer-policy'), 'strict-origin-when-cross-origin', path);
    const editor = path.startsWith('/admin/');
    assert.equal(headers.get('x-frame-options'), editor ? 'DENY' : null, path);
    assert.equal(headers.get('content-security-policy'), editor ? "frame-ancestors 'none'" : null, path);
  }
});

const routes = pageRoutes();
const manifestOf = (outDir: string) =>
  JSON.parse(readFileSync(join(outDir, 'client', MANIFEST_FILE), 'utf8')) as StaticManifest;
const rulesOf = (manifest: StaticManifest) => staticHeaderRules(manifest, routes.dynamic, routes.prerendered);

it("the routes read from src/pages make the very rules the Netlify build wrote (so the rules below are the builds' own)", () => {
  const fromPages = rulesOf(manifestOf(BUILDS.small.outDir)).map((rule) => rule.path);
  assert.deepEqual(
    fromPages,
    netlifyRules().map((rule) => rule.path),
  );
});

it('at 10k reviews every static file gets, from exactly one rule on each host, the headers the Node server sends; no rule reaches a function', async () => {
  const manifest = manifestOf(BUILDS.large.outDir);
  const rules = rulesOf(manifest);
  // A rule per served file kind, not per review: Vercel's 100-route limit is checked with the routes around them below.
  assert.ok(rules.length <= 50, `${rules.length} rules`);
  // Each host's own form of the rules, read back as the host reads it.
  const netlify = parseNetlifyHeaders(netlifyHeadersFile(rules));
  const vercel = withHeadersAndCrons({ version: 3, routes: [{ handle: 'filesystem' }] }, rules, []).routes!;
  const large = await startServer('large');
  try {
    const paths = Object.keys(manifest).filter((path) => !path.startsWith('/_astro/'));
    assert.ok(paths.length > 1_200, `${paths.length} files`);
    for (const path of paths) {
      const response = await fetch(`${large.url}${path}`, { method: 'HEAD' });
      assert.equal(response.status, 200, path);
      const fromHosts = { netlify: netlifyHeaders(path, netlify), vercel: vercelHeaders(path, vercel) };
      for (const [host, configured] of Object.entries(fromHosts)) {
        for (const name of COMPARED)
          assert.equal(configured[name], response.headers.get(name) ?? undefined, `${host} ${path} ${name}`);
      }
    }
    for (const path of DYNAMIC) {
      assert.deepEqual(netlifyHeaders(path, netlify), {}, path);
      assert.deepEqual(vercelHeaders(path, vercel), {}, path);
    }
  } finally {
    await large.stop();
  }
});

it('the number of rules does not grow with the reviews: a 100k-shaped manifest (4,000 list pages, 3 sitemap parts) adds only the sitemap parts', () => {
  const manifest = manifestOf(BUILDS.large.outDir);
  const atTenThousand = rulesOf(manifest).length;
  const page = manifest['/reviews/page/2/']!;
  for (let n = 1; n <= 4_000; n++)
    for (const path of [`/reviews/page/${n}/`, `/reviews/page/${n}`, `/reviews/page/${n}/index.html`])
      manifest[path] = { ...page, file: `reviews/page/${n}/index.html` };
  for (let n = 1; n <= 3; n++)
    manifest[`/sitemaps/${n}.xml`] = { ...manifest['/sitemap.xml']!, file: `sitemaps/${n}.xml` };
  const rules = rulesOf(manifest);
  assert.equal(rules.length, atTenThousand + 3);
  assert.ok(rules.length <= 100);
});

/** The rules back from a `_headers` file (what a deploy would read). */
function parseNetlifyHeaders(text: string): HeaderRule[] {
  const rules: HeaderRule[] = [];
  for (const line of text.split('\n')) {
    if (!line.trim() || line.trimStart().startsWith('#')) continue;
    if (!/^\s/.test(line)) {
      rules.push({ path: line.trim(), headers: {} });
      continue;
    }
    const colon = line.indexOf(':');
    const rule = rules.at(-1);
    if (rule && colon > 0) rule.headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  return rules;
}

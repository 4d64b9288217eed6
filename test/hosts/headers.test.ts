/**
 * The CDN header configuration each host build generated (Netlify `_headers`,
 * Vercel config.json routes) against what the Node server sends for the same
 * files: the same Content-Type with charset, Cache-Control, CORS, Last-Modified
 * and WebSub Link discovery headers, for every data file. The host builds and
 * the Node build are made from the same content; only the site URL differs.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, it } from 'node:test';
import { HOST_BUILDS, type HostName } from '../helpers/builds.ts';
import { startServer, type RunningServer } from '../helpers/server.ts';
import { DEFAULT_SITE_URL } from '../../src/lib/config/site.ts';
import { parseNetlifyHeaders } from '../../src/lib/platform/netlify-headers.ts';
import { ruleMatches, type HeaderRule } from '../../src/lib/platform/static-headers.ts';
import type { VercelConfig } from '../../src/lib/platform/vercel-config.ts';

const DATA_FILES = ['/reviews.json', '/insights.json', '/api/feed.json', '/feed.xml', '/openapi.json'];
const SECURITY = ['x-content-type-options', 'referrer-policy', 'x-frame-options', 'content-security-policy'];
const COMPARED = ['content-type', 'cache-control', 'access-control-allow-origin', 'access-control-expose-headers', 'last-modified', 'link', ...SECURITY];
/** Paths functions answer: no CDN rule may add headers there. */
const DYNAMIC = ['/api/reviews/search', '/api/reviews/since/2025-01-01', '/api/websub/hub', '/mcp', '/reviews/2025-06-02-hostile-text', '/api/cron/sweep'];

let node: RunningServer;
before(async () => (node = await startServer('small')));
after(() => node?.stop());

/** The headers a host's rules give `path`, each matching rule's headers in order. */
function netlifyHeaders(path: string): Record<string, string> {
  const rules = parseNetlifyHeaders(readFileSync(join(HOST_BUILDS.netlify.dir, 'dist/_headers'), 'utf8'));
  return applied(rules.filter((rule) => ruleMatches(rule, path)));
}

function vercelConfig(): VercelConfig {
  return JSON.parse(readFileSync(join(HOST_BUILDS.vercel.dir, 'output/config.json'), 'utf8')) as VercelConfig;
}

function vercelHeaders(path: string): Record<string, string> {
  const routes = vercelConfig().routes ?? [];
  const end = routes.findIndex((route) => route.handle === 'filesystem');
  const matching = routes.slice(0, end).filter((route) => route.src && route.headers && new RegExp(route.src).test(path));
  return applied(matching.map((route) => ({ path: route.src!, headers: route.headers! })));
}

function applied(rules: HeaderRule[]): Record<string, string> {
  assert.ok(rules.length <= 1, `rules must not overlap: ${rules.map((rule) => rule.path).join(', ')}`);
  return Object.fromEntries(Object.entries(rules[0]?.headers ?? {}).map(([name, value]) => [name.toLowerCase(), value]));
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

it('the Node server sends the WebSub Link header on the three topics only', async () => {
  for (const path of ['/feed.xml', '/api/feed.json', '/reviews.json']) {
    const response = await fetch(`${node.url}${path}`, { method: 'HEAD' });
    assert.equal(response.headers.get('link'), `<${DEFAULT_SITE_URL}/api/websub/hub>; rel="hub", <${DEFAULT_SITE_URL}${path}>; rel="self"`);
  }
  assert.equal((await fetch(`${node.url}/insights.json`, { method: 'HEAD' })).headers.get('link'), null);
});

it('the adapters keep /_astro/* immutable, as the Node server does', () => {
  const netlify = JSON.parse(readFileSync(join(HOST_BUILDS.netlify.dir, 'output/v1/config.json'), 'utf8')) as { headers: Array<{ for: string; values: Record<string, string> }> };
  assert.deepEqual(netlify.headers.find((rule) => rule.for === '/_astro/*')?.values, { 'Cache-Control': 'public, max-age=31536000, immutable' });
  const vercel = vercelConfig().routes?.find((route) => route.src?.startsWith('^/_astro'));
  assert.equal(vercel?.headers?.['cache-control'] ?? vercel?.headers?.['Cache-Control'], 'public, max-age=31536000, immutable');
});

it('the Node server sends nosniff and a Referrer-Policy on every answer, and forbids framing the editor only', async () => {
  const answers = await Promise.all(
    ['/', '/reviews.json', '/api/reviews/search?query=roof', '/api/nothing', '/no-such-page', '/reviews/2025-06-02-hostile-text', '/%72eviews.json', '/mcp', '/admin/', '/admin/config.yml'].map(async (path) => {
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

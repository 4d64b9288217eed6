/**
 * The Vercel build's `.vercel/output/config.json` checked by Vercel's own
 * rules, since its CLI cannot run offline: @vercel/routing-utils'
 * normalizeRoutes (what Vercel runs over routes: regex syntax, handle phases,
 * stray properties) and its JSON Schema of a route (with the ajv it ships
 * for that), plus what the Build Output API v3 asks of the file: version 3,
 * at most 2,048 routes, header routes before the filesystem, each `dest` a
 * function the output holds, each cron path an on-demand route. Checked on
 * the host build, and on the same config with the rules made from the 165
 * reviews of content/, the 10k build and a 100k-shaped manifest.
 * https://vercel.com/docs/build-output-api/configuration
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { it } from 'node:test';
import { normalizeRoutes, routesSchema } from '@vercel/routing-utils';
import { BUILDS, HOST_BUILDS } from '../helpers/builds.ts';
import { CRON_PATH, DEFAULT_CRON_SCHEDULE } from '../../src/hosts/build-config.ts';
import { staticHeaderRules } from '../../src/hosts/header-rules.ts';
import { withHeadersAndCrons, type VercelConfig } from '../../src/hosts/vercel/output-config.ts';
import { MANIFEST_FILE, type StaticManifest } from '../../src/lib/static/manifest.ts';
import { pageRoutes } from './routes.ts';

/** Vercel's documented ceiling on routes per deployment (header routes count). */
const MAX_ROUTES = 2048;
const output = join(HOST_BUILDS.vercel.dir, 'output');
const built = JSON.parse(readFileSync(join(output, 'config.json'), 'utf8')) as VercelConfig;

// routing-utils validates with ajv 6 (its own optional dependency); load that very copy.
const Ajv = createRequire(createRequire(import.meta.url).resolve('@vercel/routing-utils'))('ajv');
const validateRoutes = new Ajv({ allErrors: true }).compile(routesSchema);

function checkConfig(config: VercelConfig, label: string): void {
  assert.equal(config.version, 3, label);
  const routes = config.routes ?? [];
  assert.ok(routes.length <= MAX_ROUTES, `${label}: ${routes.length} routes`);
  const { error } = normalizeRoutes(routes as never);
  assert.equal(error, null, `${label}: ${JSON.stringify(error)}`);
  assert.ok(validateRoutes(routes), `${label}: ${JSON.stringify(validateRoutes.errors?.slice(0, 3))}`);
  const filesystem = routes.findIndex((route) => route.handle === 'filesystem');
  assert.ok(filesystem > 0, `${label}: a filesystem phase`);
  for (const route of routes.slice(0, filesystem))
    assert.ok(
      route.headers && route.continue === true && !route.dest,
      `${label}: ${route.src} only adds headers, then goes on`,
    );
  for (const route of routes.slice(filesystem + 1)) {
    if (!route.dest || route.dest.startsWith('/')) continue;
    assert.ok(
      existsSync(join(output, 'functions', `${route.dest}.func`, '.vc-config.json')),
      `${label}: ${route.dest} is a function in the output`,
    );
  }
  for (const cron of config.crons ?? []) {
    assert.match(cron.schedule, /^\S+( \S+){4}$/, `${label}: ${cron.schedule}`);
    const answeredBy = routes.slice(filesystem + 1).find((route) => route.src && new RegExp(route.src).test(cron.path));
    assert.equal(answeredBy?.dest, '_render', `${label}: the cron path ${cron.path} reaches a function`);
  }
}

/** The adapter's own config, without our header routes (as it was before the integration added them). */
function adapterConfig(): VercelConfig {
  const routes = built.routes ?? [];
  const filesystem = routes.findIndex((route) => route.handle === 'filesystem');
  return {
    ...built,
    routes: routes.filter((route, index) => index >= filesystem || route.src?.startsWith('^/_astro')),
    crons: [],
  };
}

function withRulesOf(manifest: StaticManifest): VercelConfig {
  const { dynamic, prerendered } = pageRoutes();
  return withHeadersAndCrons(adapterConfig(), staticHeaderRules(manifest, dynamic, prerendered), [
    { path: CRON_PATH, schedule: DEFAULT_CRON_SCHEDULE },
  ]);
}

const manifestOf = (outDir: string) =>
  JSON.parse(readFileSync(join(outDir, 'client', MANIFEST_FILE), 'utf8')) as StaticManifest;

/** The 10k manifest grown to 100k reviews' shape: 4,000 list pages in their three spellings, three sitemap parts. */
function hundredThousandShaped(): StaticManifest {
  const manifest = manifestOf(BUILDS.large.outDir);
  const page = manifest['/reviews/page/2/']!;
  for (let n = 1; n <= 4_000; n++)
    for (const path of [`/reviews/page/${n}/`, `/reviews/page/${n}`, `/reviews/page/${n}/index.html`])
      manifest[path] = { ...page, file: `reviews/page/${n}/index.html` };
  for (let n = 1; n <= 3; n++)
    manifest[`/sitemaps/${n}.xml`] = { ...manifest['/sitemap.xml']!, file: `sitemaps/${n}.xml` };
  return manifest;
}

it('the built config.json passes @vercel/routing-utils and the Build Output API v3 rules', () => {
  checkConfig(built, 'host build');
  assert.deepEqual(built.crons, [{ path: CRON_PATH, schedule: DEFAULT_CRON_SCHEDULE }]);
});

it('with the rules of 165, 10k and 100k reviews the config stays valid and under 100 routes', () => {
  const counts: Record<string, number> = {};
  for (const [label, manifest] of [
    ['165 reviews', manifestOf(BUILDS.content.outDir)],
    ['10k reviews', manifestOf(BUILDS.large.outDir)],
    ['100k-shaped', hundredThousandShaped()],
  ] as const) {
    const config = withRulesOf(manifest);
    checkConfig(config, label);
    counts[label] = config.routes!.length;
  }
  assert.ok(
    Object.values(counts).every((count) => count <= 100),
    JSON.stringify(counts),
  );
  assert.ok(
    counts['100k-shaped']! - counts['165 reviews']! <= 3,
    `only the sitemap parts are added: ${JSON.stringify(counts)}`,
  );
});

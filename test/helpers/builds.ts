/**
 * The builds the tests run against, made once per `npm test` by
 * scripts/build-test-sites.ts before any test file starts (a build takes
 * seconds; every test file reuses them).
 */
import { spawn } from 'node:child_process';
import { resolve } from 'node:path';

export const ROOT = resolve(import.meta.dirname, '../..');
export const TEST_BUILDS_DIR = resolve(ROOT, '.test-builds');
/**
 * V8's code cache on disk for every Node process of the builds and the tests
 * (NODE_COMPILE_CACHE): hundreds of processes compile the same modules, and
 * Node checks each entry against the module's source before using it.
 */
export const COMPILE_CACHE_DIR = resolve(TEST_BUILDS_DIR, 'compile-cache');

export const BUILDS = {
  /** The real sample content in content/. */
  content: { contentDir: resolve(ROOT, 'content'), outDir: resolve(TEST_BUILDS_DIR, 'content') },
  /** A handful of reviews, one with hostile text. */
  small: { contentDir: resolve(ROOT, 'test/fixtures/content-small'), outDir: resolve(TEST_BUILDS_DIR, 'small') },
  /** 10,000 generated reviews (scripts/generate-reviews.ts, seed 42), generated into contentDir first: since's pages and search at scale. */
  large: {
    contentDir: resolve(TEST_BUILDS_DIR, 'content-10k'),
    outDir: resolve(TEST_BUILDS_DIR, 'large'),
    generate: { count: 10_000, seed: 42 },
  },
} as const;

export type BuildName = keyof typeof BUILDS;

/**
 * The serverless targets, each built once over the small fixture as its host's
 * builder would: the target detected from the host's own variable (NETLIFY,
 * VERCEL) and the site from the host's production URL, no SITE_URL. An adapter
 * always writes to <root>/.netlify or <root>/.vercel/output, so the builds run
 * one after another and each output is moved into `dir` before the next.
 */
export const HOST_BUILDS = {
  netlify: {
    contentDir: resolve(ROOT, 'test/fixtures/content-small'),
    dir: resolve(TEST_BUILDS_DIR, 'netlify'),
    site: 'https://reviews-netlify.example',
    env: { NETLIFY: 'true', URL: 'https://reviews-netlify.example' },
    /** What the adapter writes under <root>, moved to `dir`/output. */
    output: '.netlify',
  },
  vercel: {
    contentDir: resolve(ROOT, 'test/fixtures/content-small'),
    dir: resolve(TEST_BUILDS_DIR, 'vercel'),
    site: 'https://reviews-vercel.example',
    env: { VERCEL: '1', VERCEL_PROJECT_PRODUCTION_URL: 'reviews-vercel.example' },
    output: '.vercel/output',
  },
} as const;

export type HostName = keyof typeof HOST_BUILDS;

/** Settings of the developer's shell that would change what a test build is. */
const BUILD_ISOLATED = /^(SITE_URL|DEPLOY_TARGET|NETLIFY|URL|VERCEL|VERCEL_.*|REDIS_.*|MCP_.*|CRON_SECRET)$/;

export const NODE = process.execPath;
export const ASTRO_BIN = resolve(ROOT, 'node_modules/astro/bin/astro.mjs');

/** The environment of a build into `outDir` from `contentDir`, with its own Astro cache. */
export function buildEnv(contentDir: string, outDir: string, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return {
    ...Object.fromEntries(Object.entries(process.env).filter(([name]) => !BUILD_ISOLATED.test(name))),
    DEPLOY_TARGET: 'node',
    CONTENT_DIR: contentDir,
    ASTRO_OUT_DIR: outDir,
    ASTRO_CACHE_DIR: `${outDir}.cache`,
    ASTRO_TELEMETRY_DISABLED: '1',
    ...extra,
  };
}

/** `astro build` of `contentDir` into `outDir`; resolves with its output, rejects with it when the build fails. */
export function buildSite(contentDir: string, outDir: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(NODE, [ASTRO_BIN, 'build'], {
      cwd: ROOT,
      env: buildEnv(contentDir, outDir),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.once('exit', (code) =>
      code === 0 ? resolve(output) : reject(new Error(`build failed (${code}):\n${output}`)),
    );
  });
}

/**
 * The builds the tests run against, made once per `npm test` by
 * scripts/build-test-sites.ts before any test file starts (a build takes
 * seconds; every test file reuses them).
 */
import { resolve } from 'node:path';

export const ROOT = resolve(import.meta.dirname, '../..');
export const TEST_BUILDS_DIR = resolve(ROOT, '.test-builds');

export const BUILDS = {
  /** The real sample content in content/. */
  content: { contentDir: resolve(ROOT, 'content'), outDir: resolve(TEST_BUILDS_DIR, 'content') },
  /** A handful of reviews, one with hostile text. */
  small: { contentDir: resolve(ROOT, 'test/fixtures/content-small'), outDir: resolve(TEST_BUILDS_DIR, 'small') },
} as const;

export type BuildName = keyof typeof BUILDS;

export const NODE = process.execPath;
export const ASTRO_BIN = resolve(ROOT, 'node_modules/astro/bin/astro.mjs');

/** The environment of a build into `outDir` from `contentDir`, with its own Astro cache. */
export function buildEnv(contentDir: string, outDir: string, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return {
    ...process.env,
    CONTENT_DIR: contentDir,
    ASTRO_OUT_DIR: outDir,
    ASTRO_CACHE_DIR: `${outDir}.cache`,
    ASTRO_TELEMETRY_DISABLED: '1',
    ...extra,
  };
}

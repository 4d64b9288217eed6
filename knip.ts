/**
 * knip: no unused file, export or dependency (run by `npm test`).
 *
 * Tests are entry files, so an export a test imports counts as used: the
 * modules' test seams stay exported without a mark in the code (the API's
 * answer cache, cacheFor and BodyCache.keys, which no HTTP route shows; the
 * cache's limits, BODY_CACHE_BYTES and MAX_KEPT_BODY_BYTES).
 * Everything else must be imported by something outside its own file.
 */
import type { KnipConfig } from 'knip';

const config: KnipConfig = {
  entry: [
    // Run by hand (`node bench/rest.ts`, `node scripts/generate-reviews.ts`): docs/performance.md, README.md.
    'bench/*.ts',
    'bench/reliability/*.ts',
    'scripts/*.ts',
    // The tests, run by scripts/run-tests.ts (npm test), and their helpers: every file under test/, as
    // knip's plugin for `node --test` counts them (a helper's export that no test uses stays allowed).
    'test/**/*.ts',
    // Started as a worker thread by src/lib/build/parallel-load.ts, from its path.
    'src/lib/build/review-worker.ts',
    // Bundled by esbuild from its path (src/widget/bundle.ts).
    'src/widget/index.ts',
  ],
  project: ['**/*.{ts,mts,mjs,astro}'],
  ignoreDependencies: [
    // Used by path, which knip cannot follow: spawned or read from node_modules by tests and scripts.
    'decap-cms',
    'decap-server',
    'axe-core',
    'netlify-cli',
    'remark-cli',
    '@modelcontextprotocol/conformance',
    '@modelcontextprotocol/inspector-cli',
    // vnu-jar's jar is run by java; lighthouse and action-validator by their command-line programs.
    'vnu-jar',
    'lighthouse',
    '@action-validator/cli',
  ],
  // System packages the tests and benchmarks run (README.md, bench/README.md list them): not npm dependencies.
  ignoreBinaries: ['jing', 'java', 'openssl', 'redis-server', 'redis-cli', 'script', 'wrk'],
};

export default config;

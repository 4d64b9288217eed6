/**
 * Builds the sites the test suite serves (see test/helpers/builds.ts), so that
 * every test file starts a real server on an up-to-date build.
 */
import { spawnSync } from 'node:child_process';
import { ASTRO_BIN, BUILDS, buildEnv, NODE, ROOT } from '../test/helpers/builds.ts';

for (const [name, build] of Object.entries(BUILDS)) {
  const started = performance.now();
  const result = spawnSync(NODE, [ASTRO_BIN, 'build'], { cwd: ROOT, env: buildEnv(build.contentDir, build.outDir), encoding: 'utf8' });
  if (result.status !== 0) {
    process.stderr.write(result.stdout + result.stderr);
    console.error(`test build "${name}" failed`);
    process.exit(1);
  }
  console.log(`test build "${name}" ready in ${Math.round(performance.now() - started)} ms`);
}

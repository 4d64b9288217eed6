/**
 * Builds the sites the test suite serves (see test/helpers/builds.ts), so that
 * every test file starts a real server on an up-to-date build: the Node
 * builds, then each serverless target, one after another (an adapter writes
 * to a fixed folder under the project), its output moved into .test-builds.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { ASTRO_BIN, BUILDS, buildEnv, HOST_BUILDS, NODE, ROOT } from '../test/helpers/builds.ts';

function build(name: string, env: NodeJS.ProcessEnv): string {
  const started = performance.now();
  // A build logs a line per page: 10k reviews log more than spawnSync's default 1 MiB buffer, past which it kills the build.
  const result = spawnSync(NODE, [ASTRO_BIN, 'build'], {
    cwd: ROOT,
    env,
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
  });
  if (result.status !== 0) {
    process.stderr.write(result.stdout + result.stderr);
    console.error(`test build "${name}" failed`);
    process.exit(1);
  }
  console.log(`test build "${name}" ready in ${Math.round(performance.now() - started)} ms`);
  return result.stdout + result.stderr;
}

for (const [name, entry] of Object.entries(BUILDS)) {
  if ('generate' in entry) generate(entry.contentDir, entry.generate);
  build(name, buildEnv(entry.contentDir, entry.outDir));
}

/** Generated content, made afresh (the generator is deterministic: same count and seed, same files). */
function generate(contentDir: string, { count, seed }: { count: number; seed: number }) {
  rmSync(contentDir, { recursive: true, force: true });
  const args = [
    resolve(ROOT, 'scripts/generate-reviews.ts'),
    '--count',
    String(count),
    '--seed',
    String(seed),
    '--out',
    join(contentDir, 'reviews'),
    '--with-business',
  ];
  const result = spawnSync(NODE, args, { cwd: ROOT, encoding: 'utf8' });
  if (result.status !== 0) {
    process.stderr.write(result.stdout + result.stderr);
    console.error(`generating ${count} reviews into ${contentDir} failed`);
    process.exit(1);
  }
}

for (const [name, host] of Object.entries(HOST_BUILDS)) {
  rmSync(host.dir, { recursive: true, force: true });
  rmSync(resolve(ROOT, host.output), { recursive: true, force: true });
  const env = { ...buildEnv(host.contentDir, join(host.dir, 'dist'), host.env), DEPLOY_TARGET: '' };
  const log = build(name, env);
  // The build's log holds the warnings a host's build page would show (missing settings).
  writeFileSync(join(host.dir, 'build.log'), log);
  mkdirSync(dirname(join(host.dir, 'output')), { recursive: true });
  renameSync(resolve(ROOT, host.output), join(host.dir, 'output'));
}

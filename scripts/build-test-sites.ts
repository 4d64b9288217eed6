/**
 * Builds the sites the test suite serves (see test/helpers/builds.ts), so that
 * every test file starts a real server on an up-to-date build: the Node builds
 * and each serverless target, two at a time, the longest first (a build is
 * mostly one thread; the machine has two cores). An adapter writes to a fixed
 * folder under the project (.netlify, .vercel/output), one per host, so two
 * hosts' builds can run at once; each output is moved into .test-builds.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { ASTRO_BIN, BUILDS, buildEnv, COMPILE_CACHE_DIR, HOST_BUILDS, NODE, ROOT } from '../test/helpers/builds.ts';

process.env.NODE_COMPILE_CACHE ??= COMPILE_CACHE_DIR;

/** Builds at once: one per core of a two-core machine. */
const AT_ONCE = 2;

/** `astro build`; resolves with its log, or ends the script with that log when the build fails. */
function build(name: string, env: NodeJS.ProcessEnv): Promise<string> {
  const started = performance.now();
  const child = spawn(NODE, [ASTRO_BIN, 'build'], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  // A build logs a line per page: 10k reviews log megabytes, kept whole for the host builds' build.log.
  const chunks: Buffer[] = [];
  child.stdout.on('data', (chunk: Buffer) => chunks.push(chunk));
  child.stderr.on('data', (chunk: Buffer) => chunks.push(chunk));
  return new Promise((resolveBuild) => {
    child.once('close', (code) => {
      const log = Buffer.concat(chunks).toString('utf8');
      if (code !== 0) {
        process.stderr.write(log);
        console.error(`test build "${name}" failed`);
        process.exit(1);
      }
      console.log(`test build "${name}" ready in ${Math.round(performance.now() - started)} ms`);
      resolveBuild(log);
    });
  });
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

const jobs = new Map<string, () => Promise<void>>();
for (const [name, entry] of Object.entries(BUILDS))
  jobs.set(name, async () => {
    if ('generate' in entry) generate(entry.contentDir, entry.generate);
    await build(name, buildEnv(entry.contentDir, entry.outDir));
  });
for (const [name, host] of Object.entries(HOST_BUILDS))
  jobs.set(name, async () => {
    rmSync(host.dir, { recursive: true, force: true });
    rmSync(resolve(ROOT, host.output), { recursive: true, force: true });
    const env = { ...buildEnv(host.contentDir, join(host.dir, 'dist'), host.env), DEPLOY_TARGET: '' };
    const log = await build(name, env);
    // The build's log holds the warnings a host's build page would show (missing settings).
    writeFileSync(join(host.dir, 'build.log'), log);
    mkdirSync(dirname(join(host.dir, 'output')), { recursive: true });
    renameSync(resolve(ROOT, host.output), join(host.dir, 'output'));
  });

/** The longest builds, longest first (10k reviews, then the serverless ones); any other after them. */
const LONGEST_FIRST = ['large', 'vercel', 'netlify'];
const rank = (name: string) => (LONGEST_FIRST.includes(name) ? LONGEST_FIRST.indexOf(name) : LONGEST_FIRST.length);
const queue = [...jobs.keys()].sort((a, b) => rank(a) - rank(b)).map((name) => jobs.get(name)!);
await Promise.all(
  Array.from({ length: AT_ONCE }, async () => {
    for (let next = queue.shift(); next; next = queue.shift()) await next();
  }),
);

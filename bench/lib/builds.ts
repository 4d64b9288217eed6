/**
 * Benchmark builds: generated content and a real `astro build` per size, in
 * BUILDS_ROOT/N (content/, dist/, dist.cache/, meta.json). A build whose
 * meta.json and server entry exist is reused unless `rebuild` is set; its
 * generate and build times are then the ones recorded when it was made.
 * The build is made the way test/helpers/builds.ts makes the test builds:
 * env CONTENT_DIR, ASTRO_OUT_DIR, ASTRO_CACHE_DIR, then astro build.
 */
import { spawnSync } from 'node:child_process';
import {
  existsSync,
  lstatSync,
  mkdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { resolve } from 'node:path';
import { NODE, ROOT } from './processes.ts';

export const GENERATOR = resolve(ROOT, 'scripts/generate-reviews.ts');

export interface BuildInfo {
  label: string;
  /** Reviews in the build's reviews.json (the truth, whatever the generator made). */
  reviews: number;
  contentDir: string;
  distDir: string;
  generateMs: number | null;
  buildMs: number;
  /** CPU time (user + system) of the build process: on a shared machine, steadier than its wall time. */
  buildCpuMs: number | null;
  reused: boolean;
}

interface Meta {
  count: number | null;
  seed: number;
  contentDir: string;
  generateMs: number | null;
  buildMs: number;
  buildCpuMs?: number;
  madeAt: string;
}

/**
 * The build for `count` generated reviews (seed 42), or, with `contentDir`,
 * for an existing content folder (labelled by its folder name).
 */
export function ensureBuild(options: {
  buildsRoot: string;
  count?: number;
  contentDir?: string;
  rebuild: boolean;
  seed?: number;
  log: (line: string) => void;
}): BuildInfo {
  const seed = options.seed ?? 42;
  const label = options.contentDir ? `content-${sanitize(options.contentDir)}` : String(options.count);
  const dir = resolve(options.buildsRoot, label);
  const distDir = resolve(dir, 'dist');
  const metaFile = resolve(dir, 'meta.json');
  const contentDir = options.contentDir ? resolve(options.contentDir) : resolve(dir, 'content');
  mkdirSync(options.buildsRoot, { recursive: true });
  linkNodeModules(options.buildsRoot);

  if (!options.rebuild && existsSync(metaFile) && existsSync(resolve(distDir, 'server/entry.mjs'))) {
    const meta = JSON.parse(readFileSync(metaFile, 'utf8')) as Meta;
    if (meta.seed === seed && meta.contentDir === contentDir) {
      options.log(`  reusing the build in ${dir} (--rebuild to make it again)`);
      return {
        label,
        reviews: reviewCount(distDir),
        contentDir,
        distDir,
        generateMs: meta.generateMs,
        buildMs: meta.buildMs,
        buildCpuMs: meta.buildCpuMs ?? null,
        reused: true,
      };
    }
  }

  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  let generateMs: number | null = null;
  if (!options.contentDir) {
    if (!existsSync(GENERATOR)) {
      throw new Error(
        `${GENERATOR} is missing: it generates the benchmark content. Pass --content DIR to benchmark an existing content folder.`,
      );
    }
    options.log(`  generating ${options.count} reviews (seed ${seed}) into ${contentDir}`);
    const started = performance.now();
    run(
      [
        GENERATOR,
        '--count',
        String(options.count),
        '--seed',
        String(seed),
        '--out',
        resolve(contentDir, 'reviews'),
        '--with-business',
      ],
      {},
      'generating content',
    );
    generateMs = performance.now() - started;
  }
  options.log(`  building into ${distDir}`);
  const { buildMs, buildCpuMs } = astroBuild({ contentDir, distDir });
  const meta: Meta = {
    count: options.count ?? null,
    seed,
    contentDir,
    generateMs,
    buildMs,
    buildCpuMs,
    madeAt: new Date().toISOString(),
  };
  writeFileSync(metaFile, `${JSON.stringify(meta, null, 2)}\n`);
  return { label, reviews: reviewCount(distDir), contentDir, distDir, generateMs, buildMs, buildCpuMs, reused: false };
}

/**
 * One `astro build` of `contentDir` into `distDir` (its cache in `distDir.cache`), by
 * the checkout at `root` (default: this one; bench/build.ts builds the tree before a
 * change too), with `env` added. Wall and CPU time (user + system of the build
 * process and its threads) in ms.
 */
export function astroBuild(options: {
  contentDir: string;
  distDir: string;
  root?: string;
  env?: Record<string, string>;
}): { buildMs: number; buildCpuMs: number } {
  const root = options.root ?? ROOT;
  const started = performance.now();
  const cpuBefore = childrenCpuMs();
  const env = {
    CONTENT_DIR: options.contentDir,
    ASTRO_OUT_DIR: options.distDir,
    ASTRO_CACHE_DIR: `${options.distDir}.cache`,
    ASTRO_TELEMETRY_DISABLED: '1',
    ...options.env,
  };
  run([resolve(root, 'node_modules/astro/bin/astro.mjs'), 'build'], env, 'astro build', root);
  return { buildMs: performance.now() - started, buildCpuMs: childrenCpuMs() - cpuBefore };
}

/**
 * A build's server chunks import packages by bare name (at build time, during
 * prerendering, and at run time), resolved by walking up from the build
 * folder. Outside the checkout that needs a node_modules above it: a link to
 * the checkout's own.
 */
export function linkNodeModules(buildsRoot: string) {
  const link = resolve(buildsRoot, 'node_modules');
  const target = resolve(ROOT, 'node_modules');
  let current: string | null = null;
  try {
    // A real folder there is someone's own: left as it is.
    if (!lstatSync(link).isSymbolicLink()) return;
    current = readlinkSync(link);
  } catch {
    current = null;
  }
  // A link left by another checkout would lend the builds its packages, not this one's.
  if (current === target) return;
  if (current !== null) rmSync(link, { force: true });
  symlinkSync(target, link, 'dir');
}

function run(args: string[], env: Record<string, string>, what: string, cwd = ROOT) {
  const result = spawnSync(NODE, args, {
    cwd,
    env: { ...process.env, ...env },
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
  });
  if (result.status !== 0) {
    throw new Error(`${what} failed (exit ${result.status}):\n${(result.stdout + result.stderr).slice(-4000)}`);
  }
}

/** User + system CPU of this process's waited-for children (/proc/self/stat cutime, cstime; clock ticks of 10 ms). */
function childrenCpuMs(): number {
  const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[13]) + Number(fields[14])) * 10;
}

function reviewCount(distDir: string): number {
  return (JSON.parse(readFileSync(resolve(distDir, 'client/reviews.json'), 'utf8')) as { reviews: unknown[] }).reviews
    .length;
}

function sanitize(path: string): string {
  return resolve(path)
    .split('/')
    .filter(Boolean)
    .slice(-2)
    .join('-')
    .replace(/[^A-Za-z0-9._-]/g, '_');
}

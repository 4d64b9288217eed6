/**
 * The build floor: `astro build` of 100k generated reviews within 60 s. With a
 * tree before a change (--before DIR or --before-ref REF) both trees build the
 * same content in the same run, rounds interleaved, and every file of
 * dist/client must be byte for byte the same.
 *
 *   node_modules/.bin/node bench/build.ts                         # 100k reviews, this tree
 *   node_modules/.bin/node bench/build.ts --size 10000 --before-ref main --rounds 2
 *
 * Options:
 *   --size N          generated reviews (seed 42), repeatable                          [100000]
 *   --before DIR      a checkout to build "before" with (its node_modules must resolve)
 *   --before-ref REF  `git archive REF` of this repository, node_modules linked
 *   --rounds N        rounds per size                                                 [1]
 *   --builds-dir DIR  where builds go (emptied first)                                 [/tmp/bench-build-time]
 *
 * Wall time is the floor's figure; CPU time (user + system of the build and its
 * threads) is the steadier one on a shared machine. Exits 1 when the floor is
 * missed or the trees' outputs differ.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { astroBuild, GENERATOR, linkNodeModules } from './lib/builds.ts';
import { NODE, ROOT } from './lib/processes.ts';

const FLOOR_SECONDS = 60;
const FLOOR_REVIEWS = 100_000;

const { values: args } = parseArgs({
  options: {
    size: { type: 'string', multiple: true, default: [String(FLOOR_REVIEWS)] },
    before: { type: 'string' },
    'before-ref': { type: 'string' },
    rounds: { type: 'string', default: '1' },
    'builds-dir': { type: 'string', default: '/tmp/bench-build-time' },
  },
});

const buildsRoot = resolve(args['builds-dir']);
const log = (line: string) => process.stderr.write(`${line}\n`);
rmSync(buildsRoot, { recursive: true, force: true });
mkdirSync(buildsRoot, { recursive: true });
linkNodeModules(buildsRoot);

let beforeRoot = args.before ? resolve(args.before) : undefined;
if (args['before-ref']) {
  beforeRoot = join(buildsRoot, 'before-tree');
  mkdirSync(beforeRoot);
  const archive = spawnSync('git', ['archive', args['before-ref']], { cwd: ROOT, maxBuffer: 1 << 30 });
  if (archive.status !== 0) throw new Error(`git archive ${args['before-ref']} failed: ${archive.stderr}`);
  execFileSync('tar', ['-x', '-C', beforeRoot], { input: archive.stdout });
  symlinkSync(resolve(ROOT, 'node_modules'), join(beforeRoot, 'node_modules'), 'dir');
}
const trees = [...(beforeRoot ? [{ name: 'before', root: beforeRoot }] : []), { name: 'this tree', root: ROOT }];

const lines = [
  '| reviews | tree | round | wall s | CPU s | floor | files differing from before |',
  '| ---: | --- | ---: | ---: | ---: | ---: | --- |',
];
let failed = false;
for (const size of args.size.map(Number)) {
  const contentDir = join(buildsRoot, `content-${size}`);
  log(`generating ${size} reviews into ${contentDir}`);
  execFileSync(
    NODE,
    [GENERATOR, '--count', String(size), '--seed', '42', '--out', join(contentDir, 'reviews'), '--with-business'],
    { cwd: ROOT },
  );
  for (let round = 1; round <= Number(args.rounds); round += 1) {
    // The order flips every round, so a slow spell of the machine does not always fall on the same tree.
    const order = round % 2 === 1 ? trees : [...trees].reverse();
    const built = new Map<string, { distDir: string; wall: number; cpu: number }>();
    for (const tree of order) {
      const distDir = join(buildsRoot, `${size}-${tree.name.replace(/\W+/g, '-')}`);
      log(`${size}, round ${round}: building with ${tree.name}`);
      const { buildMs, buildCpuMs } = astroBuild({ contentDir, distDir, root: tree.root });
      built.set(tree.name, { distDir, wall: buildMs / 1000, cpu: buildCpuMs / 1000 });
    }
    const diff = beforeRoot ? compareBuilds(built.get('before')!.distDir, built.get('this tree')!.distDir) : [];
    if (diff.length > 0) failed = true;
    for (const tree of trees) {
      const { wall, cpu } = built.get(tree.name)!;
      const within = wall <= FLOOR_SECONDS || size > FLOOR_REVIEWS;
      if (tree.root === ROOT && !within) failed = true;
      const differing =
        tree.name === 'before' || !beforeRoot
          ? ''
          : diff.length === 0
            ? 'none'
            : `${diff.length}: ${diff.slice(0, 5).join(', ')}`;
      lines.push(
        `| ${size} | ${tree.name} | ${round} | ${wall.toFixed(1)} | ${cpu.toFixed(1)} | ${within ? 'ok' : 'MISSED'} | ${differing} |`,
      );
    }
    // A 100k build and its cache are about 1 GB.
    for (const { distDir } of built.values())
      for (const path of [distDir, `${distDir}.cache`]) rmSync(path, { recursive: true, force: true });
  }
}
console.log(lines.join('\n'));
process.exitCode = failed ? 1 : 0;

/** Paths of dist/client whose bytes differ, or that only one build has. */
function compareBuilds(a: string, b: string): string[] {
  const differing: string[] = [];
  const filesB = new Set(listFiles(join(b, 'client')));
  for (const file of listFiles(join(a, 'client'))) {
    if (!filesB.delete(file)) differing.push(`${file} (only before)`);
    else if (!readFileSync(join(a, 'client', file)).equals(readFileSync(join(b, 'client', file)))) differing.push(file);
  }
  for (const file of filesB) differing.push(`${file} (only after)`);
  return differing;
}

function listFiles(dir: string, prefix = ''): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(join(dir, prefix), { withFileTypes: true })) {
    const path = prefix ? `${prefix}/${entry.name}` : entry.name;
    if (entry.isDirectory()) out.push(...listFiles(dir, path));
    else out.push(path);
  }
  return out.sort();
}

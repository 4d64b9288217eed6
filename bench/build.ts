/**
 * The build's own time at scale, before and after a change, in one run:
 * `astro build` of each content folder by the tree before (another checkout)
 * and by this one, rounds interleaved (before, after, after in one thread, ...),
 * wall and CPU time (user + system of the build process and its threads: the
 * steadier figure on a shared machine), and every file of dist/client (pages,
 * datasets, feeds, sitemaps, the static manifest's inputs) compared byte for byte.
 *
 *   node bench/build.ts --content /tmp/hscale/c10k --content /tmp/hscale/c100k --before-ref main
 *   node bench/build.ts --size 10000 --before /tmp/base-checkout --rounds 2
 *
 * Options:
 *   --content DIR     a content folder to build (repeatable)
 *   --size N          generated content of N reviews (seed 42; repeatable), made once under --builds-dir
 *   --before DIR      a checkout to build "before" with (its node_modules must resolve)
 *   --before-ref REF  `git archive REF` of this repository into a temporary folder, node_modules linked
 *   --rounds N        rounds per folder                                               [1]
 *   --single-thread   also build this tree with CONTENT_THREADS=1 (the content read in one thread)
 *   --builds-dir DIR  where builds go (replaced on every run)                         [/tmp/bench-build-time]
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { astroBuild, GENERATOR, linkNodeModules } from './lib/builds.ts';
import { NODE, ROOT } from './lib/processes.ts';

const { values: args } = parseArgs({
  options: {
    content: { type: 'string', multiple: true, default: [] },
    size: { type: 'string', multiple: true, default: [] },
    before: { type: 'string' },
    'before-ref': { type: 'string' },
    rounds: { type: 'string', default: '1' },
    'single-thread': { type: 'boolean', default: false },
    'builds-dir': { type: 'string', default: '/tmp/bench-build-time' },
  },
});

const buildsRoot = resolve(args['builds-dir']);
const log = (line: string) => process.stderr.write(`${line}\n`);
rmSync(buildsRoot, { recursive: true, force: true });
mkdirSync(buildsRoot, { recursive: true });
linkNodeModules(buildsRoot);

const folders: Array<{ label: string; dir: string }> = args.content.map((dir) => ({ label: relative('/', resolve(dir)).replaceAll('/', '-'), dir: resolve(dir) }));
for (const size of args.size) {
  const dir = join(buildsRoot, `content-${size}`);
  log(`generating ${size} reviews into ${dir}`);
  execFileSync(NODE, [GENERATOR, '--count', size, '--seed', '42', '--out', join(dir, 'reviews'), '--with-business'], { cwd: ROOT });
  folders.push({ label: `generated-${size}`, dir });
}
if (folders.length === 0) throw new Error('nothing to build: pass --content DIR or --size N');

let beforeRoot = args.before ? resolve(args.before) : undefined;
if (args['before-ref']) {
  beforeRoot = join(buildsRoot, 'before-tree');
  mkdirSync(beforeRoot);
  const archive = spawnSync('git', ['archive', args['before-ref']], { cwd: ROOT, maxBuffer: 1 << 30 });
  if (archive.status !== 0) throw new Error(`git archive ${args['before-ref']} failed: ${archive.stderr}`);
  execFileSync('tar', ['-x', '-C', beforeRoot], { input: archive.stdout });
  symlinkSync(resolve(ROOT, 'node_modules'), join(beforeRoot, 'node_modules'), 'dir');
}

interface Variant {
  name: string;
  root: string;
  env?: Record<string, string>;
}
const variants: Variant[] = [
  ...(beforeRoot ? [{ name: 'before', root: beforeRoot }] : []),
  { name: 'after', root: ROOT },
  ...(args['single-thread'] ? [{ name: 'after, CONTENT_THREADS=1', root: ROOT, env: { CONTENT_THREADS: '1' } }] : []),
];

interface Row {
  folder: string;
  reviews: number;
  variant: string;
  round: number;
  wallS: number;
  cpuS: number;
  /** Files of dist/client that differ from the first variant's build of the same folder (null for the first). */
  differing: string[] | null;
}
const rows: Row[] = [];

for (const folder of folders) {
  for (let round = 1; round <= Number(args.rounds); round += 1) {
    // Alternate the order between rounds, so a slow spell of the machine does not always fall on the same tree.
    const order = round % 2 === 1 ? variants : [...variants].reverse();
    const built = new Map<string, string>();
    for (const variant of order) {
      const distDir = join(buildsRoot, `${folder.label}-${variant.name.replace(/[^a-z0-9]+/gi, '_')}-${round}`);
      log(`${folder.label}, round ${round}: building ${variant.name} into ${distDir}`);
      const { buildMs, buildCpuMs } = astroBuild({ contentDir: folder.dir, distDir, root: variant.root, env: variant.env });
      built.set(variant.name, distDir);
      log(`  ${(buildMs / 1000).toFixed(1)} s wall, ${(buildCpuMs / 1000).toFixed(1)} s CPU`);
      rows.push({ folder: folder.label, reviews: reviewCount(distDir), variant: variant.name, round, wallS: buildMs / 1000, cpuS: buildCpuMs / 1000, differing: null });
    }
    const reference = built.get(variants[0].name)!;
    for (const row of rows.filter((r) => r.folder === folder.label && r.round === round && r.variant !== variants[0].name)) {
      row.differing = compareBuilds(reference, built.get(row.variant)!);
    }
    // Keep the disk in check: a 100k build and its cache are ~1 GB.
    for (const dir of built.values()) for (const path of [dir, `${dir}.cache`]) rmSync(path, { recursive: true, force: true });
  }
}

console.log('| content | reviews | tree | round | build wall s | build CPU s | CPU / before | files differing from before |');
console.log('| --- | ---: | --- | ---: | ---: | ---: | ---: | --- |');
for (const row of rows) {
  const before = rows.find((r) => r.folder === row.folder && r.round === row.round && r.variant === variants[0].name)!;
  const ratio = row === before ? '' : (row.cpuS / before.cpuS).toFixed(2);
  const diff = row.differing === null ? '' : row.differing.length === 0 ? 'none' : `${row.differing.length}: ${row.differing.slice(0, 5).join(', ')}`;
  console.log(`| ${row.folder} | ${row.reviews} | ${row.variant} | ${row.round} | ${row.wallS.toFixed(1)} | ${row.cpuS.toFixed(1)} | ${ratio} | ${diff} |`);
}
if (rows.some((r) => r.differing && r.differing.length > 0)) process.exitCode = 1;

/**
 * Paths (relative) of dist/client whose bytes differ, or that only one build has. (Not the data
 * store: its layout is what a change to the loader may change; what is built from it is compared.)
 */
function compareBuilds(a: string, b: string): string[] {
  const differing: string[] = [];
  const filesA = listFiles(join(a, 'client'));
  const filesB = new Set(listFiles(join(b, 'client')));
  for (const file of filesA) {
    if (!filesB.delete(file)) differing.push(`client/${file} (only before)`);
    else if (!readFileSync(join(a, 'client', file)).equals(readFileSync(join(b, 'client', file)))) differing.push(`client/${file}`);
  }
  for (const file of filesB) differing.push(`client/${file} (only after)`);
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

function reviewCount(distDir: string): number {
  return (JSON.parse(readFileSync(join(distDir, 'client/reviews.json'), 'utf8')) as { reviews: unknown[] }).reviews.length;
}

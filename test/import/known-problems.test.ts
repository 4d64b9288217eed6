/**
 * Exit statuses a scheduler can use: a record the import reported once does
 * not fail the later runs (exit 0, still listed, as known); a new one exits 1;
 * what the import remembers (content/.import-state.json) is written whole,
 * sorted, without times, and not at all when nothing changed or on a dry run.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, it } from 'node:test';
import { exitStatus, formatReport } from '../../src/lib/import/report.ts';
import { importReviews } from '../../src/lib/import/run.ts';
import { NODE, ROOT } from '../helpers/builds.ts';
import { importCommand } from './command.ts';
import { googleListPage, googleReview } from './exports.ts';

const work = mkdtempSync(join(tmpdir(), 'import-known-'));
after(() => rmSync(work, { recursive: true, force: true }));

function cli(args: string[]) {
  const result = spawnSync(NODE, [join(ROOT, 'scripts/import.ts'), ...args], { cwd: work, encoding: 'utf8' });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** `npm run import -- FILE…` in this process (./command.ts); the exit statuses are also checked as a command's, below. */
const command = (files: string[], options: Parameters<typeof importCommand>[2]) => importCommand(work, files, options);

function contentCopy(): string {
  const dir = mkdtempSync(join(work, 'content-'));
  cpSync(join(ROOT, 'content'), dir, { recursive: true });
  return dir;
}

const unrated = (id: string) => ({ ...googleReview('1045', '11', id), starRating: 'STAR_RATING_UNSPECIFIED' });
const good = (id: string) =>
  googleReview('1045', '11', id, { reviewer: { displayName: `Customer ${id}` }, comment: `Good work, ${id}.` });

function exportOf(name: string, reviews: unknown[]): string {
  writeFileSync(join(work, name), JSON.stringify(googleListPage(reviews as Parameters<typeof googleListPage>[0])));
  return name;
}

it('a bad record exits 1 once; the same export again exits 0 and still lists it, as known; a new bad record exits 1', () => {
  const content = contentCopy();
  const memory = join(content, '.import-state.json');
  const file = exportOf('location.json', [good('g1'), unrated('bad1'), good('g2')]);

  const first = cli(['--content-dir', content, file]);
  assert.equal(first.status, 1, first.stdout + first.stderr);
  assert.match(first.stdout, /^location\.json: not imported, nothing written \(1 problem\):$/m);
  assert.match(first.stdout, /^ {2}record 2, starRating: no star rating \(STAR_RATING_UNSPECIFIED\)[^\n]*here$/m);
  assert.match(first.stdout, /^0 new, 0 updated, 0 unchanged, 0 skipped; 1 file not imported; 1 new problem\.$/m);
  assert.ok(existsSync(memory), 'what was reported is remembered');

  const second = cli(['--content-dir', content, file]);
  assert.equal(second.status, 0, second.stdout + second.stderr);
  assert.match(
    second.stdout,
    /^ {2}skipped {3}record 2: starRating: no star rating .* \(known: reported by an earlier import\)$/m,
  );
  assert.match(
    second.stdout,
    /^2 new, 0 updated, 0 unchanged, 1 skipped; 1 known problem \(reported before; not failing the run\)\. Review the files/m,
  );

  // Google's list is newest first: a new review moves the bad one to record 3; it is still the one reported.
  const moved = exportOf('location.json', [good('g0'), good('g1'), unrated('bad1'), good('g2')]);
  const third = command([moved], { contentDir: content });
  assert.equal(third.status, 0, third.stdout);
  assert.match(third.stdout, /record 3: starRating: .*\(known: reported by an earlier import\)$/m);

  const newBad = exportOf('location.json', [good('g0'), good('g1'), unrated('bad1'), good('g2'), unrated('bad2')]);
  const fourth = command([newBad], { contentDir: content });
  assert.equal(fourth.status, 1, fourth.stdout);
  assert.match(fourth.stdout, /^ {2}record 3, starRating: .*\(known: reported by an earlier import\)$/m);
  assert.match(fourth.stdout, /^ {2}record 5, starRating: no star rating[^(]*\(STAR_RATING_UNSPECIFIED\)[^\n]*here$/m);
  assert.match(fourth.stdout, /; 1 file not imported; 1 new problem; 1 known problem/);
  assert.match(
    fourth.stdout,
    /The other 3 records have no problem and are already imported, unchanged: nothing more to import from this file\./,
  );
  assert.equal(command([newBad], { contentDir: content }).status, 0);
});

it('--skip-invalid imports the rest but a new problem still exits 1; a problem fixed on the platform is forgotten', () => {
  const content = contentCopy();
  const file = exportOf('skip.json', [good('s1'), unrated('s-bad')]);
  const skipped = command([file], { contentDir: content, skipInvalid: true });
  assert.equal(skipped.status, 1, skipped.stdout);
  assert.match(skipped.stdout, /^1 new, 0 updated, 0 unchanged, 1 skipped; 1 new problem\./m);
  assert.equal(command([file], { contentDir: content }).status, 0);

  // The customer gave stars after all: the record imports, and the memory forgets it.
  const fixed = exportOf('skip.json', [good('s1'), good('s-bad')]);
  const imported = command([fixed], { contentDir: content });
  assert.equal(imported.status, 0, imported.stdout);
  assert.match(imported.stdout, /^1 new, 0 updated, 1 unchanged, 0 skipped\./m);
  const state = JSON.parse(readFileSync(join(content, '.import-state.json'), 'utf8'));
  assert.deepEqual(state.reported, []);
  // Were it to come back without stars, it is new again.
  assert.equal(command([exportOf('skip.json', [good('s1'), unrated('s-bad')])], { contentDir: content }).status, 1);
});

it('the memory file: sorted, no times, untouched by a run that changes nothing, never written by a dry run', () => {
  const content = contentCopy();
  const memory = join(content, '.import-state.json');
  const file = exportOf('memory.json', [unrated('m-bad2'), good('m2'), unrated('m-bad1'), good('m1')]);
  assert.equal(cli(['--content-dir', content, '--dry-run', file]).status, 1);
  assert.ok(!existsSync(memory), 'a dry run writes nothing');
  assert.equal(command([file], { contentDir: content }).status, 1);
  const text = readFileSync(memory, 'utf8');
  const state = JSON.parse(text);
  assert.deepEqual(
    state.reported.map((r: { record: string; field: string }) => [r.record, r.field]),
    [
      ['m-bad1', 'starRating'],
      ['m-bad2', 'starRating'],
    ],
  );
  assert.doesNotMatch(text, /\d{4}-\d{2}-\d{2}T/, 'no times');
  assert.doesNotMatch(text, /STAR_RATING_UNSPECIFIED|Good work/, 'no export text: problems are kept as digests');
  assert.equal(command([file], { contentDir: content }).status, 0);
  const written = readFileSync(memory, 'utf8');
  const { mtimeMs } = statSync(memory);
  assert.deepEqual(JSON.parse(written).locations['google locations/11'].reviews, ['m1', 'm2']);
  assert.equal(command([file], { contentDir: content }).status, 0);
  assert.equal(readFileSync(memory, 'utf8'), written);
  assert.equal(statSync(memory).mtimeMs, mtimeMs, 'not rewritten');
  assert.deepEqual(
    readdirSync(content).filter((n) => n.includes('.tmp')),
    [],
    'no temporary file left',
  );
});

it('a memory file that is not what the import wrote (a merge conflict) is a setup problem: exit 2, nothing written', () => {
  const content = contentCopy();
  writeFileSync(join(content, '.import-state.json'), '<<<<<<< HEAD\n{}\n=======\n{}\n>>>>>>> other\n');
  const files = readdirSync(join(content, 'reviews')).length;
  const result = cli(['--content-dir', content, exportOf('conflict.json', [good('c1')])]);
  assert.equal(result.status, 2, result.stdout + result.stderr);
  assert.match(result.stderr, /\.import-state\.json: not valid JSON .*put back the committed version/);
  assert.doesNotMatch(result.stderr, /\n {4}at /);
  assert.equal(readdirSync(join(content, 'reviews')).length, files);
});

it('a memory that cannot be written: the review files are, the report says so, and the run exits 1', () => {
  const content = contentCopy();
  // A folder where the memory's temporary file goes.
  mkdirSync(join(content, `.import-state.json.${process.pid}.tmp`));
  const report = importReviews([join(work, exportOf('unwritable.json', [good('u1'), unrated('u-bad')]))], {
    contentDir: content,
    skipInvalid: true,
  });
  assert.equal(report.files[0]!.added.length, 1);
  assert.match(
    formatReport(report),
    /^\.import-state\.json could not be written \(.*\): the next run reports this run's problems as new again\n1 new, /m,
  );
  assert.equal(exitStatus(report), 1);
  assert.ok(!existsSync(join(content, '.import-state.json')));
});

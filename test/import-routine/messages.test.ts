/**
 * What a scheduler and an owner read from `npm run import`: the exit status
 * (0 imported, 1 something could not be imported, 2 usage or setup) and, when
 * a few records block an export, how to import the rest.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, it } from 'node:test';
import { NODE, ROOT } from '../helpers/builds.ts';
import { importCommand } from '../import/command.ts';
import { googleListPage, googleReview } from '../import/exports.ts';

const work = mkdtempSync(join(tmpdir(), 'import-exit-'));
after(() => rmSync(work, { recursive: true, force: true }));

function cli(args: string[], env: Record<string, string> = {}) {
  const result = spawnSync(NODE, [join(ROOT, 'scripts/import.ts'), ...args], {
    cwd: work,
    encoding: 'utf8',
    env: { PATH: process.env.PATH!, ...env },
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** `npm run import -- FILE…` in this process (../import/command.ts): what it prints; its options and exit statuses are run as a command here. */
const command = (files: string[], options: Parameters<typeof importCommand>[2]) => importCommand(work, files, options);

function contentCopy(): string {
  const dir = mkdtempSync(join(work, 'content-'));
  cpSync(join(ROOT, 'content'), dir, { recursive: true });
  return dir;
}

it('records that block an export: the count of good ones and --skip-invalid, which then imports them', () => {
  const content = contentCopy();
  writeFileSync(
    join(work, 'unspecified.json'),
    JSON.stringify(
      googleListPage([
        googleReview('1', '2', 'ok1'),
        { ...googleReview('1', '2', 'bad1'), starRating: 'STAR_RATING_UNSPECIFIED' },
        googleReview('1', '2', 'ok2', { comment: 'Second good one.' }),
      ]),
    ),
  );
  const blocked = cli(['--content-dir', content, 'unspecified.json']);
  assert.equal(blocked.status, 1);
  assert.match(
    blocked.stdout,
    /^ {2}The other 2 records have no problem: run again with --skip-invalid to import them \(the one above is listed as skipped, not written\)\.$/m,
  );
  const skipped = cli(['--content-dir', content, '--skip-invalid', 'unspecified.json']);
  assert.equal(skipped.status, 0, skipped.stdout + skipped.stderr);
  assert.match(skipped.stdout, /2 new, 0 updated, 0 unchanged, 1 skipped/);

  // A file-level problem: --skip-invalid would not help, so it is not offered.
  writeFileSync(join(work, 'broken.json'), '{"reviews": [');
  const broken = command(['broken.json'], { contentDir: content });
  assert.equal(broken.status, 1);
  assert.doesNotMatch(broken.stdout, /--skip-invalid/);
});

it('usage and setup mistakes exit 2, without a stack trace; nothing written', () => {
  const content = contentCopy();
  const files = readdirSync(join(content, 'reviews')).length;
  const missing = cli(['--content-dir', content, 'no-such-export.json']);
  assert.equal(missing.status, 2, missing.stdout + missing.stderr);
  assert.match(missing.stderr, /^import: .*no-such-export\.json/);
  const noContent = cli(['--content-dir', join(work, 'no-content'), '--google'], {
    GOOGLE_LOCATIONS: 'accounts/1/locations/2',
    GOOGLE_ACCESS_TOKEN: 'x',
    GOOGLE_API_BASE: 'http://127.0.0.1:9',
  });
  assert.equal(noContent.status, 1, 'the API is unreachable before the folder is read: a failure, not setup');
  const unreadable = cli(['--content-dir', join(work, 'no-content'), 'no-such-export.json']);
  assert.equal(unreadable.status, 2);
  assert.match(unreadable.stderr, /the content folder cannot be read/);
  const unset = cli(['--content-dir', content, '--google'], { GOOGLE_ACCESS_TOKEN: 'x' });
  assert.equal(unset.status, 2);
  assert.match(unset.stderr, /GOOGLE_LOCATIONS is not set/);
  const malformed = cli(['--content-dir', content, '--google'], {
    GOOGLE_LOCATIONS: 'shop-11',
    GOOGLE_ACCESS_TOKEN: 'x',
  });
  assert.equal(malformed.status, 2);
  const noCredentials = cli(['--content-dir', content, '--google'], { GOOGLE_LOCATIONS: 'accounts/1/locations/2' });
  assert.equal(noCredentials.status, 2);
  assert.match(noCredentials.stderr, /no Google credentials/);
  for (const r of [missing, unreadable, unset, malformed, noCredentials]) assert.doesNotMatch(r.stderr, /\n {4}at /);
  assert.equal(readdirSync(join(content, 'reviews')).length, files);
});

it('a semicolon- or tab-separated CSV (Excel in much of Europe) imports like a comma-separated one', () => {
  const content = contentCopy();
  writeFileSync(
    join(work, 'semicolon.csv'),
    'date;rating;author;text;source\r\n2025-02-01;5;Ann B.;"Fine work; tidy crew.";yelp\r\n',
  );
  writeFileSync(
    join(work, 'tab.csv'),
    'date\trating\tauthor\ttext\tsource\n2025-02-02\t4\tBo C.\tGood, quick.\tyelp\n',
  );
  const result = command(['semicolon.csv', 'tab.csv'], { contentDir: content });
  assert.equal(result.status, 0, result.stdout);
  assert.match(result.stdout, /^semicolon\.csv \(csv\): 1 new/m);
  assert.match(result.stdout, /^tab\.csv \(csv\): 1 new/m);
});

it('a missing column lists the columns found and suggests the likely one', () => {
  const content = contentCopy();
  writeFileSync(join(work, 'stars.csv'), 'date,Stars,author,text,source\n2025-02-01,5,Ann,Fine,yelp\n');
  const result = command(['stars.csv'], { contentDir: content });
  assert.equal(result.status, 1);
  assert.match(
    result.stdout,
    /no rating column: .*\(columns found: "date", "Stars", "author", "text", "source"\); "Stars" looks like it: --map rating=Stars$/m,
  );
});

it('an "updated" line says what changed', () => {
  const content = contentCopy();
  const review = (fields: Parameters<typeof googleReview>[3]) =>
    JSON.stringify(googleListPage([googleReview('1', '2', 'u1', { stars: 3, comment: 'Fixed the leak.', ...fields })]));
  writeFileSync(join(work, 'first.json'), review({}));
  assert.equal(command(['first.json'], { contentDir: content }).status, 0);
  writeFileSync(
    join(work, 'edited.json'),
    review({
      stars: 4,
      comment: 'Fixed the leak, and it held.',
      updateTime: '2026-01-02T10:00:00Z',
      reviewReply: { comment: 'Thank you!', updateTime: '2026-01-03T10:00:00Z' },
    }),
  );
  const edited = command(['edited.json'], { contentDir: content });
  assert.equal(edited.status, 0, edited.stdout);
  assert.match(
    edited.stdout,
    /^ {2}updated {3}reviews\/\S+\.md {2}\(record 1: rating 3 → 4, reply added, text changed\)$/m,
  );
});

it('a CSV of this month\'s Yelp reviews does not make the earlier ones "no longer in the exports"', () => {
  const content = contentCopy();
  const header = 'date,rating,author,text,source,source_id\n';
  writeFileSync(
    join(work, 'yelp-1.csv'),
    `${header}2025-01-05,5,Ann B.,Fine.,yelp,y1\n2025-01-09,4,Bo C.,Good.,yelp,y2\n`,
  );
  writeFileSync(join(work, 'yelp-2.csv'), `${header}2025-02-03,5,Cy D.,Great.,yelp,y3\n`);
  assert.equal(command(['yelp-1.csv'], { contentDir: content }).status, 0);
  const files = readdirSync(join(content, 'reviews')).length;
  const second = cli(['--content-dir', content, '--delete-missing', 'yelp-2.csv']);
  assert.equal(second.status, 0, second.stdout + second.stderr);
  assert.doesNotMatch(second.stdout, /No longer in the exports/);
  assert.equal(readdirSync(join(content, 'reviews')).length, files + 1);
});

it("Google's translation wrapper: the customer's original words are published, the translation dropped", () => {
  const content = contentCopy();
  writeFileSync(
    join(work, 'translated.json'),
    JSON.stringify(
      googleListPage([
        googleReview('1', '2', 'tr1', {
          reviewer: { displayName: 'Lukas M.' },
          comment:
            '(Translated by Google) Very good work on our roof.\n\n(Original)\nSehr gute Arbeit an unserem Dach.',
        }),
        googleReview('1', '2', 'tr2', {
          reviewer: { displayName: 'Inès P.' },
          createTime: '2025-06-02T10:00:00Z',
          updateTime: '2025-06-02T10:00:00Z',
          comment: 'Travail soigné, équipe ponctuelle.\n\n(Translated by Google)\nCareful work, punctual team.',
        }),
      ]),
    ),
  );
  const result = command(['translated.json'], { contentDir: content });
  assert.equal(result.status, 0, result.stdout);
  const written = [...result.stdout.matchAll(/new {7}(reviews\/\S+\.md)/g)].map((m) =>
    readFileSync(join(content, m[1]!), 'utf8'),
  );
  assert.equal(written.length, 2);
  assert.ok(
    written.some((f) => f.endsWith('---\nSehr gute Arbeit an unserem Dach.\n')),
    written.join('\n'),
  );
  assert.ok(
    written.some((f) => f.endsWith('---\nTravail soigné, équipe ponctuelle.\n')),
    written.join('\n'),
  );
  assert.ok(written.every((f) => !/Translated by Google|Careful work|Very good work/.test(f)));
});

it('tags in a reviewer name are removed, not published as text', () => {
  const content = contentCopy();
  writeFileSync(
    join(work, 'tagged.json'),
    JSON.stringify(googleListPage([googleReview('1', '2', 'tag1', { reviewer: { displayName: 'Jo <i>Smith</i>' } })])),
  );
  writeFileSync(join(work, 'tagged.csv'), 'date,rating,author,text,source\n2025-02-01,5,<b>Ann</b> B.,Fine.,yelp\n');
  const result = cli(['--full-names', '--content-dir', content, 'tagged.json', 'tagged.csv']);
  assert.equal(result.status, 0, result.stdout + result.stderr);
  const written = [...result.stdout.matchAll(/new {7}(reviews\/\S+\.md)/g)].map((m) =>
    readFileSync(join(content, m[1]!), 'utf8'),
  );
  assert.equal(written.length, 2);
  assert.ok(
    written.some((f) => /^author: Jo Smith$/m.test(f)),
    written.join('\n'),
  );
  assert.ok(
    written.some((f) => /^author: Ann B\.$/m.test(f)),
    written.join('\n'),
  );
});

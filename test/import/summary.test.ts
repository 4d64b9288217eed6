/**
 * Every run ends with one summary line whose parts are the sums of the lines
 * above it: an export not imported counts as that, not as "4 unchanged"; new
 * and known problems as listed; missing reviews as listed.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, it } from 'node:test';
import { NODE, ROOT } from '../helpers/builds.ts';
import { importCommand } from './command.ts';
import { googleReview, writeTakeout } from './exports.ts';

const work = mkdtempSync(join(tmpdir(), 'import-summary-'));
after(() => rmSync(work, { recursive: true, force: true }));

function contentCopy(): string {
  const dir = mkdtempSync(join(work, 'content-'));
  cpSync(join(ROOT, 'content'), dir, { recursive: true });
  return dir;
}

/** `npm run import` run as a command, its output checked by `summed`. */
function cli(args: string[]): { status: number | null; stdout: string; summary: string } {
  const result = spawnSync(NODE, [join(ROOT, 'scripts/import.ts'), ...args], { cwd: work, encoding: 'utf8' });
  return summed(result);
}

/** The same in this process (./command.ts), its output checked by `summed`. */
function command(files: string[], options: Parameters<typeof importCommand>[2]) {
  return summed(importCommand(work, files, options));
}

/** The run's output, after checking that its last line, and only that one, sums up the lines above it. */
function summed(result: { status: number | null; stdout: string }): {
  status: number | null;
  stdout: string;
  summary: string;
} {
  const lines = result.stdout.trimEnd().split('\n');
  const summary = lines.at(-1)!;
  const above = lines.slice(0, -1);
  const expected = { new: 0, updated: 0, unchanged: 0, skipped: 0, missing: 0, rejected: 0, fresh: 0, known: 0 };
  let section: 'imported' | 'rejected' | 'missing' | undefined;
  for (const line of above) {
    const header = /^\S.*: (\d+) new, (\d+) updated, (\d+) unchanged, (\d+) skipped$/.exec(line);
    if (header) {
      section = 'imported';
      expected.new += Number(header[1]);
      expected.updated += Number(header[2]);
      expected.unchanged += Number(header[3]);
      expected.skipped += Number(header[4]);
    } else if (/^\S.*: not imported, nothing (would be )?written \(\d+ problems?\):$/.test(line)) {
      section = 'rejected';
      expected.rejected += 1;
    } else if (/^No longer in the exports of /.test(line)) section = 'missing';
    else if (/^\S/.test(line)) assert.fail(`an unexpected line above the summary: ${line}\n${result.stdout}`);
    else if (section === 'missing') expected.missing += 1;
    else if (line.endsWith('(known: reported by an earlier import)')) expected.known += 1;
    else if (section === 'rejected' && !/^ {2}The other /.test(line)) expected.fresh += 1;
    else if (section === 'imported' && line.endsWith(' (new problem)')) expected.fresh += 1;
  }
  const parts = [
    `${expected.new} new, ${expected.updated} updated, ${expected.unchanged} unchanged, ${expected.skipped} skipped${expected.missing ? `, ${expected.missing} missing` : ''}`,
    ...(expected.rejected ? [`${expected.rejected} file${expected.rejected === 1 ? '' : 's'} not imported`] : []),
    ...(expected.fresh ? [`${expected.fresh} new problem${expected.fresh === 1 ? '' : 's'}`] : []),
    ...(expected.known
      ? [`${expected.known} known problem${expected.known === 1 ? '' : 's'} \\(reported before; not failing the run\\)`]
      : []),
  ];
  assert.match(
    summary,
    new RegExp(`^(Dry run, nothing written: )?${parts.join('; ')}\\.( Review the files .*)?$`),
    result.stdout,
  );
  assert.equal(result.status, expected.fresh + expected.rejected > 0 ? 1 : 0, result.stdout);
  return { status: result.status, stdout: result.stdout, summary };
}

it('re-running a file with --source yelp and one bad row: "not imported", and a summary that says so, not "4 unchanged"', () => {
  const content = contentCopy();
  const rows = [
    '2025-01-05,5,Ann B.,Fine.',
    '2025-01-09,4,Bo C.,Good.',
    '2025-01-10,4,Cy C.,Good job.',
    '2025-01-11,3,Di C.,Okay.',
  ];
  writeFileSync(join(work, 'yelp.csv'), `date,rating,author,text\n${rows.join('\n')}\n`);
  assert.equal(cli(['--content-dir', content, '--source', 'yelp', 'yelp.csv']).status, 0);
  writeFileSync(
    join(work, 'yelp.csv'),
    `date,rating,author,text\n${[...rows, '2025-01-12,7,Ed F.,Bad.'].join('\n')}\n`,
  );
  const again = command(['yelp.csv'], { contentDir: content, csv: { source: 'yelp' } });
  assert.match(again.stdout, /^yelp\.csv: not imported, nothing written \(1 problem\):$/m);
  assert.match(
    again.stdout,
    /^ {2}The other 4 records have no problem and are already imported, unchanged: nothing more to import from this file\.$/m,
  );
  assert.equal(again.summary, '0 new, 0 updated, 0 unchanged, 0 skipped; 1 file not imported; 1 new problem.');
  const known = command(['yelp.csv'], { contentDir: content, csv: { source: 'yelp' } });
  assert.equal(
    known.summary,
    '0 new, 0 updated, 4 unchanged, 1 skipped; 1 known problem (reported before; not failing the run).',
  );
});

it('a run of several exports, imported, refused, skipped and missing: the summary adds up their lines', () => {
  const content = contentCopy();
  const root = mkdtempSync(join(work, 'takeout-'));
  const review = (location: string, id: string, fields: Parameters<typeof googleReview>[3] = {}) =>
    googleReview('1045', location, id, {
      reviewer: { displayName: `Customer ${id}` },
      comment: `Fine, ${id}.`,
      ...fields,
    });
  writeTakeout(root, {
    '11': [review('11', 'a1'), review('11', 'a2'), review('11', 'a3', { comment: undefined })],
    '12': [review('12', 'b1'), { ...review('12', 'b2'), starRating: 'STAR_RATING_UNSPECIFIED' }],
  });
  writeFileSync(
    join(work, 'mixed.csv'),
    'date,rating,author,text,source\n2025-02-01,5,Ann,Fine,yelp\n2025-02-02,9,Bo,Hm,yelp\n',
  );
  const folder = join(root, 'Google Business Profile');
  const first = command([folder, 'mixed.csv'], { contentDir: content, dryRun: true });
  assert.match(
    first.summary,
    /^Dry run, nothing written: 2 new, 0 updated, 0 unchanged, 1 skipped; 2 files not imported; 2 new problems\.$/,
  );
  command([folder, 'mixed.csv'], { contentDir: content });
  const skipping = command([folder, 'mixed.csv'], { contentDir: content, skipInvalid: true });
  assert.match(skipping.summary, /^2 new, 0 updated, 2 unchanged, 3 skipped; 2 known problems/);

  // A review gone from location 11, an edit in location 12.
  const location11 = join(folder, 'account-1045/location-11/reviews.json');
  writeFileSync(
    location11,
    JSON.stringify({ reviews: [review('11', 'a2'), review('11', 'a3', { comment: undefined })] }),
  );
  const location12 = join(folder, 'account-1045/location-12/reviews.json');
  const json = JSON.parse(readFileSync(location12, 'utf8'));
  json.reviews[0] = review('12', 'b1', { comment: 'Fine, and came back.', updateTime: '2025-07-01T10:00:00Z' });
  writeFileSync(location12, JSON.stringify(json));
  const later = command([folder], { contentDir: content });
  assert.match(
    later.stdout,
    /^No longer in the exports of Google location 11, kept \(--delete-missing deletes them\):$/m,
  );
  assert.match(later.summary, /^0 new, 1 updated, 1 unchanged, 2 skipped, 1 missing; 1 known problem/);
});

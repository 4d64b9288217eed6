/**
 * Spreadsheet dates in a CSV: `11/21/2026` read in the order the file's own
 * dates tell (a part above 12 is the day), refused when none tells or two
 * disagree, and a date that is no date named with the forms that are.
 */
import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, it } from 'node:test';
import { parseMarkdown } from '../../src/lib/content/split-frontmatter.ts';
import { formatReport } from '../../src/lib/import/report.ts';
import { importReviews } from '../../src/lib/import/run.ts';
import { ROOT } from '../helpers/builds.ts';

const work = mkdtempSync(join(tmpdir(), 'import-dates-'));
after(() => rmSync(work, { recursive: true, force: true }));

function contentCopy(): string {
  const dir = mkdtempSync(join(work, 'content-'));
  cpSync(join(ROOT, 'content'), dir, { recursive: true });
  return dir;
}

function csv(name: string, text: string): string {
  writeFileSync(join(work, name), text);
  return join(work, name);
}

const run = (content: string, file: string) =>
  importReviews([file], { contentDir: content, cwd: work, csv: { source: 'yelp' } });

function written(content: string, file: string) {
  const { data, body } = parseMarkdown(readFileSync(join(content, file), 'utf8'));
  return { data: data as Record<string, unknown>, body };
}

it('US dates: one value with a second part above 12 makes the file month/day/year, times read as UTC', () => {
  const content = contentCopy();
  const report = run(
    content,
    csv(
      'us.csv',
      'date,rating,author,text,updated,response,response_date\n' +
        '11/21/2026,5,Ann B.,Fine work.,11/23/2026 2:30 PM,Thank you!,11/22/2026\n' +
        '3/4/2026,4,Bo C.,Good.,,,\n',
    ),
  );
  assert.equal(report.files[0]!.imported, true, formatReport(report));
  const [ann, bo] = report.files[0]!.added.map((a) => written(content, a.file));
  assert.equal(ann!.data.date, '2026-11-21');
  assert.equal(ann!.data.updated, '2026-11-23T14:30:00Z');
  assert.deepEqual(ann!.data.response, { date: '2026-11-22', text: 'Thank you!' });
  assert.equal(bo!.data.date, '2026-03-04', '3/4 is March 4 in a month/day file');
});

it('day/month dates: a first part above 12 makes the file day/month/year', () => {
  const content = contentCopy();
  const report = run(
    content,
    csv('eu.csv', 'date,rating,author,text\n21/11/2026,5,Ann B.,Fine.\n3/4/2026,4,Bo C.,Good.\n'),
  );
  assert.equal(report.files[0]!.imported, true, formatReport(report));
  assert.deepEqual(
    report.files[0]!.added.map((a) => written(content, a.file).data.date),
    ['2026-11-21', '2026-04-03'],
  );
});

it('dates that cannot tell the order, or that disagree, refuse the file and say how to write them', () => {
  const content = contentCopy();
  const ambiguous = run(
    content,
    csv('amb.csv', 'date,rating,author,text\n03/04/2026,5,Ann B.,Fine.\n05/06/2026,4,Bo,Ok.\n'),
  );
  assert.equal(ambiguous.files[0]!.imported, false);
  assert.match(
    formatReport(ambiguous),
    /^ {2}\(file\), date: dates like "03\/04\/2026" could be month\/day or day\/month, and none in the file tells which \(no part above 12\): write them as year-month-day \("2026-11-21"\)/m,
  );
  const mixed = run(
    content,
    csv('mix.csv', 'date,rating,author,text\n11/21/2026,5,Ann B.,Fine.\n21/11/2026,4,Bo,Ok.\n'),
  );
  assert.equal(mixed.files[0]!.imported, false);
  assert.match(
    formatReport(mixed),
    /the dates disagree: "11\/21\/2026" is month\/day\/year, "21\/11\/2026" is day\/month\/year/,
  );
});

it('a value that is no date names the forms that are, by example; a day that does not exist says so', () => {
  const content = contentCopy();
  const report = run(
    content,
    csv('bad.csv', 'date,rating,author,text\n21.11.2026,5,Ann B.,Fine.\n2/30/2026,4,Bo,Ok.\n'),
  );
  const text = formatReport(report);
  assert.match(
    text,
    /^ {2}row 2, date: "21\.11\.2026" is not a date: write it like "2026-11-21", "2026-11-21T14:30:00Z" or "11\/21\/2026"$/m,
  );
  assert.match(text, /^ {2}row 3, date: "2\/30\/2026" is not a real calendar date/m);
  assert.doesNotMatch(text, /RFC 3339/);
});

/**
 * `npm run import` over exports written as the platforms document them, into
 * copies of the real content/: what it writes, that the build's loader takes
 * it, that a second import changes nothing, that an edit on the platform
 * changes one file and keeps what the editor changed, and that a bad export
 * writes nothing and says where it is wrong.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { loadContent } from '../../src/lib/content/load.ts';
import { parseMarkdown } from '../../src/lib/content/split-frontmatter.ts';
import { importReviews, type ImportOptions } from '../../src/lib/import/run.ts';
import { totals } from '../../src/lib/import/report.ts';
import { NODE, ROOT } from '../helpers/builds.ts';
import { importCommand } from './command.ts';
import {
  googleListPage,
  googleReview,
  manyGoogleReviews,
  trustpilotReview,
  writeCsv,
  writeJson,
  writeTakeout,
} from './exports.ts';

const work = mkdtempSync(join(tmpdir(), 'import-'));
after(() => rmSync(work, { recursive: true, force: true }));

/** A copy of the real content folder. */
function contentCopy(): string {
  const dir = mkdtempSync(join(work, 'content-'));
  cpSync(join(ROOT, 'content'), dir, { recursive: true });
  return dir;
}

function snapshot(dir: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const name of readdirSync(join(dir, 'reviews')))
    out.set(
      name,
      createHash('sha256')
        .update(readFileSync(join(dir, 'reviews', name)))
        .digest('hex'),
    );
  return out;
}

function changedFiles(before: Map<string, string>, after: Map<string, string>): string[] {
  return [...new Set([...before.keys(), ...after.keys()])]
    .filter((name) => before.get(name) !== after.get(name))
    .sort();
}

const run = (paths: string[], options: ImportOptions) => importReviews(paths, { cwd: work, ...options });
function frontmatter(dir: string, id: string): { data: Record<string, unknown>; body: string } {
  const { data, body } = parseMarkdown(readFileSync(join(dir, 'reviews', `${id}.md`), 'utf8'));
  return { data: data as Record<string, unknown>, body };
}

function cli(args: string[]) {
  const result = spawnSync(NODE, [join(ROOT, 'scripts/import.ts'), ...args], { cwd: work, encoding: 'utf8' });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** `npm run import -- FILE…` in this process (./command.ts). */
const command = (files: string[], options: Parameters<typeof importCommand>[2]) => importCommand(work, files, options);

/** Two locations: replies, an anonymous reviewer, Unicode, markup, a rating without text. */
function takeout(root: string): string {
  writeTakeout(root, {
    '11': [
      googleReview('1045', '11', 'AbCdEf1', {
        reviewer: { displayName: 'Zoë Ångström-Nguyễn' },
        comment: 'Dave Kowalski and his crew did the roof replacement in Tigard. Spotless 👍 <script>alert(1)</script>',
        createTime: '2025-05-02T23:30:00.5Z',
        updateTime: '2025-05-02T23:30:00.5Z',
        reviewReply: { comment: 'Thank you, Zoë!\n\nKevin', updateTime: '2025-05-04T08:00:00Z' },
      }),
      googleReview('1045', '11', 'AbCdEf2', {
        reviewer: { isAnonymous: true },
        stars: 2,
        comment: 'Late twice, but the gutters work.',
        createTime: '2025-05-10T10:00:00Z',
        updateTime: '2025-05-10T10:00:00Z',
      }),
      googleReview('1045', '11', 'AbCdEf3', { reviewer: { displayName: 'Stars Only' }, stars: 4, comment: undefined }),
    ],
    '12': [
      googleReview('1045', '12', 'XyZ9', {
        reviewer: { displayName: '李娜' },
        stars: 5,
        comment: '屋顶修得很好。Maria Santos was great with the skylight.',
        createTime: '2025-05-20T02:00:00Z',
        updateTime: '2025-05-21T02:00:00Z',
      }),
    ],
  });
  return join(root, 'Google Business Profile');
}

describe('a Google Takeout folder (two locations)', () => {
  const content = contentCopy();
  const exports = takeout(mkdtempSync(join(work, 'takeout-')));
  const before = snapshot(content);
  const report = run([exports], { contentDir: content });

  it('writes one file per review with text, with provenance, and skips a rating without text with its reason', () => {
    assert.deepEqual(totals(report), { added: 3, updated: 0, unchanged: 0, skipped: 1, rejected: 0 });
    assert.deepEqual(changedFiles(before, snapshot(content)), [
      '2025-05-02-zoe-a.md',
      '2025-05-10-google-user.md',
      '2025-05-20-google-review.md',
    ]);
    assert.match(report.files[0]!.skipped[0]!.reason, /without text/);
    const zoe = frontmatter(content, '2025-05-02-zoe-a');
    assert.deepEqual(zoe.data, {
      date: '2025-05-02',
      updated: '2025-05-04T08:00:00Z',
      rating: 5,
      author: 'Zoë Å.',
      technicians: ['Dave Kowalski'],
      services: ['roof-replacement'],
      service_area: 'tigard',
      source: 'google',
      source_id: 'AbCdEf1',
      verified: true,
      verification: { method: 'platform', checked: '2025-05-04' },
      response: { date: '2025-05-04', text: 'Thank you, Zoë!\n\nKevin' },
    });
    // Text stays text: markup and emoji as the customer wrote them.
    assert.equal(
      zoe.body,
      'Dave Kowalski and his crew did the roof replacement in Tigard. Spotless 👍 <script>alert(1)</script>',
    );
    assert.deepEqual(frontmatter(content, '2025-05-10-google-user').data, {
      date: '2025-05-10',
      updated: '2025-05-10T10:00:00Z',
      rating: 2,
      author: 'Google user',
      technicians: [],
      services: ['gutters'],
      source: 'google',
      source_id: 'AbCdEf2',
      verified: true,
      verification: { method: 'platform', checked: '2025-05-10' },
    });
    assert.equal(frontmatter(content, '2025-05-20-google-review').data.author, '李*');
  });

  it('builds: the whole folder passes the loader, with the new reviews and their provenance', () => {
    const loaded = loadContent(content);
    const zoe = loaded.reviews.find((r) => r.id === '2025-05-02-zoe-a')!;
    assert.equal(zoe.source_id, 'AbCdEf1');
    assert.equal(zoe.source_url, undefined, 'Google publishes no address per review');
    assert.equal(loaded.reviews.find((r) => r.id === '2025-05-10-google-user')!.services.length, 1);
  });

  it('a second import of the same export changes no byte', () => {
    const first = snapshot(content);
    const again = run([exports], { contentDir: content });
    assert.deepEqual(totals(again), { added: 0, updated: 0, unchanged: 3, skipped: 1, rejected: 0 });
    assert.deepEqual(changedFiles(first, snapshot(content)), []);
  });

  it('an edit on Google updates exactly its one file, and what the editor changed there survives', () => {
    const id = '2025-05-10-google-user';
    const path = join(content, 'reviews', `${id}.md`);
    // The editor names the technician, the service and the area, adds a title, publishes under a short name.
    writeFileSync(
      path,
      readFileSync(path, 'utf8')
        .replace('technicians: []', 'technicians:\n  - Tommy Nguyen')
        .replace('services:\n  - gutters', 'services:\n  - gutters\n  - roof-repair')
        .replace('author: Google user', 'title: Late but fine\nauthor: Anonymous')
        .replace('source: google', 'service_area: beaverton\nsource: google'),
    );
    const edited = snapshot(content);
    const root = mkdtempSync(join(work, 'takeout-edited-'));
    const folder = takeout(root);
    const file = join(folder, 'account-1045/location-11/reviews.json');
    const json = JSON.parse(readFileSync(file, 'utf8'));
    Object.assign(json.reviews[1], {
      stars: undefined,
      starRating: 'THREE',
      comment: 'Late twice, but the gutters work. Update: they came back and fixed the downspout.',
      updateTime: '2025-06-01T09:00:00Z',
      reviewReply: { comment: 'Glad it is sorted.', updateTime: '2025-06-02T10:00:00Z' },
    });
    writeFileSync(file, JSON.stringify(json));
    const report = run([folder], { contentDir: content });
    assert.deepEqual(totals(report), { added: 0, updated: 1, unchanged: 2, skipped: 1, rejected: 0 });
    assert.deepEqual(changedFiles(edited, snapshot(content)), [`${id}.md`]);
    const { data, body } = frontmatter(content, id);
    assert.deepEqual(data, {
      date: '2025-05-10',
      updated: '2025-06-02T10:00:00Z',
      rating: 3,
      title: 'Late but fine',
      author: 'Anonymous',
      technicians: ['Tommy Nguyen'],
      services: ['gutters', 'roof-repair'],
      service_area: 'beaverton',
      source: 'google',
      source_id: 'AbCdEf2',
      verified: true,
      verification: { method: 'platform', checked: '2025-05-10' },
      response: { date: '2025-06-02', text: 'Glad it is sorted.' },
    });
    assert.match(body, /fixed the downspout\.$/);
  });

  it('an older export does not undo the newer version; a dry run writes nothing', () => {
    const current = snapshot(content);
    const older = run([exports], { contentDir: content });
    assert.deepEqual(totals(older), { added: 0, updated: 0, unchanged: 2, skipped: 2, rejected: 0 });
    assert.match(
      older.files[0]!.skipped.map((s) => s.reason).join('\n'),
      /older than reviews\/2025-05-10-google-user\.md \(updated 2025-06-02T10:00:00Z\)/,
    );
    const fresh = contentCopy();
    const before = snapshot(fresh);
    const dry = run([exports], { contentDir: fresh, dryRun: true });
    assert.equal(totals(dry).added, 3);
    assert.deepEqual(changedFiles(before, snapshot(fresh)), []);
    assert.deepEqual(changedFiles(current, snapshot(content)), []);
  });

  it("a review missing from its location's export is reported and kept; --delete-missing deletes it", () => {
    // Location 12's export: location 11's reviews are not its to miss.
    const other = writeJson(
      join(work, 'one-location.json'),
      googleListPage([
        googleReview('1045', '12', 'XyZ9', {
          reviewer: { displayName: '李娜' },
          comment: '屋顶修得很好。Maria Santos was great with the skylight.',
          createTime: '2025-05-20T02:00:00Z',
          updateTime: '2025-05-21T02:00:00Z',
        }),
      ]),
    );
    assert.deepEqual(run([other], { contentDir: content, deleteMissing: true }).missing, []);
    const root = mkdtempSync(join(work, 'takeout-missing-'));
    const folder = takeout(root);
    const file = join(folder, 'account-1045/location-11/reviews.json');
    const json = JSON.parse(readFileSync(file, 'utf8'));
    json.reviews.splice(0, 1);
    writeFileSync(file, JSON.stringify(json));
    const kept = run([file], { contentDir: content });
    assert.deepEqual(
      kept.missing.map((m) => m.file),
      ['reviews/2025-05-02-zoe-a.md'],
    );
    assert.deepEqual(kept.deleted, []);
    assert.ok(snapshot(content).has('2025-05-02-zoe-a.md'));
    const deleted = run([file], { contentDir: content, deleteMissing: true });
    assert.deepEqual(deleted.deleted, ['reviews/2025-05-02-zoe-a.md']);
    assert.ok(!snapshot(content).has('2025-05-02-zoe-a.md'));
    assert.ok(snapshot(content).has('2025-05-10-google-user.md'));
    // Hand-typed reviews (source google, no source_id) are never "missing".
    assert.ok(snapshot(content).has('2023-09-26-frank-z-mid-century-flat-roof.md'));
  });
});

describe('a review typed by hand before the export came in', () => {
  it('is recognised by author, date and text: it gains its provenance, no second file', () => {
    const content = contentCopy();
    const before = snapshot(content);
    const typed = frontmatter(content, '2023-09-26-frank-z-mid-century-flat-roof');
    const page = writeJson(
      join(work, 'hand.json'),
      googleListPage([
        googleReview('1045', '11', 'HandTyped1', {
          reviewer: { displayName: 'Frank Zimmerman' },
          comment: `${typed.body}\n`,
          createTime: '2023-09-26T21:15:00Z',
          updateTime: '2023-09-26T21:15:00Z',
        }),
      ]),
    );
    const report = run([page], { contentDir: content });
    assert.deepEqual(totals(report), { added: 0, updated: 1, unchanged: 0, skipped: 0, rejected: 0 });
    assert.equal(report.files[0]!.updated[0]!.by, 'text');
    assert.deepEqual(changedFiles(before, snapshot(content)), ['2023-09-26-frank-z-mid-century-flat-roof.md']);
    const after = frontmatter(content, '2023-09-26-frank-z-mid-century-flat-roof');
    assert.equal(after.data.source_id, 'HandTyped1');
    assert.equal(after.data.author, 'Frank Z.', "the editor's name for the customer stays");
    assert.deepEqual(after.data.technicians, ['Rick Olsen']);
    assert.equal(after.body, typed.body);
    assert.deepEqual(totals(run([page], { contentDir: content })), {
      added: 0,
      updated: 0,
      unchanged: 1,
      skipped: 0,
      rejected: 0,
    });
  });
});

describe('Trustpilot and generic CSV exports', () => {
  it('Trustpilot JSON: title, reply, a link to the review; a review not active there is skipped', () => {
    const content = contentCopy();
    const file = writeJson(join(work, 'trustpilot.json'), {
      reviews: [
        trustpilotReview('6650f1a2b3c4d5e6f7a8b9c0', {
          title: 'Chimney <b>flashing</b>',
          text: 'Jamal fixed the flashing.\r\nNo more drips!',
          consumer: { displayName: 'Émilie D.' },
          companyReply: { text: 'Merci!', createdAt: '2025-06-03T12:00:00Z', updatedAt: null },
        }),
        trustpilotReview('6650f1a2b3c4d5e6f7a8b9c1', { status: 'pending' }),
      ],
    });
    const report = run([file], { contentDir: content });
    assert.equal(report.files[0]!.format, 'trustpilot-json');
    assert.deepEqual(totals(report), { added: 1, updated: 0, unchanged: 0, skipped: 1, rejected: 0 });
    const { data, body } = frontmatter(content, '2025-06-01-emilie-d');
    assert.equal(data.title, 'Chimney <b>flashing</b>');
    assert.equal(data.source_url, 'https://www.trustpilot.com/reviews/6650f1a2b3c4d5e6f7a8b9c0');
    assert.deepEqual(data.response, { date: '2025-06-03', text: 'Merci!' });
    assert.deepEqual(data.technicians, ['Jamal Whitaker']);
    assert.equal(body, 'Jamal fixed the flashing.\nNo more drips!');
    loadContent(content);
  });

  it("Trustpilot's CSV export, detected from its header", () => {
    const content = contentCopy();
    const file = writeCsv(
      join(work, 'trustpilot.csv'),
      [
        'Review ID',
        'Review Created (UTC)',
        'Review Stars',
        'Review Title',
        'Review Content',
        'Reviewer Name',
        'Reply',
        'Reply Date (UTC)',
      ],
      [
        [
          '66aa00000000000000000001',
          '2025-03-04 10:11:12',
          4,
          'Good',
          'Sarah did a thorough roof inspection, with photos, "as promised".',
          'Jo B.',
          '',
          '',
        ],
      ],
    );
    const report = run([file], { contentDir: content });
    assert.equal(report.files[0]!.format, 'trustpilot-csv');
    const { data } = frontmatter(content, '2025-03-04-jo-b');
    assert.equal(data.source, 'trustpilot');
    assert.equal(data.source_url, 'https://www.trustpilot.com/reviews/66aa00000000000000000001');
    assert.deepEqual(data.services, ['roof-inspection']);
  });

  it('a generic CSV: default columns, --map for others, --source; rows without an id are matched again on the next import', () => {
    const content = contentCopy();
    const file = writeCsv(
      join(work, 'yelp.csv'),
      ['Date', 'Stars', 'Name', 'Review', 'response', 'response_date'],
      [
        [
          '2025-02-01',
          '5',
          'Ann "Annie" Lee',
          'Tommy cleaned our gutters.\nSecond line, with a comma.',
          'Thanks Ann',
          '2025-02-03',
        ],
      ],
    );
    const options: ImportOptions = {
      contentDir: content,
      csv: { source: 'yelp', map: { date: 'Date', rating: 'Stars', author: 'Name', text: 'Review' } },
    };
    assert.deepEqual(totals(run([file], options)), { added: 1, updated: 0, unchanged: 0, skipped: 0, rejected: 0 });
    const { data, body } = frontmatter(content, '2025-02-01-ann-l');
    assert.equal(data.source, 'yelp');
    assert.match(String(data.source_id), /^derived-[0-9a-f]{16}$/);
    assert.deepEqual(data.response, { date: '2025-02-03', text: 'Thanks Ann' });
    assert.equal(body, 'Tommy cleaned our gutters.\nSecond line, with a comma.');
    assert.deepEqual(totals(run([file], options)), { added: 0, updated: 0, unchanged: 1, skipped: 0, rejected: 0 });
    const noSource = run([file], { contentDir: content, csv: { map: options.csv!.map! } });
    assert.match(noSource.files[0]!.problems[0]!.message, /--source/);
  });
});

describe('a bad export writes nothing and says where it is wrong', () => {
  const content = contentCopy();
  const before = snapshot(content);
  const cases: Array<[string, string, RegExp]> = [
    [
      'unspecified.json',
      JSON.stringify(
        googleListPage([
          googleReview('1', '2', 'ok1'),
          { ...googleReview('1', '2', 'bad1'), starRating: 'STAR_RATING_UNSPECIFIED' },
        ]),
      ),
      /record 2, starRating: no star rating/,
    ],
    [
      'six-stars.json',
      JSON.stringify({ reviews: [trustpilotReview('t1'), trustpilotReview('t2', { stars: 6 })] }),
      /record 2, stars: 6 is not a star rating from 1 to 5/,
    ],
    [
      'control.json',
      JSON.stringify(googleListPage([googleReview('1', '2', 'c1', { comment: 'Fine work\u0007 done' })])),
      /record 1, comment: the review text contains an invisible control character \(U\+0007\)/,
    ],
    [
      'too-long.json',
      JSON.stringify(googleListPage([googleReview('1', '2', 'l1', { comment: 'x'.repeat(10_001) })])),
      /record 1, comment: the review text is too long/,
    ],
    [
      'bad-date.csv',
      'date,rating,author,text,source\n2025-02-30,5,Ann,Fine,yelp\n',
      /row 2, date: "2025-02-30" is not a real calendar date/,
    ],
    [
      'ragged.csv',
      'date,rating,author,text,source\n2025-02-01,5,Ann\n',
      /\(file\), \(csv\): not a readable CSV file \(line 2\)/,
    ],
    ['broken.json', '{"reviews": [', /\(file\), \(file\): not valid JSON/],
    ['unknown.json', '{"items": []}', /\(file\), \(file\): unknown format/],
    [
      'facebook.csv',
      'date,recommendation,author,text,source\n2025-02-01,positive,Ann,Fine,facebook\n',
      /\(header\), rating: no rating column/,
    ],
  ];
  for (const [name, text, message] of cases) {
    it(`${name}: exit status 1, the file, the record or row and the field named, the folder untouched`, () => {
      writeFileSync(join(work, name), text);
      const result = command([name], { contentDir: content });
      assert.equal(result.status, 1, result.stdout);
      assert.match(result.stdout, new RegExp(`^${name.replace('.', '\\.')}: not imported, nothing written`, 'm'));
      assert.match(result.stdout, message);
      assert.deepEqual(changedFiles(before, snapshot(content)), []);
      assert.deepEqual(
        readdirSync(join(content, 'reviews')).filter((n) => n.startsWith('.')),
        [],
        'no temporary file left',
      );
    });
  }

  it('--skip-invalid imports the valid records and reports each record left out', () => {
    const result = command(['unspecified.json'], { contentDir: content, skipInvalid: true });
    assert.equal(result.status, 0, result.stdout);
    assert.match(result.stdout, /1 new, 0 updated, 0 unchanged, 1 skipped/);
    assert.match(result.stdout, /skipped {3}record 2: starRating: no star rating/);
  });

  it('--skip-invalid also leaves out a record only the loader refuses (a reply dated before its review)', () => {
    const early = { comment: 'Thank you!', updateTime: '2025-05-01T09:00:00Z' };
    writeFileSync(
      join(work, 'early-reply.json'),
      JSON.stringify(
        googleListPage([
          googleReview('1', '2', 'reply-ok'),
          googleReview('1', '2', 'reply-early', { reviewReply: early }),
        ]),
      ),
    );
    const refused = command(['early-reply.json'], { contentDir: content });
    assert.equal(refused.status, 1, refused.stdout);
    assert.match(
      refused.stdout,
      /record 2, reviewReply\.updateTime: the reply \(2025-05-01\) is dated before the review \(2025-06-01\)/,
    );
    const skipped = command(['early-reply.json'], { contentDir: content, skipInvalid: true });
    assert.equal(skipped.status, 0, skipped.stdout);
    assert.match(skipped.stdout, /1 new, 0 updated, 0 unchanged, 1 skipped/);
    assert.match(
      skipped.stdout,
      /skipped {3}record 2: reviewReply\.updateTime: the reply \(2025-05-01\) is dated before the review/,
    );
    assert.deepEqual(
      readdirSync(join(content, 'reviews')).filter((n) => n.startsWith('.')),
      [],
      'no temporary file left',
    );
  });

  it('the command line: usage mistakes are status 2', () => {
    assert.equal(cli([]).status, 2);
    assert.equal(cli(['--format', 'yelp', 'x.json']).status, 2);
    assert.equal(cli(['--map', 'stars', 'x.csv']).status, 2);
  });
});

describe('hostile and broken exports end with the report, all or nothing', () => {
  const reviewsOf = (dir: string) => snapshot(dir);
  const dotFiles = (dir: string) => readdirSync(join(dir, 'reviews')).filter((n) => n.startsWith('.'));

  it('a value nested 200,000 deep is a problem of its record; the export before it is written and reported', () => {
    const content = contentCopy();
    const before = reviewsOf(content);
    writeFileSync(join(work, 'first.json'), JSON.stringify(googleListPage([googleReview('1', '2', 'first-ok')])));
    const deep = JSON.stringify(googleListPage([googleReview('1', '2', 'deep', { reviewer: { displayName: 'X' } })]));
    writeFileSync(
      join(work, 'second-deep.json'),
      deep.replace('"displayName":"X"', `"displayName":${'['.repeat(200_000)}"x"${']'.repeat(200_000)}`),
    );
    const result = command(['first.json', 'second-deep.json'], { contentDir: content });
    assert.equal(result.status, 1, result.stdout);
    assert.match(result.stdout, /^first\.json \(google\): 1 new, 0 updated/m);
    assert.match(result.stdout, /^second-deep\.json: not imported, nothing written/m);
    assert.match(result.stdout, /record 1, reviewer\.displayName: expected text, got a list nested too deeply to show/);
    assert.match(result.stdout, /1 new, 0 updated, 0 unchanged, 0 skipped; 1 file not imported/);
    assert.equal(changedFiles(before, reviewsOf(content)).length, 1);
  });

  it("a rename that fails mid-way (a folder at row 3's file name) puts back what was renamed and says why", () => {
    const content = contentCopy();
    const csv = writeCsv(
      join(work, 'rename.csv'),
      ['date', 'rating', 'author', 'text', 'source', 'source_id'],
      [
        ['2025-02-01', 5, 'Ann', 'Fine roof.', 'yelp', 'y1'],
        ['2025-02-02', 4, 'Bob', 'Good gutters.', 'yelp', 'y2'],
        ['2025-02-03', 3, 'Cat', 'Late, but fine.', 'yelp', 'y3'],
      ],
    );
    const before = reviewsOf(content);
    mkdirSync(join(content, 'reviews', '2025-02-03-cat.md'));
    const result = command([csv], { contentDir: content });
    assert.equal(result.status, 1, result.stdout);
    assert.match(result.stdout, /^rename\.csv: not imported, nothing written/m);
    assert.match(
      result.stdout,
      /row 4, \(file\): reviews\/2025-02-03-cat\.md could not be written: a folder stands at that name/,
    );
    rmdirSync(join(content, 'reviews', '2025-02-03-cat.md'));
    assert.deepEqual(changedFiles(before, reviewsOf(content)), [], 'the renamed files are gone again');
    assert.deepEqual(dotFiles(content), [], 'no temporary file left');
    // With the folder gone, the same export imports whole.
    assert.equal(command([csv], { contentDir: content }).status, 0);
    assert.equal(changedFiles(before, reviewsOf(content)).length, 3);
  });

  it('an update whose rename fails is put back to the file it was', () => {
    const content = contentCopy();
    const header = ['date', 'rating', 'author', 'text', 'source', 'source_id'];
    const dee = (text: string) => ['2025-03-01', 5, 'Dee', text, 'yelp', 'u1'];
    assert.equal(
      command([writeCsv(join(work, 'update.csv'), header, [dee('First.')])], { contentDir: content }).status,
      0,
    );
    const before = reviewsOf(content);
    const csv = writeCsv(join(work, 'update.csv'), header, [
      dee('Second.'),
      ['2025-03-02', 4, 'Fay', 'Ok.', 'yelp', 'u2'],
    ]);
    mkdirSync(join(content, 'reviews', '2025-03-02-fay.md'));
    const result = command([csv], { contentDir: content });
    assert.equal(result.status, 1, result.stdout);
    assert.match(result.stdout, /^update\.csv: not imported, nothing written/m);
    assert.match(result.stdout, /row 3, \(file\): reviews\/2025-03-02-fay\.md could not be written/);
    rmdirSync(join(content, 'reviews', '2025-03-02-fay.md'));
    assert.deepEqual(changedFiles(before, reviewsOf(content)), [], 'the updated file is as it was');
    assert.deepEqual(dotFiles(content), []);
  });

  it('invalid UTF-8 (a Latin-1 export) is refused with its row, byte offset and how to re-save it', () => {
    const content = contentCopy();
    const before = reviewsOf(content);
    writeFileSync(
      join(work, 'latin1.csv'),
      Buffer.concat([
        Buffer.from('date,rating,author,text,source\n2025-02-01,5,Ann,Fine,yelp\n2025-02-02,5,Bob,caf'),
        Buffer.from([0xe9, 0x20, 0xff, 0xfe]),
        Buffer.from(',yelp\n'),
      ]),
    );
    const result = command(['latin1.csv'], { contentDir: content });
    assert.equal(result.status, 1, result.stdout);
    assert.match(result.stdout, /^latin1\.csv: not imported, nothing written/m);
    assert.match(result.stdout, /\(file\), \(file\): not UTF-8: row 3 has the byte 0xE9 at byte offset 78/);
    assert.match(result.stdout, /Latin-1 \/ Windows-1252/);
    assert.match(result.stdout, /save it again as UTF-8/);
    assert.deepEqual(changedFiles(before, reviewsOf(content)), []);
    // The same text in UTF-8, U+FFFD included, imports.
    writeFileSync(
      join(work, 'utf8.csv'),
      'date,rating,author,text,source\n2025-02-01,5,Ann,Fine,yelp\n2025-02-02,5,Bob,café \uFFFD,yelp\n',
    );
    assert.equal(command(['utf8.csv'], { contentDir: content }).status, 0);
  });
});

describe('scale', () => {
  it('10,000 reviews import in seconds, and their second import is a no-op', () => {
    const content = mkdtempSync(join(work, 'content-10k-'));
    cpSync(join(ROOT, 'content/business.yaml'), join(content, 'business.yaml'));
    cpSync(join(ROOT, 'test/fixtures/content-small/reviews'), join(content, 'reviews'), { recursive: true });
    const file = writeJson(join(work, 'ten-thousand.json'), googleListPage(manyGoogleReviews(10_000)));
    let started = performance.now();
    const first = run([file], { contentDir: content });
    const firstMs = performance.now() - started;
    assert.equal(totals(first).added, 10_000);
    const written = snapshot(content);
    started = performance.now();
    const second = run([file], { contentDir: content });
    const secondMs = performance.now() - started;
    assert.equal(totals(second).unchanged, 10_000);
    assert.deepEqual(changedFiles(written, snapshot(content)), []);
    process.stdout.write(`# 10k import: ${Math.round(firstMs)} ms, again ${Math.round(secondMs)} ms\n`);
    // Generous for a loaded machine; a quiet one takes a few seconds.
    assert.ok(firstMs < 60_000, `${firstMs} ms`);
    assert.equal(
      loadContent(content).reviews.length,
      10_000 + readdirSync(join(ROOT, 'test/fixtures/content-small/reviews')).length,
    );
  });
});

/**
 * Editors' mistakes fail the build with the file, the field and what is wrong,
 * every one of them in one run.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { loadContent } from '../../src/lib/content/load.ts';
import { ContentError } from '../../src/lib/content/problems.ts';
import { ASTRO_BIN, buildEnv, NODE, ROOT } from '../helpers/builds.ts';

const MISTAKES = join(ROOT, 'test/fixtures/content-mistakes');
const work = mkdtempSync(join(tmpdir(), 'content-errors-'));
after(() => rmSync(work, { recursive: true, force: true }));

const VALID = `---
date: 2024-03-01
rating: 4
author: Pat R.
technicians: [Dave Kowalski]
services: [roof-repair]
service_area: tigard
source: google
verified: true
verification:
  method: job
  checked: 2024-03-01
---
Dave patched the valley flashing in an afternoon.
`;

/** A content folder with the real business and one review file. */
function folderWith(review: string, name = 'a-review'): string {
  const dir = mkdtempSync(join(work, 'case-'));
  cpSync(join(MISTAKES, 'business.yaml'), join(dir, 'business.yaml'));
  cpSync(join(MISTAKES, 'reviews'), join(dir, 'unused'), { recursive: true });
  rmSync(join(dir, 'unused'), { recursive: true });
  const reviews = join(dir, 'reviews');
  cpSync(join(ROOT, 'test/fixtures/content-small/reviews/2023-02-14-ann-storm.md'), join(reviews, 'ok.md'));
  writeFileSync(join(reviews, `${name}.md`), review);
  return dir;
}

function problemsOf(dir: string) {
  try {
    loadContent(dir);
  } catch (error) {
    assert.ok(error instanceof ContentError, String(error));
    return error.problems;
  }
  return [];
}

describe('each kind of editor mistake, alone', () => {
  const cases: Array<[string, string, string, RegExp]> = [
    ['valid file', VALID, '', /^$/],
    [
      'unknown technician',
      VALID.replace('[Dave Kowalski]', '[Dave Kowalski, Bobby Tables]'),
      'technicians[1]',
      /unknown technician "Bobby Tables"/,
    ],
    ['technician by id', VALID.replace('[Dave Kowalski]', '[dave-kowalski]'), '', /^$/],
    [
      'unknown service',
      VALID.replace('[roof-repair]', '[roof-painting]'),
      'services[0]',
      /unknown service id "roof-painting"/,
    ],
    ['no service', VALID.replace('[roof-repair]', '[]'), 'services', /at least one/],
    ['unknown area', VALID.replace('tigard', 'seattle'), 'service_area', /unknown service area id "seattle"/],
    ['rating of 6', VALID.replace('rating: 4', 'rating: 6'), 'rating', /1 to 5/],
    ['rating of 4.5', VALID.replace('rating: 4', 'rating: 4.5'), 'rating', /whole number/],
    ['rating as text', VALID.replace('rating: 4', 'rating: four'), 'rating', /whole number/],
    ['impossible date', VALID.replace('2024-03-01', '2025-02-30'), 'date', /not a real calendar date/],
    ['date in another format', VALID.replace('2024-03-01', '03/01/2024'), 'date', /YYYY-MM-DD/],
    ['verified missing', VALID.replace('verified: true\n', ''), 'verified', /required/],
    [
      'a published review without its verification',
      VALID.replace('verification:\n  method: job\n  checked: 2024-03-01\n', ''),
      'verification.method',
      /is required: say how the review is known to be real/,
    ],
    [
      'a method not on the list',
      VALID.replace('method: job', 'method: trust-me'),
      'verification.method',
      /invalid option/i,
    ],
    [
      'platform without the platform id',
      VALID.replace('method: job', 'method: platform'),
      'verification.method',
      /platform is for reviews imported with their platform id/,
    ],
    [
      'checked as no date',
      VALID.replace('checked: 2024-03-01', 'checked: yesterday'),
      'verification.checked',
      /YYYY-MM-DD/,
    ],
    [
      'a takedown without its reason',
      VALID.replace('verified: true', 'verified: false'),
      'removal.reason',
      /is required: a review taken down \(verified: false\) needs a reason/,
    ],
    [
      'a takedown with a reason not on the list',
      VALID.replace('verified: true', 'verified: false\nremoval: { reason: bad-review, date: 2024-03-02 }'),
      'removal.reason',
      /invalid option/i,
    ],
    [
      'a takedown without its date',
      VALID.replace('verified: true', 'verified: false\nremoval: { reason: spam }'),
      'removal.date',
      /required/,
    ],
    [
      'a removal on a published review',
      VALID.replace('verified: true', 'verified: true\nremoval: { reason: spam, date: 2024-03-02 }'),
      'removal',
      /only for a review taken down/,
    ],
    [
      'verified as text',
      VALID.replace('verified: true', 'verified: yes'),
      'verified',
      /must be true \(published\) or false \(not published\)/,
    ],
    ['missing author', VALID.replace('author: Pat R.\n', ''), 'author', /required/],
    ['unknown field', VALID.replace('source: google', 'source: google\nstars: 4'), '(file)', /unknown field "stars"/],
    [
      'reply before the review',
      VALID.replace('verified: true', 'verified: true\nresponse:\n  date: 2024-02-01\n  text: Thanks!'),
      'response.date',
      /before the review/,
    ],
    [
      'updated before date',
      VALID.replace('rating: 4', 'rating: 4\nupdated: 2024-01-01T00:00:00Z'),
      'updated',
      /before the review's date/,
    ],
    ['empty body', VALID.replace('Dave patched the valley flashing in an afternoon.\n', ''), '(body)', /empty/],
    [
      'broken YAML, with the file line number',
      VALID.replace('rating: 4', 'rating: [4'),
      '(frontmatter)',
      /invalid YAML: .* at line 4, column 1$/,
    ],
    [
      'review text too long',
      VALID.replace('Dave patched', `${'x'.repeat(10_001)} Dave patched`),
      '(body)',
      /too long \(10051 characters\): at most 10000/,
    ],
    [
      'control character in the text',
      VALID.replace('in an afternoon', 'in an\u0007 afternoon'),
      '(body)',
      /invisible control character \(U\+0007\) at character 39/,
    ],
    [
      'control character in the title',
      VALID.replace('rating: 4', 'rating: 4\ntitle: "Great\\u001b[31m"'),
      'title',
      /invisible control character \(U\+001B\) at character 6/,
    ],
    [
      'title too long',
      VALID.replace('rating: 4', `rating: 4\ntitle: ${'t'.repeat(201)}`),
      'title',
      /at most 200 characters/,
    ],
    ['no frontmatter', 'Just text.', '(frontmatter)', /missing frontmatter/],
  ];
  for (const [name, source, field, message] of cases) {
    it(name, () => {
      const problems = problemsOf(folderWith(source));
      if (field === '') {
        assert.deepEqual(problems, []);
        return;
      }
      assert.equal(problems.length, 1, JSON.stringify(problems));
      assert.equal(problems[0]?.file, 'reviews/a-review.md');
      assert.equal(problems[0]?.field, field);
      assert.match(problems[0]?.message ?? '', message);
    });
  }

  it('verified: false with a reason is not a mistake: the file is checked, not published, and logged', () => {
    const takenDown = VALID.replace(
      'verified: true',
      'verified: false\nremoval: { reason: personal-data, date: 2024-03-04 }',
    );
    const dir = folderWith(takenDown);
    const loaded = loadContent(dir);
    assert.deepEqual(
      loaded.reviews.map((r) => r.id),
      ['ok'],
    );
    assert.deepEqual(loaded.unpublished, ['a-review']);
    assert.deepEqual(loaded.removals, [{ id: 'a-review', rating: 4, date: '2024-03-04', reason: 'personal-data' }]);
    const broken = folderWith(takenDown.replace('rating: 4', 'rating: 9'));
    assert.deepEqual(
      problemsOf(broken).map((p) => p.field),
      ['rating'],
      'an unpublished file is still checked',
    );
  });

  it('a reply without `updated` makes the reply date the last change', () => {
    const withReply = VALID.replace(
      'verified: true',
      'verified: true\nresponse:\n  date: 2024-03-05\n  text: Thanks, Pat!',
    );
    const [review] = loadContent(folderWith(withReply)).reviews.filter((r) => r.id === 'a-review');
    assert.equal(review?.updated, '2024-03-05T00:00:00Z');
    const stale = withReply.replace('rating: 4', 'rating: 4\nupdated: 2024-03-02T00:00:00Z');
    assert.deepEqual(
      problemsOf(folderWith(stale)).map((p) => p.field),
      ['updated'],
      'an explicit updated before the reply is still a mistake',
    );
  });

  it('a file name that is not a slug', () => {
    const problems = problemsOf(folderWith(VALID, 'Not_A_Slug'));
    assert.deepEqual(
      problems.map((p) => [p.file, p.field]),
      [['reviews/Not_A_Slug.md', '(file name)']],
    );
  });

  it('a broken business file', () => {
    const dir = folderWith(VALID);
    writeFileSync(join(dir, 'business.yaml'), 'id: x\nname: X\n');
    const problems = problemsOf(dir);
    assert.ok(problems.length > 0);
    assert.ok(problems.every((p) => p.file === 'business.yaml'));
    assert.ok(problems.some((p) => p.field === 'telephone' && /required/.test(p.message)));
  });
});

describe('a folder full of mistakes', () => {
  const expected: Array<[string, string]> = [
    ['reviews/Bad_Name.md', '(file name)'],
    ['reviews/duplicate-id.md', '(file name)'],
    ['reviews/impossible-date.md', 'date'],
    ['reviews/missing-rating.md', 'rating'],
    ['reviews/no-frontmatter.md', '(frontmatter)'],
    ['reviews/rating-six.md', 'rating'],
    ['reviews/unknown-area.md', 'service_area'],
    ['reviews/unknown-service.md', 'services[0]'],
    ['reviews/unknown-technician.md', 'technicians[1]'],
    ['reviews/verified-missing.md', 'verified'],
  ];

  it('the loader reports every problem, not just the first', () => {
    assert.deepEqual(
      problemsOf(MISTAKES).map((p) => [p.file, p.field]),
      expected,
    );
  });

  it('`astro build` fails and prints each file, field and message', () => {
    const outDir = join(work, 'mistakes-dist');
    const result = spawnSync(NODE, [ASTRO_BIN, 'build'], {
      cwd: ROOT,
      env: buildEnv(MISTAKES, outDir),
      encoding: 'utf8',
    });
    assert.notEqual(result.status, 0, 'the build must fail');
    const output = result.stdout + result.stderr;
    assert.match(output, /The content folder has 10 problems/);
    for (const [file, field] of expected)
      assert.ok(output.includes(`${file}: ${field}: `), `${file}: ${field} in:\n${output}`);
  });
});

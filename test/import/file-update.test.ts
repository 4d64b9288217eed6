/**
 * An import that recognises or updates an existing review file changes only
 * the lines whose values change or are added: the file's quoting, flow lists,
 * comments and key order stay, as `git diff` shows them, and a file with
 * nothing new keeps every byte.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { authorName, reviewFrontmatter } from '../../src/lib/content/editor-schema.ts';
import { loadContent } from '../../src/lib/content/load.ts';
import { parseMarkdown } from '../../src/lib/content/split-frontmatter.ts';
import { updatedFileText } from '../../src/lib/import/file-update.ts';
import { totals } from '../../src/lib/import/report.ts';
import type { Frontmatter } from '../../src/lib/import/review-file.ts';
import { importReviews } from '../../src/lib/import/run.ts';
import { ROOT } from '../helpers/builds.ts';
import { googleListPage, googleReview, writeJson } from './exports.ts';

const work = mkdtempSync(join(tmpdir(), 'import-file-update-'));
after(() => rmSync(work, { recursive: true, force: true }));

function contentCopy(): string {
  const dir = mkdtempSync(join(work, 'content-'));
  cpSync(join(ROOT, 'content'), dir, { recursive: true });
  return dir;
}

/** The lines `git diff` shows removed and added between two versions of a file. */
function gitDiff(before: string, after: string): { removed: string[]; added: string[] } {
  const dir = mkdtempSync(join(work, 'diff-'));
  writeFileSync(join(dir, 'a.md'), before);
  writeFileSync(join(dir, 'b.md'), after);
  const result = spawnSync('git', ['diff', '--no-index', '--no-color', '--unified=0', 'a.md', 'b.md'], {
    cwd: dir,
    encoding: 'utf8',
  });
  assert.ok(result.status === 0 || result.status === 1, result.stderr);
  const lines = result.stdout.split('\n');
  const hunks = lines.slice(lines.findIndex((line) => line.startsWith('@@')));
  return {
    removed: hunks.filter((l) => l.startsWith('-')).map((l) => l.slice(1)),
    added: hunks.filter((l) => l.startsWith('+')).map((l) => l.slice(1)),
  };
}

/** The file's frontmatter as the import compares it: the schema's reading, the author as a name. */
function frontmatterOf(raw: string): Frontmatter {
  const data = reviewFrontmatter.parse(parseMarkdown(raw).data);
  return { ...data, author: authorName(data) };
}

const TEXT =
  'Rick redid the low-slope roof over our garage. Careful, tidy, and the membrane seams are beautiful. Would hire again.';

/** Typed by hand: quoted strings (both kinds), flow lists, a flow map, comments, a reply. */
const HAND_TYPED = `---
date: 2024-09-03
rating: 4 # stars, as she told us on the phone
title: 'Garage roof, done right'
author: "Carla M."
technicians: [Rick Olsen]
services: [flat-roofing, roof-repair]
service_area: portland-sw
source: google
# matched to the job by phone
verified: true
verification: { method: job, checked: 2024-09-04, job: "J-2024-0811" }
response:
  date: 2024-09-05
  text: "Thank you, Carla! — Kevin"
---
${TEXT}
`;

function googleCopy(overrides: Parameters<typeof googleReview>[3] = {}) {
  return googleReview('1045', '11', 'CarlaOnGoogle', {
    reviewer: { displayName: 'Carla Martinez' },
    stars: 4,
    comment: TEXT,
    createTime: '2024-09-03T17:00:00Z',
    updateTime: '2024-09-03T17:00:00Z',
    reviewReply: { comment: 'Thank you, Carla! — Kevin', updateTime: '2024-09-05T08:30:00Z' },
    ...overrides,
  });
}

describe('a hand-typed file recognised by an import', () => {
  const content = contentCopy();
  const path = join(content, 'reviews', '2024-09-03-carla-m-garage.md');
  writeFileSync(path, HAND_TYPED);

  it('gains its provenance in added lines only: quotes, flow lists, the flow map, comments and order kept', () => {
    const page = writeJson(join(work, 'carla.json'), googleListPage([googleCopy()]));
    const report = importReviews([page], { contentDir: content, cwd: work });
    assert.deepEqual(totals(report), { added: 0, updated: 1, unchanged: 0, skipped: 0, rejected: 0 });
    assert.equal(report.files[0]!.updated[0]!.by, 'text');
    const after = readFileSync(path, 'utf8');
    assert.deepEqual(gitDiff(HAND_TYPED, after), {
      removed: [],
      added: ['updated: 2024-09-05T08:30:00Z', 'source_id: CarlaOnGoogle'],
    });
    // In the schema's order: updated after date, source_id after source.
    const keys = after
      .split('\n')
      .filter((l) => /^[a-z_]+:/.test(l))
      .map((l) => l.split(':')[0]);
    assert.deepEqual(keys.slice(0, 3), ['date', 'updated', 'rating']);
    assert.equal(keys[keys.indexOf('source') + 1], 'source_id');
    loadContent(content);
  });

  it('a second import of the same export leaves every byte', () => {
    const before = readFileSync(path, 'utf8');
    const page = writeJson(join(work, 'carla.json'), googleListPage([googleCopy()]));
    const report = importReviews([page], { contentDir: content, cwd: work });
    assert.equal(totals(report).unchanged, 1);
    assert.equal(readFileSync(path, 'utf8'), before);
  });

  it('an edit on the platform changes the lines of the values that changed, each in its own style', () => {
    const before = readFileSync(path, 'utf8');
    const page = writeJson(
      join(work, 'carla-edited.json'),
      googleListPage([
        googleCopy({
          stars: 5,
          updateTime: '2024-10-01T10:00:00Z',
          reviewReply: {
            comment: 'Thank you, Carla! See you in the spring. — Kevin',
            updateTime: '2024-10-02T09:00:00Z',
          },
        }),
      ]),
    );
    const report = importReviews([page], { contentDir: content, cwd: work });
    assert.deepEqual(report.files[0]!.updated[0]!.what, ['rating 4 → 5', 'reply changed']);
    assert.deepEqual(gitDiff(before, readFileSync(path, 'utf8')), {
      removed: [
        'updated: 2024-09-05T08:30:00Z',
        'rating: 4 # stars, as she told us on the phone',
        '  date: 2024-09-05',
        '  text: "Thank you, Carla! — Kevin"',
      ],
      added: [
        'updated: 2024-10-02T09:00:00Z',
        'rating: 5 # stars, as she told us on the phone',
        '  date: 2024-10-02',
        '  text: "Thank you, Carla! See you in the spring. — Kevin"',
      ],
    });
    loadContent(content);
  });

  it('a reply added to a file without one is added as a block, its text quoted as the file quotes', () => {
    const plain = HAND_TYPED.replace(/^response:\n.*\n.*\n/m, '').replace('2024-09-03', '2024-09-06');
    const file = join(content, 'reviews', '2024-09-06-carla-m-again.md');
    writeFileSync(file, plain);
    const page = writeJson(
      join(work, 'carla-again.json'),
      googleListPage([
        googleCopy({
          reviewId: 'CarlaAgain',
          name: 'accounts/1045/locations/11/reviews/CarlaAgain',
          createTime: '2024-09-06T17:00:00Z',
          updateTime: '2024-09-06T17:00:00Z',
          reviewReply: { comment: 'Thanks again!', updateTime: '2024-09-07T08:00:00Z' },
        }),
      ]),
    );
    importReviews([page], { contentDir: content, cwd: work });
    assert.deepEqual(gitDiff(plain, readFileSync(file, 'utf8')), {
      removed: [],
      added: [
        'updated: 2024-09-07T08:00:00Z',
        'source_id: CarlaAgain',
        'response:',
        '  date: 2024-09-07',
        '  text: "Thanks again!"',
      ],
    });
  });
});

describe('a hand-typed review whose first name the editor shortened', () => {
  it('"R. Castillo" is recognised as Google\'s "Rosa Castillo": one line added, no second file', () => {
    const content = contentCopy();
    const id = '2022-12-09-r-castillo-flat-roof-patch';
    const path = join(content, 'reviews', `${id}.md`);
    const typed = readFileSync(path, 'utf8');
    const { data, body } = parseMarkdown(typed) as { data: { response: { text: string } }; body: string };
    const page = writeJson(
      join(work, 'castillo.json'),
      googleListPage([
        googleReview('1045', '11', 'Castillo1', {
          reviewer: { displayName: 'Rosa Castillo' },
          stars: 2,
          comment: body,
          createTime: '2022-12-09T19:00:00Z',
          updateTime: '2022-12-09T19:00:00Z',
          reviewReply: { comment: data.response.text, updateTime: '2022-12-12T11:30:00Z' },
        }),
      ]),
    );
    const report = importReviews([page], { contentDir: content, cwd: work });
    assert.deepEqual(totals(report), { added: 0, updated: 1, unchanged: 0, skipped: 0, rejected: 0 });
    assert.deepEqual(gitDiff(typed, readFileSync(path, 'utf8')), { removed: [], added: ['source_id: Castillo1'] });
  });
});

describe('every review file of the real content', () => {
  const dir = join(ROOT, 'content', 'reviews');
  const files = readdirSync(dir).filter((name) => name.endsWith('.md'));

  it('with nothing new, keeps every byte', () => {
    for (const name of files) {
      const raw = readFileSync(join(dir, name), 'utf8');
      const data = frontmatterOf(raw);
      assert.equal(updatedFileText(raw, data, { ...data }, parseMarkdown(raw).body), raw, name);
    }
  });

  it('given a source_id and a new rating, shows exactly those lines in a diff', () => {
    for (const name of files) {
      const raw = readFileSync(join(dir, name), 'utf8');
      const data = frontmatterOf(raw);
      const rating = data.rating === 5 ? 4 : data.rating + 1;
      const after = updatedFileText(raw, data, { ...data, rating, source_id: 'Id-123' }, parseMarkdown(raw).body);
      const ratingLine = raw.split('\n').find((l) => l.startsWith('rating:'))!;
      assert.deepEqual(
        gitDiff(raw, after),
        { removed: [ratingLine], added: [ratingLine.replace(/\d/, String(rating)), 'source_id: Id-123'] },
        name,
      );
      assert.deepEqual(frontmatterOf(after), { ...data, rating, source_id: 'Id-123' }, name);
    }
  });
});

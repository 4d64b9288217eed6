/**
 * "No longer in the exports" and --delete-missing stay within the scope of the
 * export read: the same platform and, for Google, the same location. A
 * one-row Yelp CSV is not Yelp's full list; location A's export says nothing
 * of location B's reviews; one page of a longer API list says nothing of the
 * other pages'.
 */
import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, it } from 'node:test';
import { formatReport } from '../../src/lib/import/report.ts';
import { importReviews, type ImportOptions } from '../../src/lib/import/run.ts';
import { ROOT } from '../helpers/builds.ts';
import { googleListPage, googleReview, trustpilotReview, writeJson, writeTakeout } from './exports.ts';

const work = mkdtempSync(join(tmpdir(), 'import-scope-'));
after(() => rmSync(work, { recursive: true, force: true }));

function contentCopy(): string {
  const dir = mkdtempSync(join(work, 'content-'));
  cpSync(join(ROOT, 'content'), dir, { recursive: true });
  return dir;
}

// Full names: each review's file is named after its own customer.
const run = (paths: string[], options: ImportOptions) =>
  importReviews(paths, { cwd: work, fullNames: true, ...options });
const review = (location: string, id: string) =>
  googleReview('1045', location, id, { reviewer: { displayName: `Customer ${id}` }, comment: `Fine work, ${id}.` });
const files = (content: string) => readdirSync(join(content, 'reviews')).sort();

it("location A's export lists and deletes only location A's reviews that it no longer has", () => {
  const content = contentCopy();
  const root = mkdtempSync(join(work, 'takeout-'));
  const [a, b] = writeTakeout(root, {
    '11': [review('11', 'a1'), review('11', 'a2')],
    '12': [review('12', 'b1'), review('12', 'b2')],
  });
  assert.equal(run([join(root, 'Google Business Profile')], { contentDir: content }).files.length, 2);
  const imported = files(content);

  // Location 11 again, without a2: b1 and b2 are location 12's, not missing from this export.
  writeJson(a!, { reviews: [review('11', 'a1')] });
  const kept = run([a!], { contentDir: content, deleteMissing: false });
  assert.deepEqual(
    kept.missing.map((m) => [m.source_id, m.in]),
    [['a2', 'Google location 11']],
  );
  assert.match(
    formatReport(kept),
    /^No longer in the exports of Google location 11, kept \(--delete-missing deletes them\):\n {2}reviews\/\S+\.md {2}\(google a2\)$/m,
  );
  const deleted = run([a!], { contentDir: content, deleteMissing: true });
  assert.deepEqual(
    deleted.missing.map((m) => m.source_id),
    ['a2'],
  );
  assert.deepEqual(
    files(content),
    imported.filter((f) => f !== deleted.deleted[0]!.replace('reviews/', '')),
  );
  assert.equal(files(content).length, imported.length - 1);

  // Location 12's export, whole: nothing of location 11 is missing from it.
  const other = run([b!], { contentDir: content, deleteMissing: true });
  assert.deepEqual(other.missing, []);
  assert.equal(files(content).length, imported.length - 1);
});

it('a one-row Yelp CSV with --source yelp lists none of the earlier Yelp reviews; --delete-missing deletes none', () => {
  const content = contentCopy();
  writeFileSync(
    join(work, 'yelp-jan.csv'),
    'date,rating,author,text\n2025-01-05,5,Ann B.,Fine.\n2025-01-09,4,Bo C.,Good.\n',
  );
  writeFileSync(join(work, 'yelp-feb.csv'), 'date,rating,author,text\n2025-02-03,5,Cy D.,Great.\n');
  run([join(work, 'yelp-jan.csv')], { contentDir: content, csv: { source: 'yelp' } });
  const before = files(content);
  const feb = run([join(work, 'yelp-feb.csv')], { contentDir: content, csv: { source: 'yelp' }, deleteMissing: true });
  assert.deepEqual(feb.missing, []);
  assert.doesNotMatch(formatReport(feb), /No longer in the exports/);
  assert.equal(files(content).length, before.length + 1);
});

it("a Trustpilot export speaks for Trustpilot's reviews only, not Google's", () => {
  const content = contentCopy();
  const google = writeJson(join(work, 'google.json'), googleListPage([review('11', 'g1')]));
  const first = writeJson(join(work, 'trustpilot-1.json'), {
    reviews: [trustpilotReview('t1'), trustpilotReview('t2', { createdAt: '2025-06-02T10:00:00Z' })],
  });
  run([google, first], { contentDir: content });
  const second = writeJson(join(work, 'trustpilot-2.json'), { reviews: [trustpilotReview('t1')] });
  const report = run([second], { contentDir: content });
  assert.deepEqual(
    report.missing.map((m) => [m.source, m.source_id, m.in]),
    [['trustpilot', 't2', 'Trustpilot']],
  );
});

it('one page of a longer API list (a nextPageToken) says nothing of the reviews on the other pages', () => {
  const content = contentCopy();
  const all = writeJson(
    join(work, 'all.json'),
    googleListPage([review('11', 'p1'), review('11', 'p2'), review('11', 'p3')]),
  );
  run([all], { contentDir: content });
  const page = writeJson(join(work, 'page.json'), googleListPage([review('11', 'p1')], { nextPageToken: 'next' }));
  const report = run([page], { contentDir: content, deleteMissing: true });
  assert.deepEqual(report.missing, []);
  assert.equal(files(content).filter((f) => f.includes('customer-p')).length, 3);
  // The whole list again, without p3: that one is missing.
  const rest = writeJson(join(work, 'all.json'), googleListPage([review('11', 'p1'), review('11', 'p2')]));
  assert.deepEqual(
    run([rest], { contentDir: content }).missing.map((m) => m.source_id),
    ['p3'],
  );
});

it('a review file deleted by hand is forgotten; a location with no export this run keeps its reviews', () => {
  const content = contentCopy();
  const root = mkdtempSync(join(work, 'takeout-forget-'));
  const [a] = writeTakeout(root, { '21': [review('21', 'f1'), review('21', 'f2')], '22': [review('22', 'h1')] });
  run([join(root, 'Google Business Profile')], { contentDir: content });
  const f2 = files(content).find((f) => f.includes('customer-f2'))!;
  rmSync(join(content, 'reviews', f2));
  writeJson(a!, { reviews: [review('21', 'f1')] });
  assert.deepEqual(run([a!], { contentDir: content }).missing, [], 'nothing to list: its file is gone');
  assert.ok(files(content).some((f) => f.includes('customer-h1')));
  const { locations } = JSON.parse(readFileSync(join(content, '.import-state.json'), 'utf8'));
  assert.deepEqual(locations['google locations/21'].reviews, ['f1']);
  assert.deepEqual(locations['google locations/22'].reviews, ['h1']);
});

/**
 * The build's warning about names in review text that match no technician:
 * worth reading, so editors do not learn to ignore it. Measured on the real
 * content/ and on an import of a Google export written as customers and the
 * platform write (a translation wrapper, "Doug fir", the owner who signs the
 * replies, a neighbour, ordinary words at the start of a sentence): no false
 * warning on either, while a real unknown name still warns, and business.yaml's
 * `not_technicians` silences a name for good.
 */
import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { loadContent, loadEditingSettings } from '../../src/lib/content/load.ts';
import { ContentError } from '../../src/lib/content/problems.ts';
import { importReviews } from '../../src/lib/import/run.ts';
import { analyseInsights, loadEditorial, replySigners } from '../../src/lib/insights/index.ts';
import { buildDataset } from '../../src/lib/reviews/published-dataset.ts';
import { ROOT } from '../helpers/builds.ts';

const TAKEOUT = join(import.meta.dirname, 'fixtures/google-takeout/reviews.json');
const work = mkdtempSync(join(tmpdir(), 'name-warnings-'));
after(() => rmSync(work, { recursive: true, force: true }));

function warningsOf(dir: string) {
  const content = loadContent(dir);
  const { warnings } = analyseInsights(buildDataset(content.business, content.reviews), loadEditorial(dir), undefined, {
    notTechnicians: loadEditingSettings(dir).not_technicians,
  });
  return warnings;
}

function copyOfContent(): string {
  const dir = mkdtempSync(join(work, 'content-'));
  cpSync(join(ROOT, 'content'), dir, { recursive: true });
  return dir;
}

const REVIEW = `---
date: 2026-11-20
rating: 5
author: Nina P.
services: [roof-repair]
source: website
verified: true
verification: { method: job, checked: 2026-11-21 }
---
Jaime was great: he found the leak in an hour.
`;

describe('no false warning', () => {
  it('on the real content', () => {
    assert.deepEqual(warningsOf(join(ROOT, 'content')), []);
  });

  it('on an imported Google export', () => {
    const dir = copyOfContent();
    const report = importReviews([TAKEOUT], { contentDir: dir, format: 'google' });
    assert.equal(report.files.flatMap((f) => f.problems ?? []).length, 0, JSON.stringify(report));
    const imported = loadContent(dir).reviews.filter((r) => r.source === 'google' && r.source_id);
    assert.ok(imported.length >= 8, `${imported.length} reviews imported`);
    assert.deepEqual(
      warningsOf(dir).map((w) => `${w.name}: ${w.sentence}`),
      [],
    );
  });
});

describe('warnings that remain', () => {
  it('a name that is no technician is reported with its file and sentence', () => {
    const dir = copyOfContent();
    writeFileSync(join(dir, 'reviews/2026-11-20-nina-p.md'), REVIEW);
    assert.deepEqual(
      warningsOf(dir).map((w) => [w.review_id, w.name]),
      [['2026-11-20-nina-p', 'Jaime']],
    );
  });

  it("business.yaml's not_technicians silences a name for good", () => {
    const dir = copyOfContent();
    writeFileSync(join(dir, 'reviews/2026-11-20-nina-p.md'), REVIEW);
    const business = join(dir, 'business.yaml');
    writeFileSync(business, `${readFileSync(business, 'utf8')}not_technicians: [Jaime]\n`);
    assert.deepEqual(warningsOf(dir), []);
    assert.equal(
      loadContent(dir).business.name,
      'Cedar Ridge Roofing & Exteriors',
      'the setting is no part of the published business',
    );
    assert.ok(!('not_technicians' in loadContent(dir).business));
  });

  it('a not_technicians that is not a list of names is a content problem with its line', () => {
    const dir = copyOfContent();
    const business = join(dir, 'business.yaml');
    const lines = readFileSync(business, 'utf8').split('\n').length;
    writeFileSync(business, `${readFileSync(business, 'utf8')}not_technicians: Jaime\n`);
    assert.throws(
      () => loadContent(dir),
      (error: unknown) =>
        error instanceof ContentError &&
        error.problems.some(
          (p) =>
            p.file === 'business.yaml' && p.field === 'not_technicians' && p.line === lines && p.value === '"Jaime"',
        ),
    );
  });
});

it('the names that sign the replies', () => {
  const replies = [
    'Gracias, Janet! – Kevin',
    'Thanks Tom, we appreciate it.\n- Kevin',
    'Glad we could help. Kevin, owner',
    'Thanks Priya! -Kevin Brandt, Cedar Ridge',
    'Thank you, Priya!',
    'We are sorry to hear this, please call the office.',
  ];
  const signers = replySigners({
    reviews: replies.map((text) => ({ response: { date: '2025-01-01', text } })) as never,
  });
  assert.deepEqual([...signers], ['Kevin']);
});

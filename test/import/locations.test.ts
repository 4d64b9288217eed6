/**
 * A Google location is named by its title where the export has one (Takeout's
 * additionalData.json beside the location's reviews.json), its id in
 * parentheses; by its id alone where there is none; never by Takeout's path
 * of ids. An API run, whose list has no title, uses the one an earlier export gave.
 */
import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, it } from 'node:test';
import { formatReport } from '../../src/lib/import/report.ts';
import { importReviews } from '../../src/lib/import/run.ts';
import { ROOT } from '../helpers/builds.ts';
import { googleReview, writeJson, writeTakeout } from './exports.ts';

const work = mkdtempSync(join(tmpdir(), 'import-locations-'));
after(() => rmSync(work, { recursive: true, force: true }));

function contentCopy(): string {
  const dir = mkdtempSync(join(work, 'content-'));
  cpSync(join(ROOT, 'content'), dir, { recursive: true });
  return dir;
}

// Real Takeout location ids are 19 or 20 digits, under an account id of 21.
const ACCOUNT = '109784038955748369603';
const TIGARD = '3692820271974439325';
const BEAVERTON = '14188232911212399161';

/** Takeout's additionalData.json of a location: its details as attributes, the title among them. */
const additionalData = (title: string) => ({
  attributes: [
    { id: { attributeType: 'PHONE' }, values: [{ datum: { phone: { text: '+1 503 555 0100' } } }] },
    { id: { attributeType: 'LISTING_NAME' }, values: [{ datum: { listingName: { text: title } } }] },
  ],
});

const review = (location: string, id: string) =>
  googleReview(ACCOUNT, location, id, { reviewer: { displayName: `Customer ${id}` }, comment: `Fine work, ${id}.` });

it('Takeout: a location by its listing title (id in parentheses), one without a title by its id; no path of ids', () => {
  const content = contentCopy();
  const root = mkdtempSync(join(work, 'takeout-'));
  writeTakeout(root, { [TIGARD]: [review(TIGARD, 't1')], [BEAVERTON]: [review(BEAVERTON, 'b1')] }, ACCOUNT);
  const folder = join(root, 'Google Business Profile');
  writeJson(
    join(folder, `account-${ACCOUNT}/location-${TIGARD}/additionalData.json`),
    additionalData('Cedar Ridge Roofing – Tigard'),
  );
  // Takeout's further pages of a long list.
  writeJson(join(folder, `account-${ACCOUNT}/location-${TIGARD}/reviews-001.json`), {
    reviews: [review(TIGARD, 't2')],
  });
  const report = importReviews([folder], { contentDir: content, cwd: work });
  const text = formatReport(report);
  assert.match(
    text,
    new RegExp(`^Cedar Ridge Roofing – Tigard \\(Google location ${TIGARD}\\): 1 new, 0 updated`, 'm'),
  );
  assert.match(
    text,
    new RegExp(`^Cedar Ridge Roofing – Tigard \\(Google location ${TIGARD}, reviews-001\\.json\\): 1 new`, 'm'),
  );
  assert.match(text, new RegExp(`^Google location ${BEAVERTON}: 1 new, 0 updated`, 'm'));
  assert.doesNotMatch(text, /account-|Google Business Profile\//, 'no path of ids');
  assert.doesNotMatch(text, /additionalData|unknown format/, 'the details file is read for the title, not imported');
  assert.match(text, /^3 new, 0 updated, 0 unchanged, 0 skipped\./m);

  // The API's list has no title: the one Takeout gave is remembered.
  const api = importReviews([], {
    contentDir: content,
    google: [
      {
        name: `Google API accounts/${ACCOUNT}/locations/${TIGARD}`,
        location: `accounts/${ACCOUNT}/locations/${TIGARD}`,
        document: { reviews: [review(TIGARD, 't1'), review(TIGARD, 't2'), review(TIGARD, 't3')] },
      },
    ],
  });
  assert.match(
    formatReport(api),
    new RegExp(`^Cedar Ridge Roofing – Tigard \\(Google location ${TIGARD}\\): 1 new, 0 updated, 2 unchanged`, 'm'),
  );
  const memory = JSON.parse(readFileSync(join(content, '.import-state.json'), 'utf8'));
  assert.equal(memory.locations[`google locations/${TIGARD}`].title, 'Cedar Ridge Roofing – Tigard');
});

it('a problem in a location is headed by its title; a title with control characters is shown without them', () => {
  const content = contentCopy();
  const root = mkdtempSync(join(work, 'takeout-bad-'));
  writeTakeout(
    root,
    { [TIGARD]: [review(TIGARD, 'x1'), { ...review(TIGARD, 'x2'), starRating: 'STAR_RATING_UNSPECIFIED' }] },
    ACCOUNT,
  );
  const folder = join(root, 'Google Business Profile');
  writeJson(
    join(folder, `account-${ACCOUNT}/location-${TIGARD}/additionalData.json`),
    additionalData('Tigard\u001b]0;owned\u0007 shop'),
  );
  const text = formatReport(importReviews([folder], { contentDir: content, cwd: work }));
  assert.match(
    text,
    new RegExp(
      `^Tigard ]0;owned shop \\(Google location ${TIGARD}\\): not imported, nothing written \\(1 problem\\):$`,
      'm',
    ),
  );
  assert.doesNotMatch(text, /[\u0000-\u0008\u000b-\u001f\u007f]/);
});

it('a Google file named on the command line keeps its name', () => {
  const content = contentCopy();
  const file = writeJson(join(work, 'tigard.json'), { reviews: [review(TIGARD, 'n1')] });
  assert.match(
    formatReport(importReviews([file], { contentDir: content, cwd: work })),
    /^tigard\.json \(google\): 1 new/m,
  );
});

/**
 * Imported reviews are published the way the site names customers, "Firstname
 * L.", under a file name made from that short name; `--full-names` keeps the
 * platform's; a reviewer without a name is "<Platform> user".
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { loadContent } from '../../src/lib/content/load.ts';
import { parseMarkdown } from '../../src/lib/content/split-frontmatter.ts';
import { anonymousLabel, shortName } from '../../src/lib/import/names.ts';
import { importReviews } from '../../src/lib/import/run.ts';
import { NODE, ROOT } from '../helpers/builds.ts';
import { googleListPage, googleReview, trustpilotReview, writeCsv, writeJson } from './exports.ts';

const work = mkdtempSync(join(tmpdir(), 'import-names-'));
after(() => rmSync(work, { recursive: true, force: true }));

function contentCopy(): string {
  const dir = mkdtempSync(join(work, 'content-'));
  cpSync(join(ROOT, 'content'), dir, { recursive: true });
  return dir;
}

/** The author of every review file an import added, by file name. */
function newAuthors(content: string, before: ReadonlySet<string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of readdirSync(join(content, 'reviews'))
    .filter((n) => !before.has(n))
    .sort()) {
    const { data } = parseMarkdown(readFileSync(join(content, 'reviews', name), 'utf8'));
    out[name] = (data as { author: string }).author;
  }
  return out;
}

describe('"Firstname L.", as the site writes names', () => {
  const cases: Array<[string, string]> = [
    ['Frank Zimmerman', 'Frank Z.'],
    ['frank zimmerman', 'Frank Z.'],
    ['Madonna', 'Madonna'],
    ['Frank Z.', 'Frank Z.'],
    ['Frank Z', 'Frank Z.'],
    ['R. Castillo', 'R. Castillo'],
    ['Zoë Ångström-Nguyễn', 'Zoë Å.'],
    ['Jean-Luc Picard', 'Jean-Luc P.'],
    ['Mary Ann Smith', 'Mary S.'],
    ['Dr. Mary Ann Smith Jr.', 'Mary S.'],
    ['John Smith, Jr.', 'John S.'],
    ['Smith, John', 'John S.'],
    ['Mrs. Smith', 'Mrs. S.'],
    ['Jan van der Berg', 'Jan B.'],
    ['Maria de la Cruz', 'Maria C.'],
    ['Van Morrison', 'Van M.'],
    ['Omar al-Rashid', 'Omar R.'],
    ["Siobhán O'Brien", 'Siobhán O.'],
    ['Raj & Anita Patel', 'Raj & Anita P.'],
    ['Lisa and Tom Green', 'Lisa and Tom G.'],
    ['The Okafor Family', 'The O. Family'],
    ['Иван Петров', 'Иван П.'],
    ['Γιώργος Παπαδόπουλος', 'Γιώργος Π.'],
    ['محمد أحمد', 'محمد أ.'],
    ['राज शर्मा', 'राज श.'],
    ['李娜', '李*'],
    ['王小明', '王**'],
    ['山田 太郎', '山田**'],
    ['김민준', '김**'],
    ['Bob 🙂 Jones', 'Bob J.'],
    ['Acme Realty LLC', 'Acme Realty LLC'],
  ];
  for (const [name, short] of cases)
    it(`${name} → ${short}`, () => {
      assert.equal(shortName(name), short);
    });

  it("a platform's anonymous reviewer reads like the names next to it; the business's own channels say Anonymous", () => {
    assert.equal(anonymousLabel('google'), 'Google user');
    assert.equal(anonymousLabel('trustpilot'), 'Trustpilot user');
    assert.equal(anonymousLabel('yelp'), 'Yelp user');
    assert.equal(anonymousLabel('email'), 'Anonymous');
  });
});

describe('an import publishes short names by default', () => {
  const page = writeJson(
    join(work, 'google.json'),
    googleListPage([
      googleReview('1045', '11', 'N1', {
        reviewer: { displayName: 'Priya Raman' },
        createTime: '2026-01-05T10:00:00Z',
        updateTime: '2026-01-05T10:00:00Z',
      }),
      googleReview('1045', '11', 'N2', {
        reviewer: { isAnonymous: true },
        createTime: '2026-01-06T10:00:00Z',
        updateTime: '2026-01-06T10:00:00Z',
      }),
      googleReview('1045', '11', 'N3', {
        reviewer: { displayName: 'A Google User', isAnonymous: true },
        createTime: '2026-01-07T10:00:00Z',
        updateTime: '2026-01-07T10:00:00Z',
      }),
      googleReview('1045', '11', 'N4', {
        reviewer: { displayName: 'Jo <i>Smith-Jones</i>' },
        createTime: '2026-01-08T10:00:00Z',
        updateTime: '2026-01-08T10:00:00Z',
      }),
    ]),
  );
  const trustpilot = writeJson(join(work, 'trustpilot.json'), {
    reviews: [trustpilotReview('6650f1a2b3c4d5e6f7a8b9d1', { consumer: { displayName: 'Émilie Dubois' } })],
  });
  const csv = writeCsv(
    join(work, 'yelp.csv'),
    ['date', 'rating', 'author', 'text', 'source'],
    [
      ['2026-01-09', 5, 'Ann Lee', 'Tidy crew.', 'yelp'],
      ['2026-01-10', 4, '', 'Quick fix.', 'yelp'],
      ['2026-01-11', 5, '', 'Thank you for the fast repair.', 'email'],
    ],
  );

  it('"Firstname L." in the file and in its name; anonymous reviewers as "<Platform> user"', () => {
    const content = contentCopy();
    const before = new Set(readdirSync(join(content, 'reviews')));
    importReviews([page, trustpilot, csv], { contentDir: content, cwd: work });
    assert.deepEqual(newAuthors(content, before), {
      '2025-06-01-emilie-d.md': 'Émilie D.',
      '2026-01-05-priya-r.md': 'Priya R.',
      '2026-01-06-google-user.md': 'Google user',
      '2026-01-07-google-user.md': 'Google user',
      '2026-01-08-jo-s.md': 'Jo S.',
      '2026-01-09-ann-l.md': 'Ann L.',
      '2026-01-10-yelp-user.md': 'Yelp user',
      '2026-01-11-anonymous.md': 'Anonymous',
    });
    loadContent(content);
    // A second import finds every one again: nothing new, nothing changed.
    const again = importReviews([page, trustpilot, csv], { contentDir: content, cwd: work });
    assert.deepEqual(
      again.files.map((f) => [f.added.length, f.updated.length]),
      [
        [0, 0],
        [0, 0],
        [0, 0],
      ],
    );
  });

  it('--full-names keeps the names the platforms show (tags still removed)', () => {
    const content = contentCopy();
    const before = new Set(readdirSync(join(content, 'reviews')));
    const result = spawnSync(
      NODE,
      [join(ROOT, 'scripts/import.ts'), '--full-names', '--content-dir', content, page, trustpilot, csv],
      { cwd: work, encoding: 'utf8' },
    );
    assert.equal(result.status, 0, result.stdout + result.stderr);
    assert.deepEqual(newAuthors(content, before), {
      '2025-06-01-emilie-dubois.md': 'Émilie Dubois',
      '2026-01-05-priya-raman.md': 'Priya Raman',
      '2026-01-06-google-user.md': 'Google user',
      '2026-01-07-google-user.md': 'Google user',
      '2026-01-08-jo-smith-jones.md': 'Jo Smith-Jones',
      '2026-01-09-ann-lee.md': 'Ann Lee',
      '2026-01-10-yelp-user.md': 'Yelp user',
      '2026-01-11-anonymous.md': 'Anonymous',
    });
  });
});

/**
 * Review frontmatter as editors and the CMS write it, read through the content
 * loader: each YAML spelling gives the published review the value YAML 1.2
 * means (dates stay strings, quoted and plain scalars, flow and block
 * sequences, a nested reply, comments), and a YAML mistake is reported with
 * the file, `(frontmatter)` and the line in the file.
 */
import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { loadContent } from '../../src/lib/content/load.ts';
import { ContentError, type ContentProblem } from '../../src/lib/content/problems.ts';
import { ROOT } from '../helpers/builds.ts';

const work = mkdtempSync(join(tmpdir(), 'frontmatter-'));
after(() => rmSync(work, { recursive: true, force: true }));

const HEAD =
  'date: 2024-03-01\nrating: 4\nauthor: Pat R.\ntechnicians: [Dave Kowalski]\nservices: [roof-repair]\nsource: google\nverified: true\nverification: { method: job, checked: 2024-03-01 }';

/** Loads a content folder holding the real business and one review with this frontmatter. */
function load(frontmatter: string): { review?: Record<string, unknown>; problems: ContentProblem[] } {
  const dir = mkdtempSync(join(work, 'case-'));
  cpSync(join(ROOT, 'test/fixtures/content-mistakes/business.yaml'), join(dir, 'business.yaml'));
  cpSync(join(ROOT, 'test/fixtures/content-small/reviews/2023-02-14-ann-storm.md'), join(dir, 'reviews/ok.md'));
  writeFileSync(join(dir, 'reviews/a-review.md'), `---\n${frontmatter}\n---\nThe crew fixed the leak.\n`);
  try {
    const { reviews } = loadContent(dir);
    return { review: reviews.find((r) => r.id === 'a-review') as unknown as Record<string, unknown>, problems: [] };
  } catch (error) {
    assert.ok(error instanceof ContentError, String(error));
    return { problems: error.problems };
  }
}

describe('each way of writing a field gives the value YAML means', () => {
  const cases: Array<[string, string, Record<string, unknown>]> = [
    [
      'plain fields, the date kept a string',
      HEAD,
      {
        date: '2024-03-01',
        rating: 4,
        author: { name: 'Pat R.' },
        technicians: ['Dave Kowalski'],
        services: ['roof-repair'],
        source: 'google',
      },
    ],
    [
      'double-quoted, with an escape',
      HEAD.replace('author: Pat R.', 'author: "Pat \\"the roofer\\" R."'),
      { author: { name: 'Pat "the roofer" R.' } },
    ],
    [
      'single-quoted, with a doubled quote',
      HEAD.replace('author: Pat R.', "author: 'Pat O''Brien'"),
      { author: { name: "Pat O'Brien" } },
    ],
    [
      'a title after a comment, and a comment after a value',
      `${HEAD}\n# the customer's own words\ntitle: Quick fix # from the phone call`,
      { title: 'Quick fix' },
    ],
    [
      'a block sequence',
      HEAD.replace('services: [roof-repair]', 'services:\n  - roof-repair\n  - gutters'),
      { services: ['roof-repair', 'gutters'] },
    ],
    [
      'a block sequence without indent',
      HEAD.replace('services: [roof-repair]', 'services:\n- roof-repair\n- gutters'),
      { services: ['roof-repair', 'gutters'] },
    ],
    [
      'a flow sequence of quoted and plain names',
      HEAD.replace('[Dave Kowalski]', '["dave-kowalski", Maria Santos]'),
      { technicians: ['Dave Kowalski', 'Maria Santos'] },
    ],
    [
      'a nested reply and an instant',
      `${HEAD}\nupdated: 2024-03-06T10:00:00Z\nresponse:\n  date: 2024-03-05\n  text: "Thanks, Pat! #1 crew"`,
      { updated: '2024-03-06T10:00:00Z', response: { date: '2024-03-05', text: 'Thanks, Pat! #1 crew' } },
    ],
    ['a folded multi-line title', `${HEAD}\ntitle: >-\n  Fast and\n  tidy`, { title: 'Fast and tidy' }],
    ['no service area (null)', `${HEAD}\nservice_area: null`, { service_area: null }],
  ];
  for (const [name, frontmatter, fields] of cases) {
    it(name, () => {
      const { review, problems } = load(frontmatter);
      assert.deepEqual(problems, []);
      for (const [field, value] of Object.entries(fields)) assert.deepEqual(review?.[field], value, field);
    });
  }
});

describe('a YAML mistake names the file, (frontmatter) and its line in the file', () => {
  const cases: Array<[string, string, RegExp]> = [
    ['a key given twice', `${HEAD}\ntitle: x\ntitle: y`, /invalid YAML: Map keys must be unique at line 11, column 1$/],
    [
      'an unterminated quote',
      HEAD.replace('author: Pat R.', 'author: "Pat R.'),
      /invalid YAML: Missing closing "quote at line \d+, column \d+$/,
    ],
    ['an unclosed flow sequence', HEAD.replace('rating: 4', 'rating: [4'), /invalid YAML: .* ] at line 4, column 1$/],
    ['a tab for indentation', `${HEAD}\nresponse:\n\tdate: 2024-03-05`, /invalid YAML: .* at line 10, column \d+/],
  ];
  for (const [name, frontmatter, message] of cases) {
    it(name, () => {
      const { problems } = load(frontmatter);
      assert.equal(problems.length, 1, JSON.stringify(problems));
      assert.equal(problems[0]?.file, 'reviews/a-review.md');
      assert.equal(problems[0]?.field, '(frontmatter)');
      assert.match(problems[0]?.message ?? '', message);
    });
  }
});

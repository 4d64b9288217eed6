/**
 * The frontmatter fast path (src/lib/content/simple-yaml.ts) must give what
 * `yaml` gives, or decline: a case it accepts with another value would change
 * a published review, one it accepts that `yaml` refuses would hide an
 * editor's mistake.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseSimpleYaml } from '../../src/lib/content/simple-yaml.ts';
import { parseYaml } from '../../src/lib/content/frontmatter.ts';

const ACCEPTED = [
  'date: 2023-01-23\nrating: 5\ntitle: "Highly recommend"\nauthor: "Victor E."\ntechnicians: []\nservices: [storm-damage]\nservice_area: forest-grove\nsource: google\nverified: true',
  'updated: 2025-11-24T13:04:00Z\nrating: 0\nverified: false\nservice_area: null\ntitle:',
  'technicians: ["dave-kowalski", Maria Santos, \'it\'\'s, ok\']\nservices:\n  - gutters\n  - roof-repair',
  'services:\n- gutters\n- skylights',
  'response:\n  date: 2022-10-07\n  text: "Thanks Tom. You\'re right — we\'ll call. #1"\nauthor:\n  name: Åsa Ö.',
  "title: 'Said \"wow\"'\nsource: e-mail (direct)\nflag: True\nother: NULL",
];

const DECLINED = [
  'rating: 05', // YAML reads a number; leading zeros are not ours to decide
  'rating: 5.0',
  'rating: -1',
  'rating: 0x1F',
  'rating: .inf',
  'title: "a \\"quoted\\" word"', // escapes
  'title: a # comment',
  'title: first line\n  continued',
  'title: x\ntitle: y', // duplicate key: an error in `yaml`
  'title: |\n  block',
  'title: &a x\nother: *a',
  'title: !tag x',
  'title: {a: 1}',
  'title: a: b',
  '',
  '# only a comment',
  '__proto__: x',
  'title: "unterminated',
  'services: [a, [b]]',
  'title:\ttab',
];

test('the fast path gives exactly what yaml gives for the simple frontmatter editors write', () => {
  for (const source of ACCEPTED) {
    const fast = parseSimpleYaml(source);
    assert.notEqual(fast, undefined, `declined: ${source}`);
    assert.equal(JSON.stringify(fast), JSON.stringify(parseYaml(source)), source);
  }
});

test('anything outside the simple subset is left to yaml (values and error messages)', () => {
  for (const source of DECLINED) assert.equal(parseSimpleYaml(source), undefined, source);
});

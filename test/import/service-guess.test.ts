/**
 * The services an import guesses, measured against what a person assigns:
 * precision (of the services guessed, how many are right) and recall (of the
 * services a person assigns, how many are guessed), over every (review,
 * service) pair of two labelled sets of roofing reviews
 * (test/fixtures/import-services/): labelled.jsonl, written and labelled before
 * the rules and used to develop them, and held-out.jsonl, written and labelled
 * before the last round of rules and never tuned on. The insights' entity
 * linker, which the import used before, is measured beside it. Figures are in
 * docs/editing.md, "What is written".
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { loadContent } from '../../src/lib/content/load.ts';
import { splitSentences } from '../../src/lib/insights/sentences.ts';
import { createLinker } from '../../src/lib/insights/entities.ts';
import { guessServices } from '../../src/lib/import/service-guess.ts';
import { ROOT } from '../helpers/builds.ts';

interface Labelled {
  id: string;
  text: string;
  services: string[];
}

const business = loadContent(join(ROOT, 'content')).business;
const read = (name: string): Labelled[] =>
  readFileSync(join(ROOT, 'test/fixtures/import-services', name), 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as Labelled);
const development = read('labelled.jsonl');
const heldOut = read('held-out.jsonl');

const importGuess = guessServices(business);
const linker = createLinker(business);
const linkerGuess = (text: string) => [...new Set(splitSentences(text).flatMap((s) => linker.services(s)))];

function measure(set: readonly Labelled[], guess: (text: string) => string[]) {
  let right = 0;
  let guessed = 0;
  let assigned = 0;
  for (const review of set) {
    const got = new Set(guess(review.text));
    guessed += got.size;
    assigned += review.services.length;
    right += review.services.filter((s) => got.has(s)).length;
  }
  const round = (n: number) => Math.round(n * 1000) / 1000;
  return { precision: round(right / guessed), recall: round(right / assigned), right, guessed, assigned };
}

describe('service guesses against labelled reviews', () => {
  it('the fixtures are realistic enough: 40+ reviews each, every service, reviews naming none, ids of business.yaml', () => {
    const ids = new Set(business.services.map((s) => s.id));
    for (const set of [development, heldOut]) {
      assert.ok(set.length >= 40);
      assert.ok(set.some((r) => r.services.length === 0));
      for (const r of set) for (const s of r.services) assert.ok(ids.has(s), `${r.id}: ${s}`);
      assert.deepEqual(new Set(set.flatMap((r) => r.services)), ids);
    }
  });

  it('held out: precision at least 0.90 and recall at least 0.80, both above the linker the import used', (t) => {
    const ours = measure(heldOut, importGuess);
    const before = measure(heldOut, linkerGuess);
    t.diagnostic(
      `held out (${heldOut.length} reviews): import ${JSON.stringify(ours)}; linker ${JSON.stringify(before)}`,
    );
    assert.ok(ours.precision >= 0.9, JSON.stringify(ours));
    assert.ok(ours.recall >= 0.8, JSON.stringify(ours));
    assert.ok(ours.precision > before.precision && ours.recall > before.recall);
  });

  it('development set: precision and recall at least 0.93', (t) => {
    const ours = measure(development, importGuess);
    t.diagnostic(
      `development (${development.length} reviews): import ${JSON.stringify(ours)}; linker ${JSON.stringify(measure(development, linkerGuess))}`,
    );
    assert.ok(ours.precision >= 0.93 && ours.recall >= 0.93, JSON.stringify(ours));
  });

  it('a mention near the job is not the job: "careful with the skylights" leaves a moss removal a moss removal', () => {
    assert.deepEqual(
      importGuess(
        'Moss was taking over the north side. They scraped it by hand and were careful with the skylights. They even rinsed the gutters when they were done.',
      ),
      ['moss-removal'],
    );
    assert.deepEqual(importGuess('Three companies told us we needed a new roof. They fixed the leak for $300.'), [
      'roof-repair',
    ]);
    assert.deepEqual(importGuess('Great people, on time, fair price.'), []);
  });
});

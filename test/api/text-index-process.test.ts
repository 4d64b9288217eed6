/**
 * The Node server's text index built in a child process (src/node/text-index-process.ts):
 * over a reviews.json on disk, read by the child through the server's descriptor, it
 * answers every needle exactly as buildTextIndex over the same records' folded texts
 * does, and holds the same bytes. A child that fails leaves the first text query to
 * build the index in process. In process, a few hundred made-up reviews: about a second.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readlinkSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, it } from 'node:test';
import { foldedTexts, getReviewIndex } from '../../src/lib/reviews/index.ts';
import { buildTextIndex } from '../../src/lib/reviews/text-index.ts';
import { openDatasetFile } from '../../src/node/dataset-file.ts';
import { textIndexInChild } from '../../src/node/text-index-process.ts';

const WORDS = ['Roof', 'roofer', 'reroof', 'the', 'then', 'bathe', 'a', 'é', 'Été', 'ﬁx', 'straße', 'naïve', 'İstanbul', '🏠', 'x1', '42', 'e\u0301', 'ＲＯＯＦ', 'leak', 'leaks'];
const GAPS = [' ', ', ', '. ', '.', '\n', ' — ', '-', '; ', '!', '...', "'", ' "', '  '];

/** A small deterministic generator (the same texts every run). */
function* numbers(seed: number): Generator<number> {
  for (let state = seed; ; ) {
    state = (Math.imul(state, 1103515245) + 12345) >>> 0;
    yield state >>> 8;
  }
}
const random = numbers(2026);
const pick = <T>(list: readonly T[]): T => list[random.next().value! % list.length]!;
const sentence = (words: number) => Array.from({ length: words }, () => pick(WORDS) + pick(GAPS)).join('');

const dir = mkdtempSync(join(tmpdir(), 'text-index-process-'));
after(() => rmSync(dir, { recursive: true, force: true }));
const path = join(dir, 'reviews.json');
const reviews = Array.from({ length: 400 }, (_, i) => ({
  id: `r${i}`,
  date: '2026-01-01',
  updated: '2026-01-01T00:00:00Z',
  rating: 1 + (i % 5),
  title: i % 3 === 0 ? '' : sentence(3),
  text: sentence(random.next().value! % 20),
  technicians: [],
  services: [],
}));
writeFileSync(path, `${JSON.stringify({ updated: '2026-01-01T00:00:00Z', business: { technicians: [], services: [] }, aggregate_rating: {}, reviews })}\n`);

it('the index sent by the child process answers every needle as buildTextIndex does', async () => {
  const { records, descriptor } = openDatasetFile(path);
  const folded = foldedTexts(records);
  const expected = buildTextIndex(folded);
  const got = await textIndexInChild(descriptor, path);
  assert.equal(got.bytes, expected.bytes);
  const needles = ['e', 'ro', 'oof', 'the roof', 'f, then', ' — é', '...', '; ', 'straße 🏠', 'zzq', 'roofer. the'];
  for (const [i, haystack] of folded.entries()) if (haystack.length > 0) needles.push(haystack.slice(i % haystack.length, (i % haystack.length) + 1 + (i % 17)));
  for (const needle of needles) assert.deepEqual(got.match(needle), expected.match(needle), JSON.stringify(needle));
});

it('without a writable temporary folder, the index comes whole in the message', async () => {
  const { records, descriptor } = openDatasetFile(path);
  const before = process.env.TMPDIR;
  process.env.TMPDIR = join(dir, 'missing');
  try {
    const got = await textIndexInChild(descriptor, path);
    assert.equal(got.bytes, buildTextIndex(foldedTexts(records)).bytes);
    assert.deepEqual(got.match('the roof'), buildTextIndex(foldedTexts(records)).match('the roof'));
  } finally {
    if (before === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = before;
  }
});

it('a child that fails leaves the first text query to build the index in process', async () => {
  const { records } = openDatasetFile(path);
  const index = getReviewIndex(records);
  // A descriptor that is not open: the child is never started.
  await assert.rejects(index.startTextIndex(() => textIndexInChild(1_000_000, path)));
  const built = index.text();
  assert.ok(built.bytes > 0, 'built in process, not a scan');
  assert.deepEqual(built.match('the roof'), buildTextIndex(foldedTexts(records)).match('the roof'));
});

it('a child process that cannot start: the promise rejects and the scratch file is closed', async () => {
  const { descriptor } = openDatasetFile(path);
  // This process's descriptors open on a text index scratch file (unlinked: "…/data (deleted)").
  const openFiles = () =>
    readdirSync('/proc/self/fd').filter((fd) => {
      try {
        return readlinkSync(`/proc/self/fd/${fd}`).includes('/text-index-');
      } catch {
        return false; // the descriptor readdir itself used, closed since
      }
    }).length;
  const execPath = process.execPath;
  const before = openFiles();
  // fork() runs process.execPath: a missing one is an 'error' event with no 'exit'.
  process.execPath = join(dir, 'no-such-node');
  try {
    for (let i = 0; i < 3; i++) await assert.rejects(textIndexInChild(descriptor, path), /ENOENT/);
  } finally {
    process.execPath = execPath;
  }
  assert.equal(openFiles(), before, 'no scratch file left open');
});

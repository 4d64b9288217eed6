/**
 * Runs every test file (test/**\/*.test.ts), two at a time, longest first,
 * then the files that measure latency, one at a time with nothing else
 * running; one report and one summary for both (what `npm test` runs after
 * building the test sites).
 *
 * `node --test` sorts its files by name, so the longest files could start
 * last and leave one core idle at the end; a file with a latency bound could
 * share the two cores with a browser test and measure that instead of the server.
 *
 *   node scripts/run-tests.ts [FILE…]   (no FILE: every test file)
 */
import { globSync } from 'node:fs';
import { relative, resolve } from 'node:path';
import { Readable } from 'node:stream';
import { run } from 'node:test';
import { spec } from 'node:test/reporters';
import { COMPILE_CACHE_DIR, ROOT } from '../test/helpers/builds.ts';

/**
 * The longest files, longest first (seconds alone on two cores, measured
 * with `node --test` one file at a time). A file not listed starts after these,
 * in name order. Keep it to the files over about 20 s.
 */
const LONGEST_FIRST = [
  'test/widget/layouts.test.ts',
  'test/editors/cms.test.ts',
  'test/types.test.ts',
  'test/pages/quality-floor.test.ts',
];

/** Files whose assertions bound a latency: run after the others, alone, so that no other test's work is measured. */
const ALONE = ['test/reliability/search-flood.test.ts'];

const every = globSync('test/**/*.test.ts', { cwd: ROOT }).sort();
for (const file of [...LONGEST_FIRST, ...ALONE])
  if (!every.includes(file)) throw new Error(`${file} is named in scripts/run-tests.ts but is not a test file`);

const asked = process.argv.slice(2).map((file) => relative(ROOT, resolve(file)));
const chosen = asked.length > 0 ? asked : every;
const ordered = [
  ...LONGEST_FIRST.filter((file) => chosen.includes(file)),
  ...chosen.filter((file) => !LONGEST_FIRST.includes(file)),
];
const together = ordered.filter((file) => !ALONE.includes(file));
const alone = ordered.filter((file) => ALONE.includes(file));

const TIMEOUT_MS = 300_000;
process.env.NODE_COMPILE_CACHE ??= COMPILE_CACHE_DIR;
const phases = [
  { files: together, concurrency: 2 },
  { files: alone, concurrency: 1 },
].filter((phase) => phase.files.length > 0);

/** The root's count lines ("tests 12", "pass 12"…), printed once for both runs from their summed counts. */
const COUNT_LINE = /^(tests|suites|pass|fail|cancelled|skipped|todo|duration_ms) [\d.]+$/;

/** Both runs' events as one stream, their two summaries made one. */
async function* events() {
  const counts = { tests: 0, suites: 0, passed: 0, failed: 0, cancelled: 0, skipped: 0, todo: 0, topLevel: 0 };
  const started = performance.now();
  let success = true;
  for (const { files, concurrency } of phases) {
    const stream = run({ files: files.map((file) => resolve(ROOT, file)), concurrency, timeout: TIMEOUT_MS });
    for await (const event of stream) {
      if (event.type === 'test:summary' && event.data.file === undefined) {
        for (const key of Object.keys(counts) as (keyof typeof counts)[]) counts[key] += event.data.counts[key];
        success &&= event.data.success;
        continue;
      }
      if (event.type === 'test:diagnostic' && event.data.file === undefined && COUNT_LINE.test(event.data.message))
        continue;
      yield event;
    }
  }
  process.exitCode = success ? 0 : 1;
  const duration_ms = performance.now() - started;
  const lines = {
    tests: counts.tests,
    suites: counts.suites,
    pass: counts.passed,
    fail: counts.failed,
    cancelled: counts.cancelled,
    skipped: counts.skipped,
    todo: counts.todo,
    duration_ms,
  };
  for (const [name, value] of Object.entries(lines))
    yield { type: 'test:diagnostic', data: { nesting: 0, message: `${name} ${value}` } };
  yield { type: 'test:summary', data: { counts, duration_ms, success } };
}

Readable.from(events()).compose(spec).pipe(process.stdout);

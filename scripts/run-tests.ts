/**
 * Runs every test file (test/**\/*.test.ts) in three rounds, with one report
 * and one summary (what `npm test` runs after building the test sites):
 *
 * 1. the files that work (browsers, builds, type checks, servers under
 *    load), two at a time on two cores, longest first;
 * 2. the files that mostly wait (WebSub deliveries and retries, store locks,
 *    timeouts), four at a time: two would leave the cores idle;
 * 3. the files that bound a latency, alone: a file sharing the cores with
 *    another would measure that file's work instead of the server.
 *
 * `node --test` sorts its files by name and runs them all at one concurrency:
 * the longest could start last, leaving a core idle at the end.
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
 * The longest files, longest first (measured one at a time on two cores);
 * each round starts with those it has, then the others in name order.
 */
const LONGEST_FIRST = [
  'test/pages/quality-floor.test.ts',
  'test/widget/layouts.test.ts',
  'test/insights/trends-page.test.ts',
  'test/editors/cms.test.ts',
  'test/editors/editor-loop.test.ts',
  'test/types.test.ts',
  'test/import/end-to-end.test.ts',
  'test/widget/embed.test.ts',
  'test/widget/guest.test.ts',
  'test/editors/dev-preview.test.ts',
  'test/import-routine/import-and-commit.test.ts',
  'test/editors/github-form.test.ts',
  'test/pages/homeowner.test.ts',
  'test/hosts/netlify-cli.test.ts',
  'test/editors/admin-help.test.ts',
  'test/widget/bundle-and-page.test.ts',
  'test/import/import.test.ts',
  'test/mcp/conformance.test.ts',
  'test/websub/moderation-topic.test.ts',
  'test/websub/hub.test.ts',
  'test/store/store.test.ts',
];

/** Folders of files that mostly wait (round 2). */
const WAITING = ['test/websub/', 'test/reliability/', 'test/store/'];

/** Files whose assertions bound a latency (round 3). */
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
const alone = ordered.filter((file) => ALONE.includes(file));
const waiting = ordered.filter((file) => !alone.includes(file) && WAITING.some((folder) => file.startsWith(folder)));
const working = ordered.filter((file) => !alone.includes(file) && !waiting.includes(file));

const TIMEOUT_MS = 300_000;
/**
 * Longest a round may go without a test file finishing. A file whose test failed before it
 * closed a connection (Redis, a server) keeps its process, and node:test waits for it without
 * end: its per-test timeout does not end the file. The runner's `forceExit` would, but in
 * Node 24 it also ends some files before their later suites have run, silently.
 */
const STALL_MS = 600_000;
process.env.NODE_COMPILE_CACHE ??= COMPILE_CACHE_DIR;
const rounds = [
  { files: working, concurrency: 2 },
  { files: waiting, concurrency: 4 },
  { files: alone, concurrency: 1 },
].filter((round) => round.files.length > 0);

/** The root's count lines ("tests 12", "pass 12"…), printed once for all rounds from their summed counts. */
const COUNT_LINE = /^(tests|suites|pass|fail|cancelled|skipped|todo|duration_ms) [\d.]+$/;

/** The rounds' events as one stream, their summaries made one. */
async function* events() {
  const counts = { tests: 0, suites: 0, passed: 0, failed: 0, cancelled: 0, skipped: 0, todo: 0, topLevel: 0 };
  const started = performance.now();
  let success = true;
  for (const [index, { files, concurrency }] of rounds.entries()) {
    const roundStarted = performance.now();
    const stream = run({
      files: files.map((file) => resolve(ROOT, file)),
      concurrency,
      timeout: TIMEOUT_MS,
      cwd: ROOT,
    });
    const unfinished = new Set(files.map((file) => resolve(ROOT, file)));
    let lastFinished = performance.now();
    const watchdog = setInterval(() => {
      if (performance.now() - lastFinished < STALL_MS) return;
      const names = [...unfinished].map((file) => relative(ROOT, file)).join(', ');
      process.stderr.write(
        `\nno test file reported in ${STALL_MS / 60_000} minutes; not yet reported (the first is running): ${names}\n`,
      );
      process.exit(1);
    }, 10_000);
    watchdog.unref();
    for await (const event of stream) {
      if (event.type === 'test:summary' && event.data.file !== undefined) {
        unfinished.delete(event.data.file);
        lastFinished = performance.now();
      }
      if (event.type === 'test:summary' && event.data.file === undefined) {
        for (const key of Object.keys(counts) as (keyof typeof counts)[]) counts[key] += event.data.counts[key];
        success &&= event.data.success;
        continue;
      }
      if (event.type === 'test:diagnostic' && event.data.file === undefined && COUNT_LINE.test(event.data.message))
        continue;
      yield event;
    }
    clearInterval(watchdog);
    const seconds = Math.round((performance.now() - roundStarted) / 1000);
    const message = `round ${index + 1}: ${files.length} files, ${concurrency} at a time, in ${seconds} s`;
    yield { type: 'test:diagnostic', data: { nesting: 0, message } };
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

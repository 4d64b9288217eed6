/**
 * Production's server runs with V8's young generation held at one size
 * (package.json's serve script; docs/reliability.md, "Memory under load"):
 * left to itself, V8 doubles it under load from 64 to 128 MiB at a moment of
 * its choosing, one step of 50–60 MiB of RSS, and its memory reducer later
 * shrinks it to 1 MiB, which multiplies the time spent collecting. The size
 * must be in the script, must hold under allocation and after a reducing
 * collection, and the test servers must run with exactly those flags. The
 * memory reducer itself is off: its collections, about every 100 s under
 * load, left each answer costing more (docs/performance.md, REST API).
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { NODE, ROOT } from '../helpers/builds.ts';
import { productionNodeFlags } from '../helpers/serve-command.ts';
import { startServer } from '../helpers/server.ts';

const flags = productionNodeFlags(ROOT);
const cap = Number(flags.map((flag) => /^--max-semi-space-size=(\d+)$/.exec(flag)?.[1]).find(Boolean));

test("package.json's serve script caps the young generation, and V8 keeps to the cap", () => {
  assert.ok(cap > 0, `no --max-semi-space-size in the serve script's flags (${flags.join(' ') || 'none'})`);
  // Short-lived garbage, as requests make it: uncapped, V8 grows its new space to 128 MiB within this loop.
  const script = `const v8 = require('node:v8'); let keep = [], max = 0;
for (let i = 0; i < 3e6; i++) {
  keep.push({ i, s: 'x' + i }); if (keep.length > 200000) keep = [];
  if (i % 50000 === 0) max = Math.max(max, v8.getHeapSpaceStatistics().find((s) => s.space_name === 'new_space').space_size);
}
console.log(max);`;
  const result = spawnSync(NODE, [...flags, '-e', script], { encoding: 'utf8' });
  assert.equal(result.status, 0, result.stderr);
  // The new space is two semi-spaces, plus a few pages V8 counts with it (35 MiB seen under a 32 MiB
  // cap): the bound is half-way to the next doubling, far below the 128 MiB reached without the cap.
  const reached = Number(result.stdout.trim().split('\n').at(-1));
  assert.ok(
    reached > 0 && reached < 3 * cap * 2 ** 20,
    `new space reached ${reached / 2 ** 20} MiB (cap ${2 * cap} MiB); stdout: ${result.stdout.slice(0, 300)}`,
  );
});

test('the young generation is also held at that size: a collection that reduces memory does not shrink it', () => {
  const floor = Number(flags.map((flag) => /^--min-semi-space-size=(\d+)$/.exec(flag)?.[1]).find(Boolean));
  assert.equal(floor, cap, `the serve script's --min-semi-space-size is the cap (${flags.join(' ')})`);
  // V8's memory reducer runs such a collection on its own schedule (about 100 s into a server's load):
  // left to itself it shrinks the new space to 1 MiB, and every request's garbage is then collected
  // four times as often (GC went from about 1 % to 10 % of the server's time).
  const script = `const v8 = require('node:v8'); let keep = [];
const newSpace = () => v8.getHeapSpaceStatistics().find((s) => s.space_name === 'new_space').space_size;
for (let i = 0; i < 3e6; i++) { keep.push({ i, s: 'x' + i }); if (keep.length > 20000) keep = []; }
gc({ type: 'major', flavor: 'last-resort' });
console.log(newSpace());`;
  const result = spawnSync(NODE, [...flags, '--expose-gc', '-e', script], { encoding: 'utf8' });
  assert.equal(result.status, 0, result.stderr);
  const after = Number(result.stdout.trim());
  assert.ok(after >= cap * 2 ** 20, `new space after a memory-reducing collection: ${after / 2 ** 20} MiB`);
});

test("the serve script's flags keep V8's memory reducer from starting after a full collection", () => {
  // Enough old garbage for a full collection, after which a running reducer schedules its own.
  const script = `let keep = [];
for (let i = 0; i < 2e6; i++) { keep.push({ i, s: 'x' + i }); if (keep.length > 500000) keep = []; }
keep = null;
setTimeout(() => {}, 1000); // alive a moment after the collection, for the reducer's trace`;
  const reducerLines = (nodeFlags: string[]) => {
    // V8 holds the reducer back for the first 8 s of a process; the test does not wait for that.
    const trace = ['--gc-memory-reducer-start-delay-ms=0', '--trace-memory-reducer'];
    const result = spawnSync(NODE, [...nodeFlags, ...trace, '-e', script], { encoding: 'utf8' });
    assert.equal(result.status, 0, result.stderr);
    return `${result.stdout}${result.stderr}`.split('\n').filter((line) => line.includes('Memory reducer'));
  };
  // Without the flag the same script starts it: the trace shows it, so its absence below means something.
  const withReducer = reducerLines(flags.filter((flag) => flag !== '--no-memory-reducer'));
  assert.ok(withReducer.length > 0, 'the reducer did not start even without --no-memory-reducer');
  assert.deepEqual(reducerLines(flags), [], `with the serve script's flags (${flags.join(' ')})`);
});

test('a test server runs with the serve script’s Node flags', async (t) => {
  const server = await startServer('small');
  t.after(() => server.stop());
  const commandLine = readFileSync(`/proc/${server.process.pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
  assert.deepEqual(commandLine.slice(1, 1 + flags.length), flags);
  assert.match(commandLine[1 + flags.length] ?? '', /src\/server\.ts$/);
});

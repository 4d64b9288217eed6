/**
 * The holder a claim names (src/lib/store/claim-holder.ts) is the process's,
 * whatever copy of the module took it: two bundles of a function loaded into
 * one process must not take each other's live claims for a dead process's.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Worker } from 'node:worker_threads';
import * as first from '../../src/lib/store/claim-holder.ts';

test('two copies of the module in one process name one holder, and neither counts the other as exited', async () => {
  // A query string makes Node load a second, separate instance of the module, as a second bundle would.
  const second = (await import(`../../src/lib/store/claim-holder.ts?copy=${Date.now()}`)) as typeof first;
  assert.notEqual(second, first);
  assert.equal(second.THIS_HOLDER, first.THIS_HOLDER);
  assert.equal(first.holderIsGone(second.THIS_HOLDER), false);
  assert.equal(second.holderIsGone(first.THIS_HOLDER), false);
});

test('a holder with this pid and another start time is an earlier, exited process', () => {
  const ours = JSON.parse(first.THIS_HOLDER) as { machine: string; start: string };
  const earlier = JSON.stringify({
    machine: ours.machine,
    pid: process.pid,
    start: String(Number(ours.start) - 1),
    id: 'an-earlier-process',
  });
  assert.equal(first.holderIsGone(earlier), true);
});

test('a worker thread of this process (another global scope, same pid) is alive, not an earlier process', async () => {
  // The Netlify CLI runs function invocations in worker threads of one process: two concurrent
  // deploy functions must not take each other's publish claims.
  const url = new URL('../../src/lib/store/claim-holder.ts', import.meta.url).href;
  const worker = new Worker(
    `import(${JSON.stringify(url)}).then((m) => require('node:worker_threads').parentPort.postMessage(m.THIS_HOLDER))`,
    { eval: true },
  );
  const holder = await new Promise<string>((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', reject);
  });
  await worker.terminate();
  assert.notEqual(holder, first.THIS_HOLDER);
  assert.equal(first.holderIsGone(holder), false);
});

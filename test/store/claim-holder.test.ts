/**
 * The holder a claim names (src/lib/store/claim-holder.ts) is the process's,
 * whatever copy of the module took it: two bundles of a function loaded into
 * one process must not take each other's live claims for a dead process's.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import * as first from '../../src/lib/store/claim-holder.ts';

test('two copies of the module in one process name one holder, and neither counts the other as exited', async () => {
  // A query string makes Node load a second, separate instance of the module, as a second bundle would.
  const second = (await import(`../../src/lib/store/claim-holder.ts?copy=${Date.now()}`)) as typeof first;
  assert.notEqual(second, first);
  assert.equal(second.THIS_HOLDER, first.THIS_HOLDER);
  assert.equal(first.holderIsGone(second.THIS_HOLDER), false);
  assert.equal(second.holderIsGone(first.THIS_HOLDER), false);
});

test('a holder with this pid and another id is an earlier, exited process', () => {
  const earlier = first.holderOf(process.pid, 'an-earlier-process');
  assert.equal(first.holderIsGone(earlier), true);
});

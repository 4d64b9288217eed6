/**
 * The Node target's counterpart of waitUntil: on SIGTERM the server stops
 * taking requests but finishes the work it left running after its answers
 * (here a verification of intent the subscriber answers slowly) before exiting.
 */
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { after, before, it } from 'node:test';
import { makeTestCerts, type TestCerts } from '../helpers/certs.ts';
import { startServer } from '../helpers/server.ts';
import { startSubscriber, type TestSubscriber } from '../helpers/subscriber.ts';
import { hubEnv, isSubscribed, openStore, subscribe, tempDir, TOPICS } from '../websub/helpers.ts';

let certs: TestCerts;
let sub: TestSubscriber;
let storeDir: string;
before(async () => {
  certs = makeTestCerts();
  sub = await startSubscriber(certs);
  storeDir = tempDir('node-shutdown-');
});
after(async () => {
  await sub?.close();
  certs?.remove();
  rmSync(storeDir, { recursive: true, force: true });
});

it('SIGTERM right after a 202: the verification still completes before the process exits', async () => {
  const server = await startServer('small', hubEnv(certs, storeDir));
  const callback = sub.url('/slow-at-shutdown');
  sub.set('/slow-at-shutdown', { verify: 'slow' });
  assert.equal((await subscribe(server.url, callback, TOPICS.atom.url)).status, 202);
  const exited = new Promise<number | null>((resolve) => server.process.once('exit', (code) => resolve(code)));
  server.process.kill('SIGTERM');
  assert.equal(await exited, 0);
  assert.equal(sub.verifications('/slow-at-shutdown', 'subscribe').length, 1);
  const store = openStore({ STORE_DIR: storeDir });
  try {
    assert.equal(await isSubscribed(store, 'atom', callback), true, 'the subscription was stored before exit');
  } finally {
    await store.close();
  }
});

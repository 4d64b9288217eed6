/**
 * State behind the file store survives a restart: subscriptions, and a due
 * retry left by the previous process (the scheduler picks it up on start).
 * Leases expire: an expired subscription gets nothing and is purged.
 */
import assert from 'node:assert/strict';
import { readdirSync, rmSync } from 'node:fs';
import { after, before, it } from 'node:test';
import { makeTestCerts, type TestCerts } from '../helpers/certs.ts';
import { startServer, type RunningServer } from '../helpers/server.ts';
import { startSubscriber, type TestSubscriber } from '../helpers/subscriber.ts';
import type { Store } from '../../src/lib/store/index.ts';
import { forgetDistributedContent, hubEnv, isSubscribed, openStore, publish, sleep, subscribe, tempDir, TOPICS, until } from './helpers.ts';

let certs: TestCerts;
let sub: TestSubscriber;
let server: RunningServer | undefined;
let store: Store;
let storeDir: string;
let env: Record<string, string>;

before(async () => {
  certs = makeTestCerts();
  sub = await startSubscriber(certs);
  storeDir = tempDir('websub-restart-');
  // Retries 2 s apart, so one is still pending when the server stops; leases as short as 1 s.
  env = hubEnv(certs, storeDir, { WEBSUB_RETRY_DELAYS: '2,2', WEBSUB_LEASE_MIN_SECONDS: '1', WEBSUB_LEASE_DEFAULT_SECONDS: '60', WEBSUB_LEASE_MAX_SECONDS: '120' });
  store = openStore({ STORE_DIR: storeDir });
});
after(async () => {
  await server?.stop();
  await sub?.close();
  await store?.close();
  certs?.remove();
  rmSync(storeDir, { recursive: true, force: true });
});

it('subscriptions and a pending retry survive a restart; the retry is sent when due', async () => {
  server = await startServer('small', env);
  const steady = sub.url('/steady');
  const flaky = sub.url('/flaky');
  for (const callback of [steady, flaky]) {
    assert.equal((await subscribe(server.url, callback, TOPICS.reviews.url)).status, 202);
    await until(() => isSubscribed(store, 'reviews', callback), 'active');
  }
  sub.set('/flaky', { notify: 'fail' });
  await forgetDistributedContent(store);
  await publish(server.url, TOPICS.reviews.url);
  await sub.waitFor(() => sub.notifications('/flaky').length === 1 && sub.notifications('/steady').length === 1, 5000, 'first attempts');
  await sleep(200);
  await server.stop();
  server = undefined;
  sub.set('/flaky', { notify: 'ok' });
  const stoppedAt = Date.now();

  // A crash-safe folder: every value is a whole JSON file, no temporary files left behind.
  const files = readdirSync(storeDir, { recursive: true }) as string[];
  assert.ok(!files.some((file) => file.endsWith('.tmp')), files.join(', '));

  server = await startServer('small', env);
  await sub.waitFor(() => sub.notifications('/flaky').length === 2, 6000, 'the retry after the restart');
  assert.equal(sub.notifications('/steady').length, 1, 'the delivered one is not sent again');
  const retriedAt = sub.notifications('/flaky')[1]!.at;
  assert.ok(retriedAt - sub.notifications('/flaky')[0]!.at >= 1900, 'not before it was due');
  assert.ok(retriedAt - stoppedAt < 5000);
  // Both subscriptions are still there for the next change; the failure count was reset by the success.
  assert.equal(await isSubscribed(store, 'reviews', steady), true);
  assert.equal(((await store.keys('websub:sub:reviews:')).length), 2);
  await forgetDistributedContent(store);
  await publish(server.url, TOPICS.reviews.url);
  await sub.waitFor(() => sub.notifications('/steady').length === 2 && sub.notifications('/flaky').length === 3, 5000, 'the next change');
  // No hash recorded before the restart was lost: a restart on the same build notifies nobody.
});

it('a lease runs out: the subscription gets nothing and is purged', async () => {
  assert.ok(server);
  const callback = sub.url('/short');
  assert.equal((await subscribe(server.url, callback, TOPICS.atom.url, { 'hub.lease_seconds': '1' })).status, 202);
  await until(() => isSubscribed(store, 'atom', callback), 'active');
  assert.equal(sub.verifications('/short')[0]!.query.get('hub.lease_seconds'), '1');
  await sleep(1300);
  assert.equal(await isSubscribed(store, 'atom', callback), false);
  await forgetDistributedContent(store);
  await publish(server.url, TOPICS.atom.url);
  await sleep(600);
  assert.equal(sub.notifications('/short').length, 0);
  // The scheduler's sweep removes the expired record from the folder.
  const files = () => (readdirSync(`${storeDir}/websub/sub`, { recursive: true }) as string[]).filter((f) => f.startsWith('atom/'));
  await until(() => files().length === 0, 'purged', 3000);
});

it('a restart on the same build notifies nobody', async () => {
  // Settle every topic's recorded hash on what this build serves (the tests above made them stale).
  for (const topic of Object.values(TOPICS)) await publish(server!.url, topic.url);
  await sleep(600);
  const before = sub.requests().length;
  await server!.stop();
  server = await startServer('small', env);
  await sleep(800);
  assert.equal(sub.requests().length, before);
});

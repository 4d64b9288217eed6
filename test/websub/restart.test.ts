/**
 * State behind the file store survives a restart: subscriptions, and a due
 * retry left by the previous process (the scheduler picks it up on start).
 * Leases expire: an expired subscription gets nothing and is no longer listed.
 */
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { after, before, it } from 'node:test';
import { startServer, type RunningServer } from '../helpers/server.ts';
import type { TestSubscriber } from '../helpers/subscriber.ts';
import type { Store } from '../../src/lib/store/index.ts';
import { createHash } from 'node:crypto';
import { callbackKey } from '../../src/lib/websub/subscriptions.ts';
import {
  hubFixture,
  isSubscribed,
  logged,
  MODERATION_TOPIC,
  publish,
  publishChange,
  settled,
  STARTUP_DONE,
  subscribe,
  TOPICS,
  until,
} from './helpers.ts';

// No server of the fixture's: the tests start and stop their own on `env`.
const hub = hubFixture({
  storeDir: 'websub-restart-',
  // Retries 2 s apart, so one is still pending when the server stops; leases as short as 1 s.
  env: {
    WEBSUB_RETRY_DELAYS: '2,2',
    WEBSUB_LEASE_MIN_SECONDS: '1',
    WEBSUB_LEASE_DEFAULT_SECONDS: '60',
    WEBSUB_LEASE_MAX_SECONDS: '120',
  },
});
let sub: TestSubscriber;
let server: RunningServer | undefined;
let store: Store;
let storeDir: string;
let env: Record<string, string>;
before(async () => ({ sub, store, storeDir, env } = await hub.open()));
after(async () => {
  await server?.stop();
  await hub.close();
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
  await publishChange(store, server.url, TOPICS.reviews);
  await sub.waitFor(
    () => sub.notifications('/flaky').length === 1 && sub.notifications('/steady').length === 1,
    5000,
    'first attempts',
  );
  // The failure is handled once the retry job (a new one, due 2 s after the attempt) is in the store.
  const firstAttempt = sub.notifications('/flaky')[0]!.at;
  const retryJob = async () => store.get<{ due_at: number }>(`websub:job:reviews:${callbackKey(flaky)}`);
  await until(async () => ((await retryJob())?.due_at ?? 0) >= firstAttempt + 1000, 'the retry job');
  const dueAt = (await retryJob())!.due_at;
  await settled(store, 'reviews', steady);
  await server.stop();
  server = undefined;
  sub.set('/flaky', { notify: 'ok' });

  // A crash-safe folder: every value is a whole JSON file, no temporary files left behind.
  const files = readdirSync(storeDir, { recursive: true }) as string[];
  assert.ok(!files.some((file) => file.endsWith('.tmp')), files.join(', '));

  server = await startServer('small', env);
  const readyAt = Date.now();
  await sub.waitFor(() => sub.notifications('/flaky').length === 2, 6000, 'the retry after the restart');
  await settled(store, 'reviews', flaky);
  assert.equal(sub.notifications('/steady').length, 1, 'the delivered one is not sent again');
  const retriedAt = sub.notifications('/flaky')[1]!.at;
  assert.ok(retriedAt >= dueAt, 'not before it was due');
  // Picked up by the scheduler's first sweeps, counted from when it was both due and the server ready (not from the stop: start-up time varies).
  assert.ok(
    retriedAt - Math.max(dueAt, readyAt) < 3000,
    `retried ${retriedAt - Math.max(dueAt, readyAt)} ms after it could be`,
  );
  // Both subscriptions are still there for the next change; the failure count was reset by the success.
  assert.equal(await isSubscribed(store, 'reviews', steady), true);
  assert.equal((await store.keys('websub:sub:reviews:')).length, 2);
  await publishChange(store, server.url, TOPICS.reviews);
  await sub.waitFor(
    () => sub.notifications('/steady').length === 2 && sub.notifications('/flaky').length === 3,
    5000,
    'the next change',
  );
  // The hash recorded is that of the content served, so a restart on this build has nothing to announce (the last test).
  const served = createHash('sha256')
    .update(Buffer.from(await (await fetch(`${server.url}/reviews.json`)).arrayBuffer()))
    .digest('hex');
  assert.equal((await store.get<{ hash: string }>('websub:hash:reviews'))?.hash, served);
});

it('a lease runs out: the subscription gets nothing and is no longer listed', async () => {
  assert.ok(server);
  const callback = sub.url('/short');
  assert.equal((await subscribe(server.url, callback, TOPICS.atom.url, { 'hub.lease_seconds': '1' })).status, 202);
  await until(() => isSubscribed(store, 'atom', callback), 'active');
  assert.equal(sub.verifications('/short')[0]!.query.get('hub.lease_seconds'), '1');
  await until(async () => !(await isSubscribed(store, 'atom', callback)), 'the lease to run out', 5000);
  await publishChange(store, server.url, TOPICS.atom);
  // The publish is handled (its jobs were written before the hash) and none is for the expired subscription.
  await settled(store, 'atom', callback);
  assert.equal(sub.notifications('/short').length, 0);
  // Expired records are left out of every listing; the store's own sweep removes their files later (test/store).
  assert.deepEqual(await store.keys('websub:sub:atom:'), []);
});

it('a restart on the same build notifies nobody', async () => {
  // Settle every topic's recorded hash on what this build serves (the tests above made them stale).
  for (const topic of [...Object.values(TOPICS), MODERATION_TOPIC]) {
    const served = createHash('sha256')
      .update(Buffer.from(await (await fetch(`${server!.url}${topic.path}`)).arrayBuffer()))
      .digest('hex');
    await publish(server!.url, topic.url);
    await until(
      async () => (await store.get<{ hash: string }>(`websub:hash:${topic.id}`))?.hash === served,
      `${topic.id} settled`,
    );
  }
  await until(async () => (await store.keys('websub:job:')).length === 0, 'no delivery pending');
  const before = sub.requests().length;
  await server!.stop();
  server = await startServer('small', env);
  // Logged once the start-up publish and all its deliveries are done.
  await logged(server, STARTUP_DONE, 'the start-up publish');
  assert.match(server.output(), /start-up publish done \(unchanged, unchanged, unchanged, unchanged\)/);
  assert.equal(sub.requests().length, before);
});

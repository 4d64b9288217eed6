/**
 * Two server instances sharing one Redis (REDIS_URL): a subscription made on
 * one is served by the other, and a change published on both at once — or
 * found by both at start-up after a deploy — is delivered once per subscriber.
 */
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { after, before, it } from 'node:test';
import { makeTestCerts, type TestCerts } from '../helpers/certs.ts';
import { startServer, type RunningServer } from '../helpers/server.ts';
import { startSubscriber, type TestSubscriber } from '../helpers/subscriber.ts';
import type { Store } from '../../src/lib/store/index.ts';
import {
  ALL_TOPICS,
  forgetDistributedContent,
  freePort,
  hubEnv,
  isSubscribed,
  logged,
  openStore,
  publish,
  STARTUP_DONE,
  subscribe,
  TOPICS,
  until,
} from './helpers.ts';

let certs: TestCerts;
let sub: TestSubscriber;
let redis: ChildProcess;
let store: Store;
let env: Record<string, string>;
const servers: RunningServer[] = [];

before(async () => {
  certs = makeTestCerts();
  sub = await startSubscriber(certs);
  const port = await freePort();
  redis = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], {
    stdio: 'ignore',
  });
  const redisUrl = `redis://127.0.0.1:${port}`;
  store = openStore({ REDIS_URL: redisUrl });
  await until(
    async () => {
      try {
        await store.get('ping');
        return true;
      } catch {
        return false;
      }
    },
    'redis',
    5000,
  );
  env = hubEnv(certs, '/nonexistent-store-dir', { REDIS_URL: redisUrl });
});
after(async () => {
  for (const server of servers) await server.stop();
  await store?.close();
  redis?.kill('SIGTERM');
  await sub?.close();
  certs?.remove();
});

it('a subscription made on one instance; a change published on both at once: one delivery per subscriber', async () => {
  const [a, b] = await Promise.all([startServer('small', env), startServer('small', env)]);
  servers.push(a!, b!);
  const callbacks = ['/r1', '/r2', '/r3'].map((path) => sub.url(path));
  for (const callback of callbacks) {
    assert.equal((await subscribe(a!.url, callback, TOPICS.atom.url)).status, 202);
    await until(() => isSubscribed(store, 'atom', callback), 'active');
  }
  const stale = await forgetDistributedContent(store);
  const answers = await Promise.all([
    publish(a!.url, TOPICS.atom.url),
    publish(b!.url, TOPICS.atom.url),
    publish(b!.url, TOPICS.atom.url),
  ]);
  assert.deepEqual(
    answers.map((r) => r.status),
    [202, 202, 202],
  );
  await sub.waitFor(
    () => ['/r1', '/r2', '/r3'].every((path) => sub.notifications(path).length >= 1),
    5000,
    'deliveries',
  );
  // Handled: the new hash is recorded (after the outbox was written) and no delivery is pending.
  await until(async () => (await store.get<{ hash: string }>('websub:hash:atom'))?.hash !== stale, 'the publish');
  await until(async () => (await store.keys('websub:job:')).length === 0, 'no delivery pending');
  for (const path of ['/r1', '/r2', '/r3']) assert.equal(sub.notifications(path).length, 1, `${path} got exactly one`);
});

it('both instances restarted on a new build find the change at start: still one delivery per subscriber and topic', async () => {
  for (const topic of ALL_TOPICS) await publish(servers[0]!.url, topic.url); // settle the recorded hashes on this build
  await until(
    async () =>
      (await Promise.all(ALL_TOPICS.map((topic) => store.get<{ hash: string }>(`websub:hash:${topic.id}`)))).every(
        (record) => record && !record.hash.startsWith('stale-'),
      ),
    'settled hashes',
  );
  await until(async () => (await store.keys('websub:job:')).length === 0, 'no delivery pending');
  for (const callback of ['/j1', '/j2'].map((path) => sub.url(path))) {
    assert.equal((await subscribe(servers[1]!.url, callback, TOPICS.jsonFeed.url)).status, 202);
    await until(() => isSubscribed(store, 'json-feed', callback), 'active');
  }
  sub.clear();
  await Promise.all(servers.splice(0).map((server) => server.stop()));
  const started = await Promise.all([startServer('content', env), startServer('content', env)]);
  servers.push(...started);
  const paths = ['/r1', '/r2', '/r3', '/j1', '/j2'];
  await sub.waitFor(
    () => paths.every((path) => sub.notifications(path).length >= 1),
    6000,
    'deliveries after the deploy',
  );
  // Each instance logs this once its start-up deliveries are all done.
  for (const server of started) await logged(server, STARTUP_DONE, 'the start-up publish');
  for (const path of paths) assert.equal(sub.notifications(path).length, 1, `${path} got exactly one`);
  assert.equal(sub.notifications('/r1')[0]!.headers['content-type'], 'application/atom+xml; charset=utf-8');
  assert.equal(sub.notifications('/j1')[0]!.headers['content-type'], 'application/feed+json; charset=utf-8');
});

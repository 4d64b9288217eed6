/**
 * Abuse limits through the real server: fixed-window rate limits per client
 * address for subscribe and publish (429 + Retry-After; counted in memory on
 * one Node process, in Redis across instances: test/reliability/rate-limits.test.ts),
 * and the cap on subscriptions per topic (the next subscriber is told
 * hub.mode=denied, nothing is stored).
 */
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import type { RunningServer } from '../helpers/server.ts';
import type { TestSubscriber } from '../helpers/subscriber.ts';
import type { Store } from '../../src/lib/store/index.ts';
import { hubFixture, isSubscribed, publish, subscribe, TOPICS, until } from './helpers.ts';

const hub = hubFixture({
  build: 'small',
  storeDir: 'websub-limits-',
  env: { WEBSUB_SUBSCRIBE_RATE_LIMIT: '4', WEBSUB_PUBLISH_RATE_LIMIT: '2', WEBSUB_RATE_WINDOW_SECONDS: '3600', WEBSUB_MAX_SUBSCRIPTIONS_PER_TOPIC: '1' },
});
let sub: TestSubscriber, server: RunningServer, store: Store;
before(async () => ({ sub, server, store } = await hub.open()));
after(() => hub.close());

it('a topic at its subscription cap: the next subscriber gets 202 then hub.mode=denied, and nothing is stored', async () => {
  const first = sub.url('/first');
  assert.equal((await subscribe(server.url, first, TOPICS.atom.url)).status, 202);
  await until(() => isSubscribed(store, 'atom', first), 'first subscription');
  const second = sub.url('/second');
  assert.equal((await subscribe(server.url, second, TOPICS.atom.url)).status, 202);
  await sub.waitFor(() => sub.verifications('/second', 'denied').length === 1, 5000, 'denied notice');
  assert.match(sub.verifications('/second', 'denied')[0]!.query.get('hub.reason') ?? '', /limit/);
  assert.equal(sub.verifications('/second', 'subscribe').length, 0, 'no challenge for a subscription that cannot be kept');
  assert.equal(await isSubscribed(store, 'atom', second), false);
  // Another topic has room; re-subscribing the one already there is not "a new one".
  assert.equal((await subscribe(server.url, first, TOPICS.atom.url)).status, 202);
});

it('subscribe requests past the limit are 429 with Retry-After', async () => {
  // Three requests so far; the 4th is allowed, the 5th is not.
  assert.equal((await subscribe(server.url, sub.url('/x'), TOPICS.reviews.url)).status, 202);
  const limited = await subscribe(server.url, sub.url('/y'), TOPICS.reviews.url);
  assert.equal(limited.status, 429);
  const retryAfter = Number(limited.headers.get('retry-after'));
  assert.ok(Number.isInteger(retryAfter) && retryAfter >= 1 && retryAfter <= 3600, `Retry-After ${retryAfter}`);
  assert.equal((await limited.json()).error, 'rate_limited');
  assert.deepEqual(await store.keys('websub:rate'), [], 'no counter in the store');
  // A rejected (limited) request never reaches the callback: it is answered before anything is queued.
  assert.equal(sub.requests('/y').length, 0);
});

it('publish requests past the limit are 429, counted apart from subscribe', async () => {
  assert.equal((await publish(server.url, TOPICS.atom.url)).status, 202);
  assert.equal((await publish(server.url, TOPICS.atom.url)).status, 202);
  const limited = await publish(server.url, TOPICS.atom.url);
  assert.equal(limited.status, 429);
  assert.ok(Number(limited.headers.get('retry-after')) >= 1);
});

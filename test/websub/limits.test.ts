/**
 * Abuse limits through the real server: fixed-window rate limits per client
 * address for subscribe and publish (429 + Retry-After; counted in memory on
 * one Node process, in Redis across instances: test/reliability/rate-limits.test.ts),
 * the cap on subscriptions per topic (the next subscriber is told
 * hub.mode=denied, nothing is stored), and the caps per callback host and per
 * callback network (IPv4 /24, IPv6 /48): 403 before any challenge, or
 * hub.mode=denied when two verifications finish together.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { RunningServer } from '../helpers/server.ts';
import { startSubscriber, type TestSubscriber } from '../helpers/subscriber.ts';
import type { Store } from '../../src/lib/store/index.ts';
import type { Subscription } from '../../src/lib/websub/subscriptions.ts';
import { startRedisOn, type LocalRedis } from '../reliability/helpers.ts';
import {
  freePort,
  hubFixture,
  isSubscribed,
  openStore,
  publish,
  sleep,
  subscribe,
  subscriptionKey,
  TOPICS,
  until,
} from './helpers.ts';

const hub = hubFixture({
  build: 'small',
  storeDir: 'websub-limits-',
  env: {
    WEBSUB_SUBSCRIBE_RATE_LIMIT: '4',
    WEBSUB_PUBLISH_RATE_LIMIT: '2',
    WEBSUB_RATE_WINDOW_SECONDS: '3600',
    WEBSUB_MAX_SUBSCRIPTIONS_PER_TOPIC: '1',
  },
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
  assert.equal(
    sub.verifications('/second', 'subscribe').length,
    0,
    'no challenge for a subscription that cannot be kept',
  );
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

for (const kind of ['folder', 'redis'] as const)
  describe(`caps per callback host and per callback network (${kind} store)`, () => {
    const caps = {
      WEBSUB_MAX_SUBSCRIPTIONS_PER_CALLBACK_HOST: '2',
      WEBSUB_MAX_SUBSCRIPTIONS_PER_CALLBACK_NETWORK: '3',
    };
    let redis: LocalRedis | undefined;
    const capped = hubFixture({
      build: 'small',
      storeDir: 'websub-caps-',
      env:
        kind === 'folder'
          ? caps
          : async () => {
              redis = await startRedisOn(await freePort());
              return { ...caps, REDIS_URL: redis.url };
            },
    });
    let sub: TestSubscriber, server: RunningServer, store: Store;
    /** A second subscriber on ::1: another host, and another network (::/48) than 127.0.0.0/24. */
    let sub6: TestSubscriber;
    before(async () => {
      const opened = await capped.open();
      ({ sub, server, store } = opened);
      if (redis) store = openStore({ REDIS_URL: redis.url });
      sub6 = await startSubscriber(opened.certs, '::1');
    });
    after(async () => {
      await sub6?.close();
      await capped.close();
      if (redis) await store.close();
      await redis?.kill();
    });

    const subscribed = async (topicId: string, callback: string) =>
      until(() => isSubscribed(store, topicId, callback), `subscription of ${callback}`);
    /** A refused subscribe: 403 with the cap named, and the callback never asked anything. */
    const refused = async (callback: string, path: string, cap: RegExp) => {
      const answer = await subscribe(server.url, callback, TOPICS.atom.url);
      assert.equal(answer.status, 403);
      const body = (await answer.json()) as { error: string; message: string };
      assert.equal(body.error, 'subscription_limit');
      assert.match(body.message, cap);
      assert.doesNotMatch(body.message, /127\.0\.0|::/, 'the answer never names the resolved network');
      await sleep(300);
      assert.equal(
        sub.requests(path).length + sub6.requests(path).length,
        0,
        'no challenge, no denial sent to the refused callback',
      );
      assert.equal(await isSubscribed(store, 'atom', callback), false);
    };

    it('a host at its cap is refused with 403 before any challenge, while another host still subscribes', async () => {
      for (const path of ['/a1', '/a2']) {
        assert.equal((await subscribe(server.url, sub.url(path), TOPICS.atom.url)).status, 202);
        await subscribed('atom', sub.url(path));
      }
      await refused(sub.url('/a3'), '/a3', /host/);
      // Re-subscribing a callback already there is not a new subscription.
      assert.equal((await subscribe(server.url, sub.url('/a1'), TOPICS.atom.url)).status, 202);
      // `localhost` is another host name for the same subscriber (and the same network: 2 of 3).
      const other = `https://localhost:${sub.port}/l1`;
      assert.equal((await subscribe(server.url, other, TOPICS.atom.url)).status, 202);
      await subscribed('atom', other);
      const record = await store.get<Subscription>(subscriptionKey('atom', other));
      assert.equal(record?.network, '127.0.0.0/24', 'the network of the address that answered the challenge is kept');
      // The caps are per topic.
      assert.equal((await subscribe(server.url, sub.url('/a3'), TOPICS.reviews.url)).status, 202);
      await subscribed('reviews', sub.url('/a3'));
    });

    it('a host name with empty labels (`localhost..`) is refused 400, never counted as a host of its own', async () => {
      for (const host of ['localhost..', 'LOCALHOST...', '.localhost', 'local..host']) {
        const callback = `https://${host}:${sub.port}/e`;
        const answer = await subscribe(server.url, callback, TOPICS.atom.url);
        assert.equal(answer.status, 400, host);
        assert.match(await answer.text(), /empty labels/, host);
      }
      await sleep(300);
      assert.equal(sub.requests('/e').length, 0, 'no challenge sent');
    });

    it('a network at its cap refuses another host in it; a host in another network still subscribes', async () => {
      // 127.0.0.0/24 holds 3 (/a1, /a2 and localhost's /l1): `localhost` has room as a host, not its network.
      await refused(`https://localhost:${sub.port}/l2`, '/l2', /network/);
      const v6 = sub6.url('/v1');
      assert.equal((await subscribe(server.url, v6, TOPICS.atom.url)).status, 202);
      await subscribed('atom', v6);
      assert.equal((await store.get<Subscription>(subscriptionKey('atom', v6)))?.network, '::/48');
    });

    it('two verifications finishing together: the one past the cap is denied when it would be stored', async () => {
      // [::1] holds 1 of its 2: both requests find room, both challenges are answered (slowly, at once).
      sub6.set('/r1', { verify: 'slow' });
      sub6.set('/r2', { verify: 'slow' });
      const answers = await Promise.all(
        ['/r1', '/r2'].map((path) => subscribe(server.url, sub6.url(path), TOPICS.atom.url)),
      );
      assert.deepEqual(
        answers.map((answer) => answer.status),
        [202, 202],
      );
      await sub6.waitFor(
        () => sub6.verifications('/r1', 'denied').length + sub6.verifications('/r2', 'denied').length === 1,
        5000,
        'one denial',
      );
      const denied = sub6.verifications('/r1', 'denied').length === 1 ? '/r1' : '/r2';
      const kept = denied === '/r1' ? '/r2' : '/r1';
      assert.match(sub6.verifications(denied, 'denied')[0]!.query.get('hub.reason') ?? '', /host/);
      await subscribed('atom', sub6.url(kept));
      assert.equal(await isSubscribed(store, 'atom', sub6.url(denied)), false);
    });

    it('subscriptions stored before networks were recorded still load and count by host', async () => {
      const old = sub.url('/old');
      const at = Date.now();
      const legacy = {
        callback: old,
        topic: TOPICS.jsonFeed.url,
        topic_id: TOPICS.jsonFeed.id,
        secret: null,
        lease_seconds: 3600,
        verified_at: at,
        expires_at: at + 3600_000,
        failures: 0,
      };
      await store.set(subscriptionKey(TOPICS.jsonFeed.id, old), legacy, { ttlSeconds: 3600 });
      assert.equal((await subscribe(server.url, sub.url('/n1'), TOPICS.jsonFeed.url)).status, 202);
      await subscribed(TOPICS.jsonFeed.id, sub.url('/n1'));
      const answer = await subscribe(server.url, sub.url('/n2'), TOPICS.jsonFeed.url);
      assert.equal(answer.status, 403);
      assert.match(((await answer.json()) as { message: string }).message, /host/);
    });
  });

/**
 * The hub through the real server (`startServer('content')`, file store,
 * loopback callbacks, a trusted test CA, short retry delays): the
 * contract's subscription states (docs/contract.md), websub.rocks-style subscriber cases, every rejection, leases,
 * the delivery outcomes (3 failures, 410, redirects), a hanging subscriber
 * next to healthy ones, and the body limit.
 */
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import type { RunningServer } from '../helpers/server.ts';
import type { TestSubscriber } from '../helpers/subscriber.ts';
import type { Store } from '../../src/lib/store/index.ts';
import { callbackKey } from '../../src/lib/websub/subscriptions.ts';
import {
  hubFixture,
  hubPost,
  isSubscribed,
  logged,
  notVerified,
  publish,
  publishChange,
  settled,
  subscribe,
  TOPICS,
  unsubscribe,
  until,
  websubKeys,
  HUB_URL,
} from './helpers.ts';

const hub = hubFixture({ build: 'content', storeDir: 'websub-hub-', env: { WEBSUB_CONCURRENCY: '2' } });
let sub: TestSubscriber, server: RunningServer, store: Store;
before(async () => ({ sub, server, store } = await hub.open()));
after(() => hub.close());

/** Subscribes and waits until the hub holds the verified subscription. */
async function subscribed(
  path: string,
  topic: { id: string; url: string } = TOPICS.atom,
  extra: Record<string, string> = {},
  query?: string,
) {
  const callback = sub.url(path, query);
  const response = await subscribe(server.url, callback, topic.url, extra);
  assert.equal(response.status, 202, await response.clone().text());
  await until(() => isSubscribed(store, topic.id, callback), `subscription of ${path}`);
  return callback;
}

/**
 * A deploy with new content, as far as the hub can tell: the next publish
 * notifies. Resolves once the hub has handled the publish (the new hash is
 * recorded after every delivery job is written).
 */
async function changeAndPublish(topic: { id: string; url: string } = TOPICS.atom) {
  await publishChange(store, server.url, topic);
}

/** Nothing was, nor can be, delivered to `callback`: not subscribed, no job pending, nothing received. */
async function nothingFor(path: string, topicId: string, callback: string) {
  await settled(store, topicId, callback);
  assert.equal(await isSubscribed(store, topicId, callback), false);
  assert.equal(sub.notifications(path).length, 0);
}

describe('subscribe and the state table', () => {
  it('(none) → pending → active: 202, a GET challenge with mode, topic, lease; the callback query kept; then notifications', async () => {
    const callback = sub.url('/typical', 'token=a%20b&x');
    const response = await subscribe(server.url, callback, TOPICS.atom.url);
    assert.equal(response.status, 202);
    assert.equal((await response.json()).status, 'accepted');
    await sub.waitFor(() => sub.verifications('/typical').length === 1, 5000, 'challenge');
    const [challenge] = sub.verifications('/typical');
    assert.ok(challenge!.rawUrl.startsWith('/typical?token=a%20b&x&hub.mode=subscribe&'), challenge!.rawUrl);
    assert.equal(challenge!.query.get('hub.topic'), TOPICS.atom.url);
    assert.equal(challenge!.query.get('hub.lease_seconds'), String(10 * 24 * 3600));
    assert.match(challenge!.query.get('hub.challenge') ?? '', /^[A-Za-z0-9_-]{32,}$/);
    await until(() => isSubscribed(store, 'atom', callback), 'active');

    await changeAndPublish();
    await sub.waitFor(() => sub.notifications('/typical').length === 1, 5000, 'notification');
    const [note] = sub.notifications('/typical');
    const served = await fetch(`${server.url}/feed.xml`);
    assert.equal(note!.headers['content-type'], served.headers.get('content-type'));
    assert.equal(note!.headers['content-type'], 'application/atom+xml; charset=utf-8');
    assert.ok(
      note!.body.equals(Buffer.from(await served.arrayBuffer())),
      'the notification carries the topic as served',
    );
    assert.equal(note!.headers.link, `<${HUB_URL}>; rel="hub", <${TOPICS.atom.url}>; rel="self"`);
    assert.equal(note!.headers['x-hub-signature'], undefined, 'no secret, no signature');
    assert.match(String(note!.headers['user-agent']), /WebSub/);
  });

  it('challenges are random: two verifications never share one', async () => {
    const callback = await subscribed('/twice');
    assert.equal((await subscribe(server.url, callback, TOPICS.atom.url)).status, 202);
    await sub.waitFor(() => sub.verifications('/twice').length === 2, 5000, 'second challenge');
    const challenges = sub.verifications('/twice').map((r) => r.query.get('hub.challenge'));
    assert.equal(challenges.length, 2);
    assert.notEqual(challenges[0], challenges[1]);
  });

  for (const behaviour of ['wrong', 'fail', 'hang'] as const) {
    it(`pending → (none) when the challenge is answered ${behaviour}: nothing stored, nothing delivered`, async () => {
      const path = `/verify-${behaviour}`;
      sub.set(path, { verify: behaviour });
      const callback = sub.url(path);
      assert.equal((await subscribe(server.url, callback, TOPICS.atom.url)).status, 202);
      await sub.waitFor(() => sub.verifications(path).length === 1, 5000, 'challenge');
      await logged(server, notVerified('subscribe', callback), 'the failed verification');
      assert.equal(await isSubscribed(store, 'atom', callback), false);
      await changeAndPublish();
      await nothingFor(path, 'atom', callback);
    });
  }

  it('active → (none) on a verified unsubscribe: no lease in the challenge, no more notifications', async () => {
    const callback = await subscribed('/leaver');
    assert.equal((await unsubscribe(server.url, callback, TOPICS.atom.url)).status, 202);
    await until(async () => !(await isSubscribed(store, 'atom', callback)), 'unsubscribed');
    const [challenge] = sub.verifications('/leaver', 'unsubscribe');
    assert.equal(challenge!.query.get('hub.lease_seconds'), null);
    await changeAndPublish();
    await nothingFor('/leaver', 'atom', callback);
  });

  it('a failed unsubscribe challenge leaves the subscription active', async () => {
    const callback = await subscribed('/stayer');
    sub.set('/stayer', { verify: 'wrong' });
    assert.equal((await unsubscribe(server.url, callback, TOPICS.atom.url)).status, 202);
    await logged(server, notVerified('unsubscribe', callback), 'the failed unsubscribe verification');
    assert.equal(await isSubscribed(store, 'atom', callback), true);
    await changeAndPublish();
    await sub.waitFor(() => sub.notifications('/stayer').length === 1, 5000, 'still notified');
  });
});

describe('websub.rocks-style subscriber cases', () => {
  it('secret: X-Hub-Signature sha256 HMAC of the exact body', async () => {
    await subscribed('/secret', TOPICS.jsonFeed, { 'hub.secret': 'correct horse battery staple' });
    await changeAndPublish(TOPICS.jsonFeed);
    await sub.waitFor(() => sub.notifications('/secret').length === 1, 5000, 'signed notification');
    const [note] = sub.notifications('/secret');
    assert.equal(note!.headers['content-type'], 'application/feed+json; charset=utf-8');
    const expected = `sha256=${createHmac('sha256', 'correct horse battery staple').update(note!.body).digest('hex')}`;
    assert.equal(note!.headers['x-hub-signature'], expected);
  });

  it('extra parameters are ignored', async () => {
    const callback = sub.url('/extra');
    const response = await hubPost(server.url, {
      'hub.mode': 'subscribe',
      'hub.callback': callback,
      'hub.topic': TOPICS.reviews.url,
      foo: 'bar',
      'hub.unknown': 'x',
      'x.y': ['1', '2'],
    });
    assert.equal(response.status, 202);
    await until(() => isSubscribed(store, 'reviews', callback), 'active');
  });

  it('re-subscribing gives one delivery; a failed re-subscription keeps the old secret; a verified one replaces it', async () => {
    const callback = await subscribed('/resub', TOPICS.reviews, { 'hub.secret': 'old' });
    sub.set('/resub', { verify: 'wrong' });
    await subscribe(server.url, callback, TOPICS.reviews.url, { 'hub.secret': 'new' });
    await logged(server, notVerified('subscribe', callback), 'the failed re-subscription');
    await changeAndPublish(TOPICS.reviews);
    await sub.waitFor(() => sub.notifications('/resub').length === 1, 5000, 'notification');
    const first = sub.notifications('/resub')[0]!;
    assert.equal(
      first.headers['x-hub-signature'],
      `sha256=${createHmac('sha256', 'old').update(first.body).digest('hex')}`,
    );

    sub.set('/resub', { verify: 'echo' });
    await subscribe(server.url, callback, TOPICS.reviews.url, { 'hub.secret': 'new' });
    await sub.waitFor(() => sub.verifications('/resub').length === 3, 5000, 'third challenge');
    await until(
      async () =>
        (
          await store.get<{ secret: string }>(
            `websub:sub:reviews:${(await import('../../src/lib/websub/subscriptions.ts')).callbackKey(callback)}`,
          )
        )?.secret === 'new',
      'new secret',
    );
    await changeAndPublish(TOPICS.reviews);
    await sub.waitFor(() => sub.notifications('/resub').length === 2, 5000, 'second notification');
    await settled(store, 'reviews', callback);
    assert.equal(sub.notifications('/resub').length, 2, 'one delivery per change, not one per subscribe');
    const second = sub.notifications('/resub')[1]!;
    assert.equal(
      second.headers['x-hub-signature'],
      `sha256=${createHmac('sha256', 'new').update(second.body).digest('hex')}`,
    );
  });

  it('an unchanged publish notifies nobody, however often it is pinged', async () => {
    const callback = await subscribed('/quiet');
    await changeAndPublish();
    await sub.waitFor(() => sub.notifications('/quiet').length === 1, 5000, 'first notification');
    for (let i = 0; i < 3; i++) assert.equal((await publish(server.url, TOPICS.atom.url)).status, 202);
    // Then a known change: the next thing the subscriber sees is that one, and nothing else.
    await changeAndPublish();
    await sub.waitFor(() => sub.notifications('/quiet').length >= 2, 5000, 'the known change');
    await settled(store, 'atom', callback);
    assert.equal(sub.notifications('/quiet').length, 2, 'the pings added nothing');
  });
});

describe('rejections: 400, nothing stored, no request to the callback', () => {
  const good = () => ({ 'hub.mode': 'subscribe', 'hub.callback': sub.url('/rejected'), 'hub.topic': TOPICS.atom.url });
  const cases: Array<[string, () => Record<string, string | string[]> | string, string]> = [
    [
      'plain-HTTP callback',
      () => ({ ...good(), 'hub.callback': `http://127.0.0.1:${sub.port}/rejected` }),
      'hub.callback',
    ],
    [
      'credentials in the callback',
      () => ({ ...good(), 'hub.callback': `https://u:p@127.0.0.1:${sub.port}/rejected` }),
      'hub.callback',
    ],
    ['a relative callback', () => ({ ...good(), 'hub.callback': '/rejected' }), 'hub.callback'],
    ['no callback', () => ({ 'hub.mode': 'subscribe', 'hub.topic': TOPICS.atom.url }), 'hub.callback'],
    ['an empty callback', () => ({ ...good(), 'hub.callback': '' }), 'hub.callback'],
    [
      'two callbacks',
      () => ({ ...good(), 'hub.callback': [sub.url('/rejected'), sub.url('/rejected2')] }),
      'hub.callback',
    ],
    ['a private-address callback', () => ({ ...good(), 'hub.callback': 'https://10.0.0.7/cb' }), 'hub.callback'],
    [
      'the metadata address',
      () => ({ ...good(), 'hub.callback': 'https://169.254.169.254/latest/meta-data' }),
      'hub.callback',
    ],
    [
      'an IPv4-mapped loopback (even with loopback allowed)',
      () => ({ ...good(), 'hub.callback': `https://[::ffff:127.0.0.1]:${sub.port}/rejected` }),
      'hub.callback',
    ],
    ['a CGNAT callback', () => ({ ...good(), 'hub.callback': 'https://100.64.1.1/cb' }), 'hub.callback'],
    ['an unknown topic', () => ({ ...good(), 'hub.topic': 'http://localhost:4321/other.xml' }), 'hub.topic'],
    ['a topic on another site', () => ({ ...good(), 'hub.topic': 'https://evil.example/feed.xml' }), 'hub.topic'],
    ['no topic', () => ({ 'hub.mode': 'subscribe', 'hub.callback': sub.url('/rejected') }), 'hub.topic'],
    ['a bad mode', () => ({ ...good(), 'hub.mode': 'subscribe-please' }), 'hub.mode'],
    ['no mode', () => ({ 'hub.callback': sub.url('/rejected'), 'hub.topic': TOPICS.atom.url }), 'hub.mode'],
    ['a 200-byte secret', () => ({ ...good(), 'hub.secret': 'x'.repeat(200) }), 'hub.secret'],
    ['a 100-character secret of 200 UTF-8 bytes', () => ({ ...good(), 'hub.secret': 'é'.repeat(100) }), 'hub.secret'],
    ['an empty secret', () => ({ ...good(), 'hub.secret': '' }), 'hub.secret'],
    ['a non-numeric lease', () => ({ ...good(), 'hub.lease_seconds': '1d' }), 'hub.lease_seconds'],
    ['a negative lease', () => ({ ...good(), 'hub.lease_seconds': '-5' }), 'hub.lease_seconds'],
    ['publish of an unknown topic', () => ({ 'hub.mode': 'publish', 'hub.url': 'https://evil.example/' }), 'hub.url'],
    ['publish without a topic', () => ({ 'hub.mode': 'publish' }), 'hub.url'],
    ['an empty body', () => '', 'hub.mode'],
  ];
  for (const [name, params, field] of cases) {
    it(name, async () => {
      const before = await websubKeys(store);
      const response = await hubPost(server.url, params());
      assert.equal(response.status, 400);
      assert.match(response.headers.get('content-type') ?? '', /^application\/json/);
      const body = await response.json();
      assert.equal(body.error, 'invalid_request');
      assert.ok(Array.isArray(body.issues) && body.issues.length > 0);
      assert.ok(
        body.issues.some((issue: { path: string[] }) => issue.path[0] === field),
        JSON.stringify(body.issues),
      );
      for (const issue of body.issues) assert.deepEqual(Object.keys(issue).sort(), ['code', 'message', 'path']);
      // Subscriptions and intents change only on accepted (un)subscribe requests; jobs may come and go from earlier tests.
      const stateKeys = (keys: string[]) =>
        keys.filter((key) => key.startsWith('websub:sub:') || key.startsWith('websub:intent:'));
      assert.deepEqual(stateKeys(await websubKeys(store)), stateKeys(before), 'nothing stored');
      const rejected = [callbackKey(sub.url('/rejected')), callbackKey(sub.url('/rejected2'))];
      assert.ok(!(await websubKeys(store)).some((key) => rejected.some((k) => key.includes(k))));
    });
  }
  it('sent nothing to any rejected callback', async () => {
    // A 400 is answered before anything is queued: there is nothing to wait for.
    assert.equal(sub.requests('/rejected').length + sub.requests('/rejected2').length, 0);
  });
  it('the secret never appears in a response', async () => {
    const response = await subscribe(server.url, sub.url('/secret-echo'), TOPICS.atom.url, {
      'hub.secret': 'do-not-echo-me',
    });
    assert.equal(response.status, 202);
    assert.doesNotMatch(await response.text(), /do-not-echo-me/);
  });
  it('other methods: 405 with Allow; OPTIONS preflight; a JSON body is 415', async () => {
    const get = await fetch(`${server.url}/api/websub/hub`);
    assert.equal(get.status, 405);
    assert.match(get.headers.get('allow') ?? '', /POST/);
    const options = await fetch(`${server.url}/api/websub/hub`, {
      method: 'OPTIONS',
      headers: { origin: 'https://x.example', 'access-control-request-method': 'POST' },
    });
    assert.equal(options.status, 204);
    assert.equal(options.headers.get('access-control-allow-origin'), '*');
    const json = await fetch(`${server.url}/api/websub/hub`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"hub.mode":"subscribe"}',
    });
    assert.equal(json.status, 415);
  });
  it('a body over 64 KiB is 413', async () => {
    const response = await hubPost(server.url, { ...good(), padding: 'x'.repeat(64 * 1024) });
    assert.equal(response.status, 413);
    assert.equal((await response.json()).error, 'payload_too_large');
    const exact = await hubPost(
      server.url,
      `hub.mode=publish&hub.url=${encodeURIComponent(TOPICS.atom.url)}&p=`.padEnd(64 * 1024, 'x'),
    );
    assert.equal(exact.status, 202, 'exactly 64 KiB is allowed');
  });
});

describe('leases', () => {
  it('a requested lease is clamped to 1 hour .. 30 days; the challenge carries the granted value', async () => {
    for (const [requested, granted] of [
      ['1', 3600],
      ['0', 3600],
      ['7200', 7200],
      ['999999999', 30 * 24 * 3600],
    ] as const) {
      const path = `/lease-${requested}`;
      await subscribed(path, TOPICS.atom, { 'hub.lease_seconds': requested });
      assert.equal(sub.verifications(path)[0]!.query.get('hub.lease_seconds'), String(granted));
    }
  });
});

describe('delivery outcomes', () => {
  it('three consecutive failures end the subscription with a hub.mode=denied notice; success resets the count', async () => {
    const callback = await subscribed('/flaky', TOPICS.jsonFeed);
    sub.set('/flaky', { notify: 'fail' });
    await changeAndPublish(TOPICS.jsonFeed);
    await sub.waitFor(() => sub.notifications('/flaky').length === 2, 5000, 'first retry');
    sub.set('/flaky', { notify: 'ok' });
    await sub.waitFor(() => sub.notifications('/flaky').length === 3, 5000, 'second retry succeeds');
    await until(
      async () =>
        (await store.get(
          `websub:job:json-feed:${(await import('../../src/lib/websub/subscriptions.ts')).callbackKey(callback)}`,
        )) === null,
      'job done',
    );

    sub.set('/flaky', { notify: 'fail' });
    const started = Date.now();
    await changeAndPublish(TOPICS.jsonFeed);
    await sub.waitFor(() => sub.verifications('/flaky', 'denied').length === 1, 8000, 'denied notice');
    const notes = sub.notifications('/flaky').slice(3);
    assert.equal(notes.length, 3, 'counted from zero again after the success: three more attempts');
    assert.ok(notes[1]!.at - notes[0]!.at >= 250, 'the first retry waits its delay');
    assert.ok(notes[2]!.at - notes[1]!.at >= 500, 'the second retry waits its longer delay');
    assert.ok(Date.now() - started < 6000);
    const denied = sub.verifications('/flaky', 'denied')[0]!;
    assert.equal(denied.query.get('hub.topic'), TOPICS.jsonFeed.url);
    assert.match(denied.query.get('hub.reason') ?? '', /3 consecutive/);
    assert.equal(await isSubscribed(store, 'json-feed', callback), false);
    await changeAndPublish(TOPICS.jsonFeed);
    await settled(store, 'json-feed', callback);
    assert.equal(sub.notifications('/flaky').length, 6, 'ended: nothing more');
  });

  it('410 Gone ends the subscription at once, without retries', async () => {
    const callback = await subscribed('/gone', TOPICS.reviews);
    sub.set('/gone', { notify: 'gone' });
    await changeAndPublish(TOPICS.reviews);
    await sub.waitFor(() => sub.notifications('/gone').length === 1, 5000, 'notification');
    await until(async () => !(await isSubscribed(store, 'reviews', callback)), 'ended');
    await settled(store, 'reviews', callback);
    assert.equal(sub.notifications('/gone').length, 1, 'no retry: no job left, no subscription');
  });

  it('a redirect is a failure, never followed', async () => {
    await subscribed('/redirect', TOPICS.reviews);
    sub.set('/redirect', { notify: 'redirect' });
    await changeAndPublish(TOPICS.reviews);
    await sub.waitFor(() => sub.notifications('/redirect').length === 2, 5000, 'a retry after the redirect');
    sub.set('/redirect', { notify: 'ok' });
  });

  it('a hanging subscriber does not delay the others (concurrency 2, timeout 1.5 s)', async () => {
    sub.clear();
    await subscribed('/hang', TOPICS.atom);
    sub.set('/hang', { notify: 'hang' });
    const healthy = ['/h1', '/h2', '/h3', '/h4', '/h5'];
    for (const path of healthy) await subscribed(path, TOPICS.atom);
    await changeAndPublish(TOPICS.atom);
    await sub.waitFor(() => healthy.every((path) => sub.notifications(path).length === 1), 5000, 'healthy subscribers');
    const slowest = Math.max(...healthy.map((path) => sub.notifications(path)[0]!.at));
    // Ordering, not a stopwatch: every healthy one arrived while the hanging delivery was still open.
    const hung = sub.notifications('/hang')[0];
    assert.ok(
      hung === undefined || hung.closedAt === undefined || slowest < hung.closedAt,
      'healthy subscribers were served before the hanging one timed out',
    );
    sub.set('/hang', { notify: 'ok' });
  });
});

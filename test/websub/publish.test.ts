/**
 * Publishing, in process (createHub over a file store): each content
 * transition is claimed once, even when the content flips back and forth
 * within the claim's lifetime; two hubs sharing a store distribute a change
 * once; the start-up publish queues every topic before delivering, so a
 * hanging subscriber of one topic does not hold up another topic.
 */
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { after, before, it } from 'node:test';
import { createStore, type Store } from '../../src/lib/store/index.ts';
import { DEFAULT_HUB_CONFIG, type HubConfig } from '../../src/lib/websub/config.ts';
import type { ContentSource } from '../../src/lib/websub/content.ts';
import { createHub, type Hub } from '../../src/lib/websub/hub-handler.ts';
import { contentHash } from '../../src/lib/websub/publish.ts';
import { HubState } from '../../src/lib/websub/subscriptions.ts';
import type { TestSubscriber } from '../helpers/subscriber.ts';
import { DEFAULT_SITE_URL } from '../../src/lib/config/site.ts';
import { MODERATION_TOPIC, startTrustedSubscriber, tempDir, TOPICS } from './helpers.ts';

const config: HubConfig = {
  ...DEFAULT_HUB_CONFIG,
  allowLoopback: true,
  requestTimeoutMs: 1500,
  concurrency: 4,
  schedulerIntervalMs: 3_600_000,
};
const dirs: string[] = [];
const closers: Array<() => Promise<void>> = [];
let sub: TestSubscriber;
let closeSubscriber: (() => Promise<void>) | undefined;

before(async () => ({ sub, close: closeSubscriber } = await startTrustedSubscriber()));
after(async () => {
  for (const close of closers) await close();
  await closeSubscriber?.();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

function newStore(): Store {
  const dir = tempDir('websub-publish-');
  dirs.push(dir);
  const store = createStore({ dir, redisPrefix: 'test' });
  closers.push(() => store.close());
  return store;
}

function newHub(store: Store, content: ContentSource): Hub {
  const hub = createHub({ site: DEFAULT_SITE_URL, store, content, config, log: () => {} });
  closers.push(() => hub.close());
  return hub;
}

const atomResult = async (hub: Hub) =>
  (await hub.publishChanged()).find((outcome) => outcome.topic === TOPICS.atom.url)!.result;

it('H0 → H1 → H0 → H1 within the claim lifetime: every transition is distributed', async () => {
  const store = newStore();
  let body = Buffer.from('H0');
  const hub = newHub(store, async () => ({ body, contentType: 'text/plain' }));
  assert.equal(await atomResult(hub), 'recorded');
  const results = [];
  for (const next of ['H1', 'H0', 'H1']) {
    body = Buffer.from(next);
    results.push(await atomResult(hub));
    assert.equal(
      (await new HubState(store, Date.now).lastHash('atom'))?.hash,
      contentHash(body),
      `${next} is recorded as distributed`,
    );
  }
  assert.deepEqual(results, ['distributed', 'distributed', 'distributed']);
  assert.equal(await atomResult(hub), 'unchanged');
});

it('two hubs on one store publishing one change at once: one distributes it', async () => {
  const store = newStore();
  let body = Buffer.from('old');
  const content: ContentSource = async () => ({ body, contentType: 'text/plain' });
  const [a, b] = [newHub(store, content), newHub(store, content)];
  await a.publishChanged();
  body = Buffer.from('new');
  const results = await Promise.all([atomResult(a), atomResult(b)]);
  assert.deepEqual(
    results.filter((result) => result === 'distributed'),
    ['distributed'],
    results.join(', '),
  );
});

it('the start-up publish queues every topic first: a hanging subscriber of one topic does not hold up the next topic', async () => {
  const store = newStore();
  let body = Buffer.from('before');
  const hub = newHub(store, async () => ({ body, contentType: 'text/plain' }));
  await hub.publishChanged();
  const state = new HubState(store, Date.now);
  const at = Date.now();
  const add = (path: string, topic: { id: string; url: string }) =>
    state.putSubscription({
      callback: sub.url(path),
      topic: topic.url,
      topic_id: topic.id,
      secret: null,
      lease_seconds: 3600,
      verified_at: at,
      expires_at: at + 3_600_000,
      failures: 0,
    });
  sub.set('/startup-hang', { notify: 'hang' });
  await add('/startup-hang', TOPICS.atom); // the first topic
  await add('/startup-ok', MODERATION_TOPIC); // the last one
  body = Buffer.from('after');
  const outcomes = await hub.publishChanged();
  assert.deepEqual(
    outcomes.map((outcome) => outcome.result),
    ['distributed', 'distributed', 'distributed', 'distributed'],
  );
  const [hung] = sub.notifications('/startup-hang');
  const [ok] = sub.notifications('/startup-ok');
  assert.ok(hung?.closedAt !== undefined && ok !== undefined);
  assert.ok(ok.at < hung.closedAt, 'the other topic was delivered while the hanging delivery was still open');
});

it('a source that knows its hash (the Node server, from the manifest): no topic is read to decide whether it changed', async () => {
  const store = newStore();
  let reads = 0;
  let body = Buffer.from('A');
  const hub = newHub(store, async () => ({
    get body() {
      reads += 1;
      return body;
    },
    contentType: 'text/plain',
    sha256: contentHash(body),
  }));
  assert.equal(await atomResult(hub), 'recorded');
  assert.equal(await atomResult(hub), 'unchanged');
  body = Buffer.from('B');
  assert.equal(await atomResult(hub), 'distributed');
  assert.equal((await new HubState(store, Date.now).lastHash('atom'))?.hash, contentHash(body));
  assert.equal(reads, 0, 'no subscriber: the bytes were never needed');
});

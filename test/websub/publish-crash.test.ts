/**
 * A publish cut short by kill -9 between its claim and recording the hash
 * (finding 7 of docs/reliability.md), in process: the first hub's store halts
 * after the first delivery job is written (no later write, no finally: as a
 * kill leaves it), then a second hub on the same folder (the restart) publishes.
 * Its claim key is the dead one's (same last record, same new hash), so it finds
 * the change 'elsewhere'; once that claim can have expired, its sweep must
 * publish again, so every subscriber that was subscribed before the change gets
 * a delivery (here: an attempt, and a job for the retry).
 */
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { after, it } from 'node:test';
import { createStore, type Store } from '../../src/lib/store/index.ts';
import { DEFAULT_SITE_URL } from '../../src/lib/config/site.ts';
import { DEFAULT_HUB_CONFIG, type HubConfig } from '../../src/lib/websub/config.ts';
import type { ContentSource } from '../../src/lib/websub/content.ts';
import { createHub, type Hub } from '../../src/lib/websub/hub-handler.ts';
import { contentHash } from '../../src/lib/websub/publish.ts';
import { callbackKey, HubState } from '../../src/lib/websub/subscriptions.ts';
import { killedStore, tempDir, TOPICS, until } from './helpers.ts';

// Callbacks on a closed loopback port: each attempt fails at once and leaves a retry job.
const config: HubConfig = {
  ...DEFAULT_HUB_CONFIG,
  allowLoopback: true,
  requestTimeoutMs: 1500,
  concurrency: 4,
  schedulerIntervalMs: 3_600_000,
};
const closers: Array<() => Promise<void>> = [];
const dirs: string[] = [];
after(async () => {
  for (const close of closers.reverse()) await close().catch(() => {});
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** The store as a kill leaves it: the write of job number `jobsBeforeKill + 1` and everything after it never happen. */
function killedAtJob(store: Store, jobsBeforeKill: number): Store {
  let jobs = 0;
  return killedStore(
    store,
    (operation, key) => operation === 'set' && key.startsWith('websub:job:') && ++jobs > jobsBeforeKill,
  );
}

it('a publish killed after its claim and part of its outbox: the restarted hub distributes the change once the claim can have expired', async () => {
  let time = Date.now();
  const now = () => time;
  const dir = tempDir('websub-publish-crash-');
  dirs.push(dir);
  const open = () => {
    const store = createStore({ dir, redisPrefix: 'test' }, now);
    closers.push(() => store.close());
    return store;
  };
  const newHub = (store: Store, content: ContentSource): Hub => {
    const hub = createHub({ site: DEFAULT_SITE_URL, store, content, config, now, log: () => {} });
    closers.push(() => hub.close());
    return hub;
  };

  const base = open();
  const state = new HubState(base, now);
  const topic = TOPICS.reviews;
  const callbacks = [1, 2, 3].map((i) => `https://127.0.0.1:9/c${i}`);
  for (const callback of callbacks) {
    await state.putSubscription({
      callback,
      topic: topic.url,
      topic_id: topic.id,
      secret: null,
      lease_seconds: 864000,
      verified_at: time,
      expires_at: time + 864_000_000,
      failures: 0,
    });
  }
  const old = Buffer.from('old content');
  const changed = Buffer.from('changed content');
  for (const id of ['atom', 'json-feed', 'reviews']) await state.recordHash(id, contentHash(old), 0);
  const content: ContentSource = async (path) => ({
    body: path === topic.path ? changed : old,
    contentType: 'application/json',
  });
  const jobKeys = async () => (await base.keys(`websub:job:${topic.id}:`)).map((key) => key.split(':').at(-1)!);

  // The first process: claims the change, writes one job of three, and is "killed".
  const dying = newHub(killedAtJob(open(), 1), content);
  void dying.publishChanged();
  await until(async () => (await jobKeys()).length === 1, 'the first job of the outbox');
  assert.notEqual((await state.lastHash(topic.id))?.hash, contentHash(changed), 'the dead process recorded no hash');

  // The restart, on the same folder: the dead process's claim turns it away.
  const restarted = newHub(open(), content);
  const startup = await restarted.publishChanged();
  assert.equal(startup.find((outcome) => outcome.topic === topic.url)?.result, 'elsewhere');

  // Once that claim can have expired, the restarted hub's sweep publishes the change again.
  time += 125_000;
  await restarted.sweep();
  assert.equal((await state.lastHash(topic.id))?.hash, contentHash(changed), 'the change is recorded as distributed');
  const attempted = new Set(await jobKeys()); // a failed attempt leaves its retry job
  for (const callback of callbacks) {
    assert.ok(attempted.has(callbackKey(callback)), `${callback} was subscribed before the change and is owed it`);
    assert.equal(
      (await state.getSubscription(topic.id, callbackKey(callback)))?.failures,
      1,
      `${callback}: one delivery attempt`,
    );
  }
});

/**
 * No change delivered twice across kill -9 (issue 14, kill-cycles), in process
 * over a folder store and a real HTTPS subscriber, a "kill" being a store that
 * stops writing (killedStore): a job whose change the subscriber received
 * (its 2xx, recorded) but that the dead process never removed is not sent again
 * by the restarted hub; a re-publish of a transition a dead holder claimed does
 * not repeat it to a subscriber that already got it; the claims of a process
 * that has exited are taken over at once by the restarted one; and removing a
 * finished job never removes a newer job written under the same key meanwhile.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { resolve } from 'node:path';
import { after, before, it } from 'node:test';
import { DEFAULT_SITE_URL } from '../../src/lib/config/site.ts';
import { createStore, type Store } from '../../src/lib/store/index.ts';
import { DEFAULT_HUB_CONFIG, type HubConfig } from '../../src/lib/websub/config.ts';
import type { ContentSource } from '../../src/lib/websub/content.ts';
import { createHub, type Hub } from '../../src/lib/websub/hub-handler.ts';
import { changeVersion, contentHash } from '../../src/lib/websub/publish.ts';
import { callbackKey, HubState, type DeliveryJob } from '../../src/lib/websub/subscriptions.ts';
import { NODE, ROOT } from '../helpers/builds.ts';
import type { TestSubscriber } from '../helpers/subscriber.ts';
import { killedStore, startTrustedSubscriber, tempDir, TOPICS, until } from './helpers.ts';

const config: HubConfig = {
  ...DEFAULT_HUB_CONFIG,
  allowLoopback: true,
  requestTimeoutMs: 1500,
  concurrency: 4,
  schedulerIntervalMs: 3_600_000,
};
const topic = TOPICS.reviews;
const old = Buffer.from('old content');
const changed = Buffer.from('changed content');
const content: ContentSource = async (path) => ({
  body: path === topic.path ? changed : old,
  contentType: 'application/json',
});
const closers: Array<() => Promise<void>> = [];
const dirs: string[] = [];
let sub: TestSubscriber;
let closeSubscriber: (() => Promise<void>) | undefined;

before(async () => ({ sub, close: closeSubscriber } = await startTrustedSubscriber()));
after(async () => {
  for (const close of closers.reverse()) await close().catch(() => {});
  await closeSubscriber?.();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** A folder, a clock that tests move on, stores opened on it (each "process" its own), and subscribers of `paths`. */
async function setUp(paths: string[]) {
  const clock = { time: Date.now() };
  const now = () => clock.time;
  const dir = tempDir('websub-kill-doubles-');
  dirs.push(dir);
  const open = () => {
    const store = createStore({ dir, redisPrefix: 'test' }, now);
    closers.push(() => store.close());
    return store;
  };
  const newHub = (store: Store): Hub => {
    const hub = createHub({ site: DEFAULT_SITE_URL, store, content, config, now, log: () => {} });
    closers.push(() => hub.close());
    return hub;
  };
  const base = open();
  const state = new HubState(base, now);
  for (const id of ['atom', 'json-feed', 'reviews']) await state.recordHash(id, contentHash(old), 0);
  const callbacks = paths.map((path) => sub.url(path));
  for (const callback of callbacks) {
    await state.putSubscription({
      callback,
      topic: topic.url,
      topic_id: topic.id,
      secret: null,
      lease_seconds: 864000,
      verified_at: now(),
      expires_at: now() + 864_000_000,
      failures: 0,
    });
  }
  const jobKeys = async () => (await base.keys(`websub:job:${topic.id}:`)).map((key) => key.split(':').at(-1)!);
  return { clock, dir, open, newHub, base, state, callbacks, jobKeys };
}

/** Takes `keys`' claims in another process on `dir`, which then exits: what a kill -9 mid-publish leaves. */
function claimInAProcessThatExits(dir: string, keys: string[]): void {
  const script = `import { createStore } from ${JSON.stringify(resolve(ROOT, 'src/lib/store/index.ts'))};
    const store = createStore({ dir: ${JSON.stringify(dir)}, redisPrefix: 'test' });
    for (const key of ${JSON.stringify(keys)}) if (!(await store.claim(key, 600))) throw new Error('not claimed: ' + key);
    process.exit(0);`;
  const result = spawnSync(NODE, ['--input-type=module', '-e', script], { cwd: ROOT, encoding: 'utf8' });
  assert.equal(result.status, 0, result.stderr);
}

it('a job whose 2xx came just before the kill, still in the store, is not sent again after the restart', async () => {
  const { clock, open, newHub, callbacks, jobKeys } = await setUp(['/answered']);
  // The first process: delivers, records the 2xx, and is killed before it removes the job.
  const dying = newHub(
    killedStore(open(), (operation, key) => operation.startsWith('remove') && key.startsWith('websub:job:')),
  );
  void dying.publishChanged();
  await until(() => sub.notifications('/answered').length === 1, 'the first delivery');
  await until(
    async () => (await open().get(`websub:sent:${topic.id}:${callbackKey(callbacks[0]!)}`)) !== null,
    'its record',
  );
  assert.equal((await jobKeys()).length, 1, 'the job is left in the store, as a kill leaves it');

  // The restart: once the dead process's delivery claim has expired, the job is due again.
  const restarted = newHub(open());
  clock.time += 120_000;
  const sweep = await restarted.sweep();
  assert.equal(sweep.due, 1);
  assert.deepEqual(sweep.outcomes, ['skipped']);
  assert.equal(sub.notifications('/answered').length, 1, 'delivered once');
  assert.deepEqual(await jobKeys(), [], 'and the leftover job is gone');
});

it('a re-publish of a transition a killed process claimed skips the subscriber that already received it', async () => {
  const { clock, open, newHub, state, jobKeys } = await setUp(['/early', '/late-1', '/late-2']);
  // The first process claims the change, writes one job of three and is killed before recording the hash.
  let jobs = 0;
  const dying = newHub(
    killedStore(open(), (operation, key) => operation === 'set' && key.startsWith('websub:job:') && ++jobs > 1),
  );
  void dying.publishChanged();
  await until(async () => (await jobKeys()).length === 1, 'the first job of the outbox');

  // The restart: the change is claimed 'elsewhere'; the leftover job is sent by the first sweep.
  const restarted = newHub(open());
  const startup = await restarted.publishChanged();
  assert.equal(startup.find((outcome) => outcome.topic === topic.url)?.result, 'elsewhere');
  await restarted.sweep();
  const early = ['/early', '/late-1', '/late-2'].find((path) => sub.notifications(path).length === 1)!;
  assert.ok(early, 'the leftover job was delivered');

  // Once the claim can have expired the hub publishes the same transition again: everyone gets it, once.
  clock.time += 125_000;
  await restarted.sweep();
  assert.equal((await state.lastHash(topic.id))?.hash, contentHash(changed), 'the change is recorded as distributed');
  for (const path of ['/early', '/late-1', '/late-2'])
    assert.equal(sub.notifications(path).length, 1, `${path}: the change once`);
  assert.deepEqual(await jobKeys(), []);
});

it('the claims of a process that has exited (the publish, a delivery) are taken over at once after the restart', async () => {
  const { dir, open, newHub, state, callbacks, jobKeys } = await setUp(['/claimed-by-the-dead']);
  const last = (await state.lastHash(topic.id))!;
  const job: DeliveryJob = {
    id: 'leftover',
    topic_id: topic.id,
    callback_key: callbackKey(callbacks[0]!),
    due_at: 0,
    version: 'an earlier change',
  };
  await state.putJob(job);
  claimInAProcessThatExits(dir, [
    `websub:deliver:${job.id}`,
    `websub:publish:${topic.id}:${last.generation}:${last.at}:${last.hash}:${contentHash(changed)}`,
  ]);

  // No clock moved on: the dead process's claims (600 s) are not waited out.
  const restarted = newHub(open());
  const sweep = await restarted.sweep();
  assert.deepEqual(sweep.outcomes, ['delivered'], 'the leftover job, claimed by the dead process, is sent');
  const startup = await restarted.publishChanged();
  assert.equal(
    startup.find((outcome) => outcome.topic === topic.url)?.result,
    'distributed',
    'the change the dead process claimed is published',
  );
  assert.equal(sub.notifications('/claimed-by-the-dead').length, 2, 'the earlier change, then this one');
  assert.deepEqual(await jobKeys(), []);
});

it('a change a dead process claimed and queued, published again by the restart while its sweep sends the leftover job: once', async () => {
  const { dir, open, newHub, state, callbacks, jobKeys } = await setUp(['/queued']);
  const last = (await state.lastHash(topic.id))!;
  const transition = `${topic.id}:${last.generation}:${last.at}:${last.hash}:${contentHash(changed)}`;
  // What the dead process left: its claim of the change, and the subscriber's job of that change (hash not recorded).
  await state.putJob({
    id: 'leftover',
    topic_id: topic.id,
    callback_key: callbackKey(callbacks[0]!),
    due_at: 0,
    version: changeVersion(transition),
  });
  claimInAProcessThatExits(dir, [`websub:publish:${transition}`]);

  // The restart's sweep sends the leftover job; the 2xx is recorded only once the publish had its chance to send
  // the change too (a second notification), or after 1.5 s: the publish runs while that delivery is under way.
  const store = open();
  const slowRecord: Store = {
    ...store,
    set: async (key, value, options) => {
      if (key.startsWith('websub:sent:'))
        await until(() => sub.notifications('/queued').length >= 2, 'a second send', 1500).catch(() => {});
      return store.set(key, value, options);
    },
  };
  const restarted = newHub(slowRecord);
  const sweeping = restarted.sweep();
  await until(() => sub.notifications('/queued').length === 1, 'the leftover job sent');
  await restarted.publishChanged();
  await sweeping;
  assert.equal(sub.notifications('/queued').length, 1, 'the change once');
  assert.deepEqual(await jobKeys(), []);
});

it('finishing a job never removes a newer job written under the same key in between', async () => {
  const { base, clock } = await setUp([]);
  const key = 'websub:job:reviews:k';
  const older: DeliveryJob = { id: 'older', topic_id: 'reviews', callback_key: 'k', due_at: 0, version: 'v1' };
  const newer: DeliveryJob = { ...older, id: 'newer', version: 'v2' };
  await base.set(key, older);
  // A newer publish writes its job while finishJob is at work: right after a read of the key, or before a
  // compare-and-delete (one atomic step: there is no "in between" to land in).
  const racing: Store = {
    ...base,
    get: async <T>(k: string) => {
      const value = await base.get<T>(k);
      if (k === key) await base.set(key, newer);
      return value;
    },
    removeIf: async (k, field, expected) => {
      if (k === key) await base.set(key, newer);
      return base.removeIf(k, field, expected);
    },
  };
  await new HubState(racing, () => clock.time).finishJob(older);
  assert.deepEqual(await base.get(key), newer, 'the newer job stays');
  await new HubState(base, () => clock.time).finishJob(newer);
  assert.equal(await base.get(key), null, 'the job finished is removed');
});

/** Shared pieces of the WebSub tests: the hub's form, topics, the store the server uses, waiting. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { getCACertificates, setDefaultCACertificates } from 'node:tls';
import { siteLinks } from '../../src/lib/feeds/links.ts';
import { createStore, type Store } from '../../src/lib/store/index.ts';
import { callbackKey, type DistributedHash } from '../../src/lib/websub/subscriptions.ts';
import { DEFAULT_SITE_URL } from '../../src/lib/config/site.ts';
import type { BuildName } from '../helpers/builds.ts';
import { makeTestCerts, type TestCerts } from '../helpers/certs.ts';
import { startServer, type RunningServer } from '../helpers/server.ts';
import { startSubscriber, type TestSubscriber } from '../helpers/subscriber.ts';

const links = siteLinks(DEFAULT_SITE_URL);
export const TOPICS = {
  atom: { id: 'atom', url: links.atomFeed, path: '/feed.xml' },
  jsonFeed: { id: 'json-feed', url: links.jsonFeed, path: '/api/feed.json' },
  reviews: { id: 'reviews', url: links.reviewsJson, path: '/reviews.json' },
} as const;
/** The reviews' topics: each carries every published review. The hub also serves MODERATION_TOPIC. */
export const ALL_TOPICS = Object.values(TOPICS);
export const MODERATION_TOPIC = { id: 'moderation', url: links.moderationJson, path: '/moderation.json' } as const;
export const HUB_URL = links.hub;

export const tempDir = (prefix: string) => mkdtempSync(join(tmpdir(), prefix));

/** A real HTTPS subscriber for hubs running in this process: its test CA is trusted by this process's requests from now on. */
export async function startTrustedSubscriber(): Promise<{ sub: TestSubscriber; close: () => Promise<void> }> {
  const certs = makeTestCerts();
  setDefaultCACertificates([...getCACertificates('default'), certs.ca]);
  const sub = await startSubscriber(certs);
  return {
    sub,
    async close() {
      await sub.close();
      certs.remove();
    },
  };
}

/** A store operation that writes, as `killedStore` sees it. */
export type StoreWrite = 'set' | 'remove' | 'removeIf' | 'claim';

/**
 * The store as kill -9 leaves it, in process: from the first write for which
 * `dies` is true on, that write and every later one never happen and never
 * settle (no error, no finally runs in the caller). Reads go on.
 */
export function killedStore(store: Store, dies: (operation: StoreWrite, key: string) => boolean): Store {
  let dead = false;
  const never = new Promise<never>(() => {});
  const gate =
    <A extends unknown[], R>(operation: StoreWrite, write: (key: string, ...rest: A) => Promise<R>) =>
    (key: string, ...rest: A): Promise<R> => {
      if (!dead && dies(operation, key)) dead = true;
      return dead ? never : write(key, ...rest);
    };
  return {
    ...store,
    set: gate('set', store.set.bind(store)),
    remove: gate('remove', store.remove.bind(store)),
    removeIf: gate('removeIf', store.removeIf.bind(store)),
    claim: gate('claim', store.claim.bind(store)),
  };
}

/** The environment of a hub server under test: loopback callbacks, the test CA, short delays. */
export function hubEnv(certs: TestCerts, storeDir: string, extra: Record<string, string> = {}): Record<string, string> {
  return {
    NODE_EXTRA_CA_CERTS: certs.caFile,
    STORE_DIR: storeDir,
    WEBSUB_ALLOW_LOOPBACK: 'true',
    WEBSUB_RETRY_DELAYS: '0.3,0.6',
    WEBSUB_TIMEOUT_MS: '1500',
    WEBSUB_SCHEDULER_INTERVAL_MS: '100',
    WEBSUB_SUBSCRIBE_RATE_LIMIT: '10000',
    WEBSUB_PUBLISH_RATE_LIMIT: '10000',
    ...extra,
  };
}

export function hubPost(
  baseUrl: string,
  params: Record<string, string | string[]> | string,
  headers: Record<string, string> = {},
) {
  let body: string;
  if (typeof params === 'string') body = params;
  else {
    const form = new URLSearchParams();
    for (const [name, value] of Object.entries(params)) for (const v of [value].flat()) form.append(name, v);
    body = form.toString();
  }
  return fetch(`${baseUrl}/api/websub/hub`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    body,
  });
}

export const subscribe = (baseUrl: string, callback: string, topic: string, extra: Record<string, string> = {}) =>
  hubPost(baseUrl, { 'hub.mode': 'subscribe', 'hub.callback': callback, 'hub.topic': topic, ...extra });

export const unsubscribe = (baseUrl: string, callback: string, topic: string) =>
  hubPost(baseUrl, { 'hub.mode': 'unsubscribe', 'hub.callback': callback, 'hub.topic': topic });

export const publish = (baseUrl: string, topic: string) =>
  hubPost(baseUrl, { 'hub.mode': 'publish', 'hub.url': topic });

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function until(check: () => Promise<boolean> | boolean, what: string, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(25);
  }
}

/** The same store the server uses (a folder, or Redis), read from the test process. */
export function openStore(env: { STORE_DIR?: string; REDIS_URL?: string }): Store {
  return createStore({ dir: env.STORE_DIR ?? '/nonexistent', redisUrl: env.REDIS_URL, redisPrefix: 'roofing-reviews' });
}

export const subscriptionKey = (topicId: string, callback: string) => `websub:sub:${topicId}:${callbackKey(callback)}`;

export async function isSubscribed(store: Store, topicId: string, callback: string): Promise<boolean> {
  return (await store.get(subscriptionKey(topicId, callback))) !== null;
}

/**
 * Makes the hub believe it last distributed other content for every topic: the
 * next publish then notifies, as after a deploy with new reviews (a running
 * server's content cannot change otherwise).
 */
export async function forgetDistributedContent(store: Store): Promise<string> {
  const stale = `stale-${Date.now()}-${Math.random()}`;
  for (const topic of ALL_TOPICS)
    await store.set(`websub:hash:${topic.id}`, { hash: stale, at: 0, generation: 0 } satisfies DistributedHash);
  return stale;
}

/**
 * A deploy with new content for `topic`, published; resolves once the hub has
 * handled it: the new hash is recorded, and the hub records it only after the
 * delivery jobs of every subscription it notifies are written (the outbox).
 */
export async function publishChange(store: Store, baseUrl: string, topic: { id: string; url: string }): Promise<void> {
  const stale = await forgetDistributedContent(store);
  const response = await publish(baseUrl, topic.url);
  if (response.status !== 202) throw new Error(`publish answered ${response.status}`);
  await until(
    async () => (await store.get<{ hash: string }>(`websub:hash:${topic.id}`))?.hash !== stale,
    `the publish of ${topic.id}`,
  );
}

/**
 * Resolves once no delivery job is left for (topic, callback). A job is only
 * removed after its answer came back, so whatever it sent has been recorded by
 * the subscriber: with no job and no subscription, nothing more can arrive.
 */
export async function settled(store: Store, topicId: string, callback: string): Promise<void> {
  await until(
    async () => (await store.get(`websub:job:${topicId}:${callbackKey(callback)}`)) === null,
    `no pending delivery to ${callback}`,
  );
}

/** Waits for a line of the server's output (the hub logs each outcome) to match. */
export async function logged(
  server: { output: () => string },
  pattern: RegExp,
  what: string,
  timeoutMs = 5000,
): Promise<void> {
  await until(() => pattern.test(server.output()), what, timeoutMs);
}

/** The log line of a failed verification of `callback` (the hub logs a prefix of the callback key, never the URL). */
export const notVerified = (mode: 'subscribe' | 'unsubscribe', callback: string) =>
  new RegExp(`websub: ${mode} of ${callbackKey(callback).slice(0, 12)} to \\S+ not verified`);

export const STARTUP_DONE = /websub: start-up publish done/;

export async function websubKeys(store: Store): Promise<string[]> {
  return store.keys('websub:');
}

/** A TCP port free right now on 127.0.0.1. */
export async function freePort(): Promise<number> {
  const { createServer } = await import('node:net');
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as import('node:net').AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

export interface HubFixtureOptions {
  /** The folder of the store: a temporary one named from this prefix, or the one the function gives. */
  storeDir: string | (() => string);
  /** Settings over hubEnv's (a function is called when the server's environment is made, after the store folder). */
  env?: Record<string, string> | (() => Promise<Record<string, string>>);
  /** Starts a server on this build with `env`; without one the test starts (and stops) its own servers with `env`. */
  build?: BuildName;
}

export interface HubFixture {
  certs: TestCerts;
  sub: TestSubscriber;
  storeDir: string;
  env: Record<string, string>;
  /** Undefined unless `build` was given. */
  server: RunningServer;
  store: Store;
}

/**
 * What a hub test through the real server sets up: test certificates, a
 * subscriber, a store folder, the server's environment (hubEnv), the server
 * (with `build`) and the store it uses, opened from the test. The caller
 * registers the two steps, `before(async () => ({ sub, server, store } = await hub.open()))`
 * and `after(() => hub.close())`; `close` undoes whatever `open` got to, in the
 * reverse order: server, subscriber, store, certificates, store folder.
 */
export function hubFixture(options: HubFixtureOptions): {
  open: () => Promise<HubFixture>;
  close: () => Promise<void>;
} {
  const opened: Partial<HubFixture> = {};
  return {
    async open() {
      opened.certs = makeTestCerts();
      opened.sub = await startSubscriber(opened.certs);
      opened.storeDir = typeof options.storeDir === 'string' ? tempDir(options.storeDir) : options.storeDir();
      const extra = typeof options.env === 'function' ? await options.env() : options.env;
      opened.env = hubEnv(opened.certs, opened.storeDir, extra);
      if (options.build) opened.server = await startServer(options.build, opened.env);
      opened.store = openStore({ STORE_DIR: opened.storeDir });
      return opened as HubFixture;
    },
    async close() {
      await opened.server?.stop();
      await opened.sub?.close();
      await opened.store?.close();
      opened.certs?.remove();
      if (opened.storeDir) rmSync(opened.storeDir, { recursive: true, force: true });
    },
  };
}

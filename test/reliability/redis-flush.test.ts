/**
 * Redis losing its data (FLUSHALL on a real redis-server: a restart without
 * persistence, an eviction) — issue 14, item 7:
 * - WebSub: a topic whose last-distributed hash was lost must not have its
 *   next real change swallowed as "first": whoever is subscribed is notified.
 * - MCP: every instance signs and checks 2025 sessions with the one key the
 *   store holds; an instance started after the flush does not leave the
 *   running ones on a key of their own (sessions would 404 across instances).
 */
import assert from 'node:assert/strict';
import { getCACertificates, setDefaultCACertificates } from 'node:tls';
import { after, before, it } from 'node:test';
import { DEFAULT_SITE_URL } from '../../src/lib/config/site.ts';
import { createStore } from '../../src/lib/store/index.ts';
import { DEFAULT_HUB_CONFIG, type HubConfig } from '../../src/lib/websub/config.ts';
import { createHub } from '../../src/lib/websub/hub-handler.ts';
import { HubState } from '../../src/lib/websub/subscriptions.ts';
import { makeTestCerts, type TestCerts } from '../helpers/certs.ts';
import { startServer, type RunningServer } from '../helpers/server.ts';
import { startSubscriber, type TestSubscriber } from '../helpers/subscriber.ts';
import { freePort, initializeRequest, post } from '../mcp/helpers.ts';
import { TOPICS } from '../websub/helpers.ts';
import { startRedisOn, type LocalRedis } from './helpers.ts';

const config: HubConfig = {
  ...DEFAULT_HUB_CONFIG,
  allowLoopback: true,
  requestTimeoutMs: 1500,
  concurrency: 4,
  schedulerIntervalMs: 3_600_000,
};
let redis: LocalRedis;
let certs: TestCerts;
let sub: TestSubscriber;
const closers: Array<() => Promise<void>> = [];

before(async () => {
  redis = await startRedisOn(await freePort());
  certs = makeTestCerts();
  setDefaultCACertificates([...getCACertificates('default'), certs.ca]);
  sub = await startSubscriber(certs);
});
after(async () => {
  for (const close of closers.reverse()) await close();
  await sub?.close();
  certs?.remove();
  await redis?.kill();
});

it('WebSub: after FLUSHALL, the next real change reaches the subscribers (the lost hash does not make it "first")', async () => {
  const store = createStore({ dir: 'unused', redisUrl: redis.url, redisPrefix: 'flush-websub' });
  closers.push(() => store.close());
  let body = Buffer.from('<feed>v1</feed>');
  const hub = createHub({
    site: DEFAULT_SITE_URL,
    store,
    content: async () => ({ body, contentType: 'application/atom+xml' }),
    config,
    log: () => {},
  });
  closers.push(() => hub.close());
  const atom = async () => (await hub.publishChanged()).find((outcome) => outcome.topic === TOPICS.atom.url)!;
  const state = new HubState(store, Date.now);
  const subscribeNow = () =>
    state.putSubscription({
      callback: sub.url('/flushed'),
      topic: TOPICS.atom.url,
      topic_id: 'atom',
      secret: null,
      lease_seconds: 3600,
      verified_at: Date.now(),
      expires_at: Date.now() + 3_600_000,
      failures: 0,
    });

  assert.equal(
    (await atom()).result,
    'recorded',
    'a fresh store with nobody subscribed: the first hash is only recorded',
  );
  assert.equal(redis.cli('FLUSHALL'), 'OK');
  // The subscriber renews (its lease, or it notices the hub lost it) before the next change.
  await subscribeNow();
  body = Buffer.from('<feed>v2</feed>');
  const outcome = await atom();
  assert.equal(outcome.result, 'distributed', `a real change after the flush: ${JSON.stringify(outcome)}`);
  assert.equal(sub.notifications('/flushed').length, 1);
  assert.equal(sub.notifications('/flushed')[0]!.body.toString(), '<feed>v2</feed>');
  // And the hash is recorded again: the same content does not notify twice.
  assert.equal((await atom()).result, 'unchanged');

  // Only the hash lost (an eviction), subscription kept: the change is announced too.
  assert.equal(redis.cli('DEL', 'flush-websub:websub:hash:atom'), '1');
  body = Buffer.from('<feed>v3</feed>');
  assert.equal((await atom()).result, 'distributed');
  assert.equal(sub.notifications('/flushed').length, 2);
});

it('MCP: after FLUSHALL and a new instance, every instance agrees on one session key', async () => {
  const env = { REDIS_URL: redis.url, REDIS_PREFIX: 'flush-mcp' };
  const a = await startServer('small', env);
  closers.push(() => a.stop());
  const initializeOn = async (server: RunningServer) => {
    const reply = await post(`${server.url}/mcp`, initializeRequest('2025-06-18'));
    assert.equal(reply.status, 200, reply.text);
    return reply.headers.get('mcp-session-id')!;
  };
  const useOn = async (server: RunningServer, sessionId: string) =>
    (
      await post(
        `${server.url}/mcp`,
        { jsonrpc: '2.0', id: 2, method: 'tools/list' },
        { 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-06-18' },
      )
    ).status;

  const before = await initializeOn(a);
  assert.equal(await useOn(a, before), 200);
  assert.equal(redis.cli('FLUSHALL'), 'OK');
  // A new instance starts on the emptied store and stores a key of its own.
  const b = await startServer('small', env);
  closers.push(() => b.stop());
  const onA = await initializeOn(a);
  const onB = await initializeOn(b);
  assert.equal(await useOn(b, onA), 200, 'a session made on the old instance works on the new one');
  assert.equal(await useOn(a, onB), 200, 'a session made on the new instance works on the old one');
  assert.equal(await useOn(a, onA), 200);
  assert.equal(await useOn(b, onB), 200);
  // The session made before the flush either lives on everywhere or nowhere: never on one instance only.
  assert.equal(await useOn(a, before), await useOn(b, before));
  assert.match(a.output(), /mcp: the session key in the store at "mcp:session-key" changed; adopting it/);
});

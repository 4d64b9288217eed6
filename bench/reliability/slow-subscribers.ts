/**
 * 1,000 HTTPS subscribers (test/helpers/subscriber.ts on loopback, test CA),
 * one publish each round through the real Node server with its default
 * settings (64 requests in flight, 10 s deadline). First every subscriber
 * answers at once: the all-healthy time. Then 10 % never answer and 5 %
 * answer after 30 s. Must hold: the healthy 85 % are all delivered within
 * 2 × the all-healthy time.
 *
 *   node_modules/.bin/node bench/reliability/slow-subscribers.ts [--subscribers 1000]
 */
import { parseArgs } from 'node:util';
import { HubState } from '../../src/lib/websub/subscriptions.ts';
import { startServer } from '../../test/helpers/server.ts';
import type { NotifyBehaviour } from '../../test/helpers/subscriber.ts';
import { hubFixture, publishChange, TOPICS } from '../../test/websub/helpers.ts';
import { recordServedHash, requireBuilds, verdicts, waitUntil } from './lib/scenario.ts';

const { values } = parseArgs({ options: { subscribers: { type: 'string', default: '1000' } } });
const count = Number(values.subscribers);
requireBuilds('small');
const v = verdicts(`${count} HTTPS subscribers, 10 % never answer, 5 % answer after 30 s`);

// The hub's own defaults for what is measured (deadline, concurrency); retries pushed out of the way.
const hub = hubFixture({
  storeDir: 'reliability-slow-subs-',
  env: { WEBSUB_TIMEOUT_MS: '10000', WEBSUB_RETRY_DELAYS: '600', WEBSUB_SCHEDULER_INTERVAL_MS: '15000' },
});
const { sub, env, store } = await hub.open();
const server = await startServer('small', env);
const topic = TOPICS.reviews;
const paths = Array.from({ length: count }, (_, i) => `/s/${i}`);
// Spread through the list, as real bad subscribers would be: every 20 subscribers, 2 never answer and 1 is late.
const behaviourOf = (i: number): NotifyBehaviour => (i % 20 < 2 ? 'hang' : i % 20 === 2 ? 'late' : 'ok');

try {
  const state = new HubState(store, Date.now);
  const now = Date.now();
  for (const path of paths) {
    await state.putSubscription({
      callback: sub.url(path),
      topic: topic.url,
      topic_id: topic.id,
      secret: null,
      lease_seconds: 86_400,
      verified_at: now,
      expires_at: now + 86_400_000,
      failures: 0,
    });
  }
  await recordServedHash(state, 'small', topic);

  const outboxMs: number[] = [];
  /** One publish; ms from the publish to the last notification of `expected` paths (null if not all came in `limitMs`). */
  const round = async (expected: string[], limitMs: number): Promise<number | null> => {
    sub.clear();
    const started = Date.now();
    await publishChange(store, server.url, topic);
    outboxMs.push(Date.now() - started);
    const wanted = new Set(expected);
    const done = await waitUntil(
      () =>
        new Set(
          sub
            .requests()
            .filter((r) => r.method === 'POST' && wanted.has(r.path))
            .map((r) => r.path),
        ).size === wanted.size,
      limitMs,
    );
    if (!done) return null;
    return (
      Math.max(
        ...sub
          .requests()
          .filter((r) => r.method === 'POST' && wanted.has(r.path))
          .map((r) => r.at),
      ) - started
    );
  };

  await round(paths, 60_000); // warm-up: JIT, TLS
  const healthyRuns: number[] = [];
  for (let i = 0; i < 2; i++) {
    const ms = await round(paths, 60_000);
    if (ms === null) throw new Error('the all-healthy round did not deliver to everyone in 60 s');
    healthyRuns.push(ms);
  }
  const healthyMs = Math.min(...healthyRuns);
  v.figure('all healthy', `${count} delivered in ${healthyRuns.join(', ')} ms (best ${healthyMs} ms)`);

  paths.forEach((path, i) => sub.set(path, { notify: behaviourOf(i) }));
  const healthy = paths.filter((_, i) => behaviourOf(i) === 'ok');
  const mixedMs = await round(healthy, 120_000);
  const slots = sub
    .requests()
    .filter((r) => r.method === 'POST' && r.path !== undefined && behaviourOf(Number(r.path.split('/')[2])) !== 'ok');
  v.figure(
    'with bad subscribers',
    `${healthy.length} healthy delivered in ${mixedMs ?? '> 120000'} ms; ${slots.length} requests reached the ${count - healthy.length} bad ones by then`,
  );
  v.figure(
    'publish to outbox written (one job per subscription, then the hash)',
    `${outboxMs.join(', ')} ms per round`,
  );
  v.check(
    'healthy ones delivered within 2 × the all-healthy time',
    mixedMs !== null && mixedMs <= 2 * healthyMs,
    `${mixedMs ?? '> 120000'} ms against 2 × ${healthyMs} ms`,
  );
} finally {
  await server.stop();
  await hub.close();
}
v.finish();

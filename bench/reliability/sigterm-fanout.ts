/**
 * SIGTERM in the middle of a fan-out: 400 HTTPS
 * subscribers on the file store, 10 % of them never answering; a publish
 * through the real Node server with its defaults (64 requests in flight, 10 s
 * deadline, 12 s shutdown grace); SIGTERM once 50 notifications have arrived.
 *
 * Must hold: the server stops accepting connections at once; it exits within
 * its grace (SHUTDOWN_GRACE_MS, plus 2 s for the store to close and the
 * process to end); every subscriber was either delivered to or still has its
 * delivery job in the store (durably queued); after a restart on the same
 * store every one is delivered to, and no subscriber that had answered before
 * the SIGTERM gets the change twice.
 *
 *   node_modules/.bin/node bench/reliability/sigterm-fanout.ts [--subscribers 400]
 */
import { request } from 'node:http';
import { parseArgs } from 'node:util';
import { SHUTDOWN_GRACE_MS } from '../../src/server.ts';
import { HubState, callbackKey } from '../../src/lib/websub/subscriptions.ts';
import { startServer, type RunningServer } from '../../test/helpers/server.ts';
import { hubFixture, publishChange, TOPICS } from '../../test/websub/helpers.ts';
import { recordServedHash, requireBuilds, verdicts, waitUntil } from './lib/scenario.ts';

const { values } = parseArgs({ options: { subscribers: { type: 'string', default: '400' } } });
const count = Number(values.subscribers);
requireBuilds('small');
const v = verdicts(`SIGTERM during a fan-out to ${count} HTTPS subscribers (10 % never answer)`);

// The hub's defaults for what is measured; the retry after the restart 2 s out, not 60.
const hub = hubFixture({
  storeDir: 'reliability-sigterm-',
  env: { WEBSUB_TIMEOUT_MS: '10000', WEBSUB_RETRY_DELAYS: '2', WEBSUB_SCHEDULER_INTERVAL_MS: '500' },
});
const { sub, env, store } = await hub.open();
const topic = TOPICS.reviews;
const paths = Array.from({ length: count }, (_, i) => `/t/${i}`);
const hangs = (i: number) => i % 10 === 0;
let server: RunningServer | undefined;

/** Whether a new TCP connection to the port is accepted (any answer at all). */
const accepts = (port: number) =>
  new Promise<boolean>((resolveAccepts) => {
    const req = request({ host: '127.0.0.1', port, path: '/reviews.json', agent: false, timeout: 2000 }, (res) => {
      res.resume();
      resolveAccepts(true);
    });
    req.on('error', () => resolveAccepts(false));
    req.on('timeout', () => req.destroy());
    req.end();
  });

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
  paths.forEach((path, i) => sub.set(path, { notify: hangs(i) ? 'hang' : 'ok' }));
  await recordServedHash(state, 'small', topic);
  server = await startServer('small', env);
  const { port } = server;
  const exited = new Promise<number>((resolveExit) => server!.process.once('exit', () => resolveExit(Date.now())));

  await publishChange(store, server.url, topic);
  await waitUntil(() => sub.requests().filter((r) => r.method === 'POST').length >= 50, 30_000);
  const termAt = Date.now();
  const beforeTerm = new Set(
    sub
      .requests()
      .filter((r) => r.method === 'POST')
      .map((r) => r.path),
  );
  server.process.kill('SIGTERM');
  await new Promise((resolveWait) => setTimeout(resolveWait, 300));
  const stillAccepting = await accepts(port);
  const exitAt = await exited;
  const log = server.output();
  server = undefined;

  const delivered = new Set(
    sub
      .requests()
      .filter((r) => r.method === 'POST' && !hangs(Number(r.path.split('/')[2])))
      .map((r) => r.path),
  );
  const pendingJobs = new Set((await store.keys(`websub:job:${topic.id}:`)).map((key) => key.split(':').at(-1)!));
  const neither = paths.filter((path) => !delivered.has(path) && !pendingJobs.has(callbackKey(sub.url(path))));
  v.figure('at SIGTERM', `${beforeTerm.size} notifications received`);
  v.figure(
    'at exit',
    `${delivered.size} healthy subscribers delivered, ${pendingJobs.size} delivery jobs in the store, exit ${exitAt - termAt} ms after SIGTERM`,
  );
  v.check(
    'stops accepting connections',
    !stillAccepting,
    stillAccepting
      ? 'a new connection 300 ms after SIGTERM was answered'
      : 'new connections refused 300 ms after SIGTERM',
  );
  const graceMs = SHUTDOWN_GRACE_MS + 2000;
  v.check(
    'exits within its grace',
    exitAt - termAt <= graceMs,
    `${exitAt - termAt} ms (grace ${SHUTDOWN_GRACE_MS} ms + 2 s)`,
  );
  v.check(
    'every delivery finished or durably queued',
    neither.length === 0,
    neither.length === 0
      ? 'all'
      : `${neither.length} neither delivered nor queued, e.g. ${neither.slice(0, 5).join(', ')}`,
  );
  const logFailures = log
    .split('\n')
    .filter((line) => /failed|Error/.test(line) && !/delivery|not verified/.test(line));
  v.figure('server log at shutdown', logFailures.length === 0 ? 'nothing failed' : logFailures.slice(0, 3).join(' | '));

  // After a restart on the same store, the queued ones are delivered (the ones that hung now answer).
  paths.forEach((path) => sub.set(path, { notify: 'ok' }));
  const mark = sub.requests().length;
  server = await startServer('small', env);
  const all = await waitUntil(
    () =>
      new Set(
        sub
          .requests()
          .filter((r) => r.method === 'POST')
          .map((r) => r.path),
      ).size === count,
    60_000,
  );
  await waitUntil(async () => (await store.keys(`websub:job:${topic.id}:`)).length === 0, 30_000);
  const again = sub
    .requests()
    .slice(mark)
    .filter((r) => r.method === 'POST' && delivered.has(r.path));
  v.check(
    'everyone delivered after the restart',
    all,
    `${
      new Set(
        sub
          .requests()
          .filter((r) => r.method === 'POST')
          .map((r) => r.path),
      ).size
    } of ${count}`,
  );
  v.check('nobody that answered before the stop gets it twice', again.length === 0, `${again.length} repeated`);
} finally {
  await server?.stop();
  await hub.close();
}
v.finish();

/**
 * 20 cycles of kill -9 during a burst of subscriptions and a publish, each
 * followed by a restart on the same folder store (issue 14, the suite).
 * Every cycle: start the real Node server, let it deliver what is due (the
 * start-up publish and the jobs the last kill left), then send a burst of
 * subscribes to new HTTPS callbacks and a publish of changed content at
 * once, and SIGKILL the server 0–500 ms after its first request to a subscriber.
 *
 * Must hold: no subscription that was in the store before a kill is missing
 * after it; every subscriber that was subscribed when a cycle's publish came
 * gets that change exactly once (before the kill or after the restart),
 * newer ones at most once; every job the kill left pending is delivered after
 * the restart; no corrupt file (every value file parses, nothing moved aside,
 * nothing logged as unreadable).
 *
 *   node_modules/.bin/node bench/reliability/kill-cycles.ts [--cycles 20] [--burst 15]
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { callbackKey } from '../../src/lib/websub/subscriptions.ts';
import { startServer, type RunningServer } from '../../test/helpers/server.ts';
import { ALL_TOPICS, forgetDistributedContent, hubFixture, publish, STARTUP_DONE, subscribe, TOPICS } from '../../test/websub/helpers.ts';
import { requireBuilds, sleep, verdicts, waitUntil } from './lib/scenario.ts';

const { values } = parseArgs({ options: { cycles: { type: 'string', default: '20' }, burst: { type: 'string', default: '15' } } });
const cycles = Number(values.cycles);
const burst = Number(values.burst);
requireBuilds('small');
const v = verdicts(`${cycles} kill -9 cycles during subscription bursts (${burst}) and a publish, file store`);

const hub = hubFixture({ storeDir: 'reliability-kill-', env: { WEBSUB_TIMEOUT_MS: '3000' } });
const { sub, storeDir, env, store } = await hub.open();
const topic = TOPICS.reviews;
const subscriptionKeys = async () => new Set((await store.keys(`websub:sub:${topic.id}:`)).map((key) => key.split(':').at(-1)!));
const jobKeys = async () => new Set((await store.keys(`websub:job:${topic.id}:`)).map((key) => key.split(':').at(-1)!));
/** Notifications per callback key among the subscriber's requests from index `from` on. */
const notificationsSince = (from: number) => {
  const counts = new Map<string, number>();
  for (const request of sub.requests().slice(from)) {
    if (request.method !== 'POST') continue;
    const key = callbackKey(sub.url(request.path));
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return counts;
};

const problems = { lost: [] as string[], missed: [] as string[], doubled: [] as string[], undelivered: [] as string[] };
const kills: string[] = [];
let logs = '';
let server: RunningServer | undefined;

/**
 * Every topic's change distributed: forgetDistributedContent writes `at: 0`, a publish records its time. A change the
 * killed process had claimed but not recorded is turned away by its claim at the restart ('elsewhere') and published
 * by the restarted hub's sweep once that claim can have expired (121 s + one scheduler interval): waited for here,
 * or that cycle's earlier subscribers would be counted as missed before their notification could come.
 */
const allRecorded = async () => (await Promise.all(ALL_TOPICS.map((t) => store.get<{ at: number }>(`websub:hash:${t.id}`)))).every((hash) => (hash?.at ?? 0) > 0);

/** Starts the server and waits until the start-up publish is done, every change is recorded and no delivery is pending. */
async function startAndDrain(label: string): Promise<number> {
  const started = Date.now();
  server = await startServer('small', env);
  const drained = await waitUntil(async () => STARTUP_DONE.test(server!.output()) && (await allRecorded()) && (await jobKeys()).size === 0, 200_000);
  if (!drained) throw new Error(`${label}: changes unrecorded or deliveries pending 200 s after the restart (${(await jobKeys()).size} jobs)`);
  return Date.now() - started;
}

try {
  let previous: { cycle: number; mark: number; before: Set<string>; pending: Set<string>; afterKill: number; reached: Set<string> } | undefined;
  const drainTimes: number[] = [];
  for (let cycle = 0; cycle <= cycles; cycle++) {
    drainTimes.push(await startAndDrain(`cycle ${cycle}`));
    if (previous) {
      // What the last cycle's publish and burst led to, before its kill and after this restart.
      const got = notificationsSince(previous.mark);
      const afterRestart = notificationsSince(previous.afterKill);
      for (const key of previous.before) {
        const n = got.get(key) ?? 0;
        if (n === 0) problems.missed.push(`cycle ${previous.cycle}: ${key.slice(0, 8)}`);
        // A job still pending at the kill whose request had reached the subscriber: sent and answered, not yet marked done.
        if (n > 1) problems.doubled.push(`cycle ${previous.cycle}: ${key.slice(0, 8)} ×${n}${previous.pending.has(key) && previous.reached.has(key) ? ' (answered before the kill, job still pending)' : ''}`);
      }
      for (const [key, n] of got) if (!previous.before.has(key) && n > 1) problems.doubled.push(`cycle ${previous.cycle}: new ${key.slice(0, 8)} ×${n}`);
      for (const key of previous.pending) if (!afterRestart.has(key)) problems.undelivered.push(`cycle ${previous.cycle}: ${key.slice(0, 8)}`);
    }
    if (cycle === cycles) break;

    const before = await subscriptionKeys();
    const mark = sub.requests().length;
    await forgetDistributedContent(store);
    const callbacks = Array.from({ length: burst }, (_, i) => sub.url(`/c${cycle}/s${i}`));
    const fired = [...callbacks.map((callback) => subscribe(server!.url, callback, topic.url)), publish(server!.url, topic.url)].map((request) => request.catch(() => null));
    // The kill lands while the hub is at work: once it has sent its first request to a subscriber (a verification or a
    // notification: on a loaded machine that can take a while), then 0–500 ms more.
    const firing = Date.now();
    await waitUntil(() => sub.requests().length > mark, 10_000);
    await sleep(Math.floor(Math.random() * 500));
    const delay = Date.now() - firing;
    const exited = new Promise((resolveExit) => server!.process.once('exit', resolveExit));
    server!.process.kill('SIGKILL');
    await exited;
    logs += server!.output();
    await Promise.all(fired);
    const afterKill = sub.requests().length;
    const after = await subscriptionKeys();
    for (const key of before) if (!after.has(key)) problems.lost.push(`cycle ${cycle}: ${key.slice(0, 8)}`);
    const pending = await jobKeys();
    kills.push(`${delay} ms: ${after.size - before.size} new subscriptions, ${afterKill - mark} requests to subscribers before the kill, ${pending.size} jobs pending`);
    console.log(`      cycle ${cycle}: killed ${kills.at(-1)}`);
    const reached = new Set(notificationsSince(mark).keys());
    previous = { cycle, mark, before, pending, afterKill, reached };
  }
  logs += server!.output();
  await server!.stop();
  server = undefined;
  v.figure('kills', `${kills.length}; restart to all due delivered: median ${[...drainTimes].sort((a, b) => a - b)[Math.floor(drainTimes.length / 2)]} ms, max ${Math.max(...drainTimes)} ms`);
  v.figure('subscriptions at the end', String((await subscriptionKeys()).size));

  // The folder after all of it: every value file whole JSON, nothing moved aside as corrupt.
  const files = (readdirSync(storeDir, { recursive: true }) as string[]).filter((file) => statSync(join(storeDir, file)).isFile());
  const temporary = files.filter((file) => file.endsWith('.tmp'));
  const asides = files.filter((file) => file.includes('.corrupt-'));
  const unreadable = files.filter((file) => !file.endsWith('.tmp') && !file.includes('.corrupt-')).filter((file) => {
    try {
      JSON.parse(readFileSync(join(storeDir, file), 'utf8'));
      return false;
    } catch {
      return true;
    }
  });
  v.figure('store files', `${files.length}, of which ${temporary.length} temporary files left by kills (never read as keys)`);
  v.check('no subscription lost', problems.lost.length === 0, problems.lost.length === 0 ? 'none' : problems.lost.slice(0, 5).join(', '));
  v.check('every change delivered to every earlier subscriber', problems.missed.length === 0, problems.missed.length === 0 ? 'none missed' : `${problems.missed.length} missed: ${problems.missed.slice(0, 5).join(', ')}`);
  v.check('nothing delivered twice', problems.doubled.length === 0, problems.doubled.length === 0 ? 'none' : `${problems.doubled.length}: ${problems.doubled.slice(0, 5).join(', ')}`);
  v.check('due notifications delivered after restart', problems.undelivered.length === 0, problems.undelivered.length === 0 ? 'all' : problems.undelivered.slice(0, 5).join(', '));
  v.check('no corrupt file', unreadable.length === 0 && asides.length === 0 && !/not readable JSON/.test(logs), `${unreadable.length} unreadable, ${asides.length} moved aside${/not readable JSON/.test(logs) ? ', corrupt values logged' : ''}`);
} finally {
  await server?.stop();
  await hub.close();
}
v.finish();

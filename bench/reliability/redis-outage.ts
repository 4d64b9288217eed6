/**
 * Redis stopped (SIGKILL) under load, started again (empty: no persistence),
 * then flushed (FLUSHALL) under load, against the real Node server and a real
 * redis-server (the quick forms are test/reliability/redis-faults.test.ts
 * and redis-flush.test.ts).
 *
 * Load during all of it, from this process: static files, search, hub
 * subscribes (callbacks that verify) and MCP 2025-06-18 initialize, four
 * closed loops each. Must hold: while Redis is gone, the hub and MCP answer
 * 503 store_unavailable within 2.5 s and static files and search keep
 * answering 200; never another 5xx nor a failed connection; once Redis is
 * back the hub and MCP answer again without a restart (same process); a
 * change published after the data was lost (restart, FLUSHALL) reaches the
 * subscribers; an MCP session made before the FLUSHALL still works after it.
 *
 *   node_modules/.bin/node bench/reliability/redis-outage.ts [--down 8]
 */
import { rmSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { makeTestCerts } from '../../test/helpers/certs.ts';
import { startServer } from '../../test/helpers/server.ts';
import { startSubscriber } from '../../test/helpers/subscriber.ts';
import { ACCEPT, initializeRequest } from '../../test/mcp/helpers.ts';
import { startRedisOn, type LocalRedis } from '../../test/reliability/helpers.ts';
import { freePort, hubEnv, openStore, publish, subscribe, tempDir, TOPICS } from '../../test/websub/helpers.ts';
import { requireBuilds, sleep, verdicts, waitUntil } from './lib/scenario.ts';

const { values } = parseArgs({ options: { down: { type: 'string', default: '8' } } });
const downSeconds = Number(values.down);
requireBuilds('small');
const v = verdicts(`Redis stopped for ${downSeconds} s under load, started again, then flushed under load`);
const PROMPT_MS = 2500;

const port = await freePort();
let redis: LocalRedis = await startRedisOn(port);
const certs = makeTestCerts();
const sub = await startSubscriber(certs);
const unusedDir = tempDir('reliability-redis-');
// The load comes from one address: per-client rate limits (tested elsewhere) would answer it 429 and hide what this measures.
const env = {
  ...hubEnv(certs, unusedDir, {
    WEBSUB_TIMEOUT_MS: '3000',
    WEBSUB_SUBSCRIBE_RATE_LIMIT: '1000000000',
    MCP_SESSION_RATE_LIMIT: '1000000000',
  }),
  REDIS_URL: redis.url,
};
delete (env as Record<string, string | undefined>).STORE_DIR;
const server = await startServer('small', env);
const store = openStore({ REDIS_URL: redis.url });
const pid = server.process.pid;

type Kind = 'static' | 'search' | 'hub' | 'mcp';
interface Answer {
  kind: Kind;
  status: number;
  ms: number;
  at: number;
  error?: string;
  body: string;
}
const answers: Answer[] = [];
let running = true;
let n = 0;
const requestOf: Record<Kind, () => Promise<Response>> = {
  static: () => fetch(`${server.url}/reviews.json`),
  search: () => fetch(`${server.url}/api/reviews/search?min_rating=4&limit=5`),
  hub: () => subscribe(server.url, sub.url(`/load/${n++ % 50}`), TOPICS.atom.url),
  mcp: () =>
    fetch(`${server.url}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: ACCEPT },
      body: JSON.stringify(initializeRequest('2025-06-18')),
    }),
};
const loop = async (kind: Kind) => {
  while (running) {
    const started = performance.now();
    try {
      const response = await requestOf[kind]();
      const body = await response.text();
      answers.push({
        kind,
        status: response.status,
        ms: performance.now() - started,
        at: Date.now(),
        body: response.status >= 500 ? body.slice(0, 300) : '',
      });
    } catch (error) {
      answers.push({
        kind,
        status: 0,
        ms: performance.now() - started,
        at: Date.now(),
        error: String(error),
        body: '',
      });
    }
  }
};
const between = (from: number, to: number, kinds: Kind[]) =>
  answers.filter((a) => a.at >= from && a.at < to && kinds.includes(a.kind));
const describe = (list: Answer[]) => {
  const statuses: Record<string, number> = {};
  for (const a of list) statuses[a.status] = (statuses[a.status] ?? 0) + 1;
  const ms = list.map((a) => a.ms).sort((x, y) => x - y);
  return `${list.length} answers ${JSON.stringify(statuses)}, p50 ${(ms[Math.floor(ms.length / 2)] ?? 0).toFixed(0)} ms, max ${(ms.at(-1) ?? 0).toFixed(0)} ms`;
};
/** Whether `callback` gets a notification after a publish of `topic` (whose recorded hash the lost data took along). */
const announced = async (path: string, topic: (typeof TOPICS)[keyof typeof TOPICS]) => {
  const callback = sub.url(path);
  if ((await subscribe(server.url, callback, topic.url)).status !== 202) return 'subscribe refused';
  if (
    !(await waitUntil(
      async () =>
        (await store.keys(`websub:sub:${topic.id}:`)).length > 0 && sub.verifications(path, 'subscribe').length > 0,
      10_000,
    ))
  )
    return 'not subscribed in 10 s';
  await sleep(300);
  const response = await publish(server.url, topic.url);
  if (response.status !== 202) return `publish answered ${response.status}`;
  return (await waitUntil(() => sub.notifications(path).length > 0, 10_000)) ? 'notified' : 'not notified in 10 s';
};

const loops = (['static', 'search', 'hub', 'mcp'] as Kind[]).flatMap((kind) => [
  loop(kind),
  loop(kind),
  loop(kind),
  loop(kind),
]);
try {
  await sleep(4000);
  const killedAt = Date.now();
  await redis.kill();
  await sleep(downSeconds * 1000);
  const restartedAt = Date.now();
  redis = await startRedisOn(port);
  const recovered = await waitUntil(
    () =>
      between(restartedAt, Infinity, ['hub']).some((a) => a.status === 202) &&
      between(restartedAt, Infinity, ['mcp']).some((a) => a.status === 200),
    20_000,
  );
  const recoveryMs = Math.max(
    (between(restartedAt, Infinity, ['hub']).find((a) => a.status === 202)?.at ?? Infinity) - restartedAt,
    (between(restartedAt, Infinity, ['mcp']).find((a) => a.status === 200)?.at ?? Infinity) - restartedAt,
  );
  await sleep(2000);
  // The restart emptied Redis: the recorded hashes are gone, so the next publish must still announce.
  const afterRestart = await announced('/after-restart', TOPICS.reviews);

  // An MCP session of before the flush; FLUSHALL mid-load; it must still answer, and a change must still be announced.
  const init = await fetch(`${server.url}/mcp`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: ACCEPT },
    body: JSON.stringify(initializeRequest('2025-06-18')),
  });
  const sessionId = init.headers.get('mcp-session-id') ?? '';
  await init.text();
  const flushedAt = Date.now();
  redis.cli('FLUSHALL');
  await sleep(1000);
  const tools = await fetch(`${server.url}/mcp`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: ACCEPT,
      'mcp-session-id': sessionId,
      'mcp-protocol-version': '2025-06-18',
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }),
  });
  await tools.text();
  const afterFlush = await announced('/after-flush', TOPICS.jsonFeed);
  running = false;
  await Promise.all(loops);

  const down = [killedAt + PROMPT_MS, restartedAt] as const;
  const storeRoutes = between(...down, ['hub', 'mcp']);
  const readOnly = between(...down, ['static', 'search']);
  v.figure('before the kill', describe(between(0, killedAt, ['static', 'search', 'hub', 'mcp'])));
  v.figure('Redis down: hub + MCP', describe(storeRoutes));
  v.figure('Redis down: static + search', describe(readOnly));
  v.figure('after the restart', describe(between(restartedAt, flushedAt, ['static', 'search', 'hub', 'mcp'])));
  v.figure('after the FLUSHALL', describe(between(flushedAt, Infinity, ['static', 'search', 'hub', 'mcp'])));
  const slowStoreAnswers = between(killedAt, restartedAt, ['hub', 'mcp']).filter((a) => a.ms > PROMPT_MS);
  const wrong = answers.filter(
    (a) => a.status === 0 || (a.status >= 500 && !(a.status === 503 && a.body.includes('store_unavailable'))),
  );
  v.check(
    'prompt 503s while Redis is gone',
    storeRoutes.length > 0 && storeRoutes.every((a) => a.status === 503) && slowStoreAnswers.length === 0,
    `${storeRoutes.filter((a) => a.status === 503).length}/${storeRoutes.length} were 503; ${slowStoreAnswers.length} store-route answers took over ${PROMPT_MS} ms from the kill on`,
  );
  v.check(
    'static files and search unaffected',
    readOnly.length > 0 && readOnly.every((a) => a.status === 200),
    describe(readOnly),
  );
  v.check(
    'no other 5xx, no failed connection',
    wrong.length === 0,
    wrong.length === 0
      ? 'none'
      : `${wrong.length}, first: ${wrong[0]!.kind} ${wrong[0]!.status} ${wrong[0]!.error ?? wrong[0]!.body}`,
  );
  v.check(
    'recovery without a restart',
    recovered && server.process.pid === pid && server.process.exitCode === null,
    recovered
      ? `hub and MCP answering ${recoveryMs} ms after redis-server started again, same process`
      : 'not recovered in 20 s',
  );
  v.check('a change after Redis restarted empty is announced', afterRestart === 'notified', afterRestart);
  v.check('a change after FLUSHALL is announced', afterFlush === 'notified', afterFlush);
  v.check('an MCP session survives FLUSHALL', tools.status === 200, `tools/list answered ${tools.status}`);
  const log = server.output();
  v.figure(
    'server log lines about the store',
    [
      ...new Set(
        log
          .split('\n')
          .filter((line) => /unreachable|reachable again/.test(line))
          .map((line) => line.slice(0, 160)),
      ),
    ].join(' | '),
  );
  v.check(
    'no ioredis error flood, no failed request in the log',
    !/Unhandled error event|request failed/.test(log),
    `${(log.match(/Unhandled error event/g) ?? []).length} unhandled, ${(log.match(/request failed/g) ?? []).length} failed; ${(log.match(/is unreachable/g) ?? []).length} outage line(s)`,
  );
} finally {
  running = false;
  await server.stop();
  await sub.close();
  await store.close();
  await redis.kill();
  certs.remove();
  rmSync(unusedDir, { recursive: true, force: true });
}
v.finish();

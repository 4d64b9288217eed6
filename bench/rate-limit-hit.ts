/**
 * The cost of one rate-limit hit, in-process, no HTTP: the hand-rolled fixed
 * window the hub used before (a counter per client and window in the store:
 * `store.increment`, a locked read-modify-write of a file with the folder
 * store, one EVAL with Redis) against rate-limiter-flexible (RateLimiterMemory
 * on the one-process Node server, RateLimiterRedis when REDIS_URL is set).
 *
 *   node_modules/.bin/node bench/rate-limit-hit.ts [--hits 2000] [--clients 50] [--rounds 3]
 *
 * Starts its own redis-server on a free port (needs `redis-server` on PATH).
 * Hits go round-robin over `--clients` addresses, one at a time (a request
 * waits for its verdict), so the figure is the latency a request pays.
 * Prints µs per hit (median of the rounds) and exits non-zero when a limiter
 * counts wrongly (each client must be refused exactly past its limit).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import { clientKey } from '../src/lib/limits/client-key.ts';
import { createRateLimits } from '../src/lib/limits/rate-limits.ts';
import { createStore } from '../src/lib/store/index.ts';
import type { Store } from '../src/lib/store/store.ts';

const { values } = parseArgs({ options: { hits: { type: 'string', default: '2000' }, clients: { type: 'string', default: '50' }, rounds: { type: 'string', default: '3' } } });
const HITS = Number(values.hits);
const CLIENTS = Number(values.clients);
const ROUNDS = Number(values.rounds);
const WINDOW_SECONDS = 3600;
/** Each client's limit: the last hits of every client are refused, so both verdicts are timed. */
const LIMIT = Math.max(1, Math.floor((HITS / CLIENTS) * 0.8));

type Hit = (address: string) => Promise<boolean>;

/** The pre-change hub limiter (src/lib/websub/rate-limit.ts at ee1b64a), as it counted. */
function storeWindow(store: Store): Hit {
  return async (address) => {
    const window = Math.floor(Date.now() / (WINDOW_SECONDS * 1000));
    return (await store.increment(`websub:rate:subscribe:${window}:${clientKey(address)}`, WINDOW_SECONDS + 1)) <= LIMIT;
  };
}

function flexible(store: Store): Hit {
  const limits = createRateLimits(() => store, { subscribe: { points: LIMIT, windowSeconds: WINDOW_SECONDS } });
  return async (address) => (await limits.hit('subscribe', address)).ok;
}

async function measure(name: string, makeStore: () => Store, makeHit: (store: Store) => Hit): Promise<{ name: string; usPerHit: number }> {
  const figures: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const store = makeStore();
    const hit = makeHit(store);
    const addresses = Array.from({ length: CLIENTS }, (_, i) => `203.0.${round}.${i}`);
    await hit('192.0.2.1'); // connect, load scripts
    const refused = new Map<string, number>();
    const sent = new Map<string, number>();
    const started = performance.now();
    for (let i = 0; i < HITS; i++) {
      const address = addresses[i % CLIENTS]!;
      sent.set(address, (sent.get(address) ?? 0) + 1);
      if (!(await hit(address))) refused.set(address, (refused.get(address) ?? 0) + 1);
    }
    figures.push(((performance.now() - started) * 1000) / HITS);
    await store.close();
    const wrong = addresses.filter((address) => (refused.get(address) ?? 0) !== Math.max(0, (sent.get(address) ?? 0) - LIMIT));
    if (wrong.length > 0) {
      console.error(`${name}: ${wrong.length} client(s) refused a wrong number of times`);
      process.exitCode = 1;
    }
  }
  figures.sort((a, b) => a - b);
  return { name, usPerHit: figures[Math.floor(figures.length / 2)]! };
}

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

const port = await freePort();
const redis = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
const redisUrl = `redis://127.0.0.1:${port}`;
await sleep(300);
const dirs: string[] = [];
const folderStore = () => {
  const dir = mkdtempSync(join(tmpdir(), 'bench-rate-'));
  dirs.push(dir);
  return createStore({ dir, redisPrefix: 'bench' });
};
let prefixes = 0;
const redisStore = () => createStore({ dir: '/nonexistent', redisUrl, redisPrefix: `bench${prefixes++}` });

try {
  const rows = [
    await measure('before: store counter, folder store', folderStore, storeWindow),
    await measure('after: RateLimiterMemory (Node, no REDIS_URL)', folderStore, flexible),
    await measure('before: store counter, Redis (EVAL)', redisStore, storeWindow),
    await measure('after: RateLimiterRedis', redisStore, flexible),
  ];
  console.log(`${HITS} hits over ${CLIENTS} clients, limit ${LIMIT} per client, median of ${ROUNDS} rounds\n`);
  console.log('| limiter | µs per hit |\n| --- | ---: |');
  for (const row of rows) console.log(`| ${row.name} | ${row.usPerHit.toFixed(1)} |`);
} finally {
  redis.kill('SIGTERM');
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
}

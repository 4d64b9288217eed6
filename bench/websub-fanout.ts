/**
 * WebSub fan-out: how fast the hub notifies 1,000 HTTPS subscribers on
 * loopback, against a bare loop of HTTPS POSTs of the same body to the same
 * callbacks with the same concurrency, in the same run; and the peak RSS.
 *
 *   node_modules/.bin/node bench/websub-fanout.ts [--subscribers 1000] [--rounds 3] [--concurrency 64]
 *
 * The subscribers are one HTTPS server in a child process (1,000 callback
 * paths), answering 204. The hub runs in this process with a file store in a
 * temporary folder, exactly as the server builds it (createHub), minus HTTP
 * in front: subscriptions are written straight to the store and a publish
 * with a changed hash starts each round. Both sides open a new TLS
 * connection per request (the hub never reuses sockets: every request is
 * checked and pinned again).
 */
import { fork } from 'node:child_process';
import { rmSync } from 'node:fs';
import { request as httpsRequest, createServer } from 'node:https';
import { getCACertificates, setDefaultCACertificates } from 'node:tls';
import { parseArgs } from 'node:util';
import { createStore } from '../src/lib/store/index.ts';
import { DEFAULT_HUB_CONFIG } from '../src/lib/websub/config.ts';
import { createHub } from '../src/lib/websub/hub.ts';
import { Pool } from '../src/lib/websub/pool.ts';
import { HubState } from '../src/lib/websub/subscriptions.ts';
import { makeTestCerts } from '../test/helpers/certs.ts';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const { values } = parseArgs({
  options: {
    sink: { type: 'string' },
    subscribers: { type: 'string', default: '1000' },
    rounds: { type: 'string', default: '3' },
    concurrency: { type: 'string', default: String(DEFAULT_HUB_CONFIG.concurrency) },
  },
});

// Child mode: the subscribers.
if (values.sink) {
  const { key, cert } = JSON.parse(values.sink) as { key: string; cert: string };
  let received = 0;
  const server = createServer({ key, cert }, (req, res) => {
    req.resume();
    req.on('end', () => {
      received++;
      res.writeHead(204).end();
    });
  });
  server.listen(0, '127.0.0.1', () => process.send!({ port: (server.address() as { port: number }).port }));
  process.on('message', () => process.send!({ received }));
} else {
  await main();
}

async function main() {
  const count = Number(values.subscribers);
  const rounds = Number(values.rounds);
  const concurrency = Number(values.concurrency);
  const certs = makeTestCerts();
  setDefaultCACertificates([...getCACertificates('default'), certs.ca]);
  const sink = fork(import.meta.filename, ['--sink', JSON.stringify({ key: certs.key, cert: certs.cert })], { stdio: 'inherit' });
  const port = await new Promise<number>((resolve) => sink.once('message', (m: { port: number }) => resolve(m.port)));
  const received = () => new Promise<number>((resolve) => { sink.once('message', (m: { received: number }) => resolve(m.received)); sink.send('count'); });

  const dir = mkdtempSync(join(tmpdir(), 'bench-websub-'));
  const store = createStore({ dir, redisPrefix: 'bench' });
  const body = Buffer.from(JSON.stringify({ items: Array.from({ length: 50 }, (_, i) => ({ id: i, text: 'A sturdy new roof, on time and clean. '.repeat(8) })) }));
  const content = async () => ({ body, contentType: 'application/feed+json; charset=utf-8' });
  const config = { ...DEFAULT_HUB_CONFIG, allowLoopback: true, concurrency, schedulerIntervalMs: 3_600_000 };
  const hub = createHub({ site: 'https://reviews.example', store, content, config, log: () => {} });
  const state = new HubState(store, Date.now);
  const topic = hub.topics.byId('json-feed')!;
  const urls = Array.from({ length: count }, (_, i) => `https://127.0.0.1:${port}/subscriber/${i}?id=${i}`);
  for (const url of urls) {
    await state.putSubscription({ callback: url, topic: topic.url, topic_id: topic.id, secret: 'bench-secret', lease_seconds: 86400, verified_at: Date.now(), expires_at: Date.now() + 86_400_000, failures: 0 });
  }
  await state.recordHash(topic.id, 'initial', 0);

  let peakRss = process.memoryUsage().rss;
  const sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage().rss)), 20);

  const bare = async () => {
    const pool = new Pool(concurrency);
    await Promise.all(urls.map((url) => pool.run(() => post(url, body))));
  };
  const viaHub = async () => {
    await state.recordHash(topic.id, `stale-${Math.random()}`, 0);
    const [outcome] = (await hub.publishChanged()).filter((o) => o.topic === topic.url);
    if (outcome?.result !== 'distributed' || outcome.outcomes.some((o) => o !== 'delivered')) throw new Error(`hub round failed: ${JSON.stringify(outcome).slice(0, 300)}`);
  };

  const time = async (run: () => Promise<void>) => {
    const before = await received();
    const started = performance.now();
    await run();
    const seconds = (performance.now() - started) / 1000;
    const got = (await received()) - before;
    if (got !== count) throw new Error(`expected ${count} deliveries, the subscribers got ${got}`);
    return count / seconds;
  };

  await time(bare); // warm-up (TLS, JIT)
  const results = { bare: [] as number[], hub: [] as number[] };
  for (let round = 0; round < rounds; round++) {
    results.bare.push(await time(bare));
    results.hub.push(await time(viaHub));
  }
  clearInterval(sampler);
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  const hubRate = median(results.hub);
  const bareRate = median(results.bare);
  console.log(`subscribers ${count}, concurrency ${concurrency}, body ${body.length} B, rounds ${rounds} (median)`);
  console.log(`bare HTTPS POST loop: ${bareRate.toFixed(0)} deliveries/s   (${results.bare.map((r) => r.toFixed(0)).join(', ')})`);
  console.log(`hub fan-out:          ${hubRate.toFixed(0)} deliveries/s   (${results.hub.map((r) => r.toFixed(0)).join(', ')})`);
  console.log(`ratio hub / bare:     ${(hubRate / bareRate).toFixed(2)}`);
  console.log(`peak RSS (hub process): ${(peakRss / 1024 / 1024).toFixed(0)} MiB (maxRSS ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MiB)`);

  await hub.close();
  await store.close();
  sink.kill();
  certs.remove();
  rmSync(dir, { recursive: true, force: true });
}

function post(url: string, body: Buffer): Promise<void> {
  return new Promise((resolve, reject) => {
    const req = httpsRequest(url, { method: 'POST', agent: false, headers: { 'content-type': 'application/feed+json; charset=utf-8', 'content-length': String(body.length) } }, (res) => {
      res.resume();
      res.on('end', () => (res.statusCode === 204 ? resolve() : reject(new Error(`status ${res.statusCode}`))));
    });
    req.setTimeout(10_000, () => req.destroy(new Error('timeout')));
    req.on('error', reject);
    req.end(body);
  });
}

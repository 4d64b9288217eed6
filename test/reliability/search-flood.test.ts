/**
 * A flood of never-seen searches from one client does not starve the others.
 * On the 10k-review build, one client (a worker thread, so its own work does
 * not delay the measuring client's) sends new text queries on many
 * connections at once without pause; meanwhile another client's searches,
 * repeated and new, and its fetches of the dataset keep answering quickly,
 * and the flooder is answered 429 for most of its searches. Without the
 * limit (SEARCH_MISS_RATE_LIMIT=off) every flood request is a scan of every
 * review, and the other client's requests wait behind them.
 *
 * The clients are told apart by X-Forwarded-For, believed from loopback
 * (TRUST_PROXY=loopback), as a proxy in front would send it. The limit's
 * other paths and settings: search-limits.test.ts.
 *
 * A latency bound on two cores holds only when no other test file shares
 * them: scripts/run-tests.ts runs this file alone.
 */
import assert from 'node:assert/strict';
import { Worker } from 'node:worker_threads';
import { before, describe, it } from 'node:test';
import type { RunningServer } from '../helpers/server.ts';
import { asClient, FLOODER, OTHER, startBehindProxy } from './behind-proxy.ts';

/** Flood requests in flight at once. */
const FLOOD_CONNECTIONS = 128;
const FLOOD_MS = 6_000;
/** The other client's p99 latency while the flood runs. */
const P99_BOUND_MS = 250;

/**
 * The flooder: FLOOD_CONNECTIONS loops, each sending a new search as soon as
 * the last one answered (a client that ignores Retry-After). Half the queries
 * match many reviews (a common fragment, each with its own limit and end
 * date), half match none; every one is a text query not asked before.
 */
const FLOOD_WORKER = `
const { workerData, parentPort } = require('node:worker_threads');
const { url, address, connections, durationMs } = workerData;
const fragments = ['the', 'roo', 'ing', 'an', 'er', 're', 'on', 'at', 'st', 'en'];
const statuses = {};
let next = 0;
const end = Date.now() + durationMs;
async function loop() {
  while (Date.now() < end) {
    const i = next++;
    const query = i % 2 === 0
      ? 'query=' + fragments[(i >> 1) % 10] + '&limit=' + (1 + ((i >> 1) / 10 | 0) % 100) + '&until=' + new Date(Date.UTC(2030, 0, 1) - ((i >> 1) / 1000 | 0) * 86400000).toISOString().slice(0, 10)
      : 'query=zq' + i.toString(36);
    try {
      const response = await fetch(url + '/api/reviews/search?' + query, { headers: { 'x-forwarded-for': address } });
      await response.arrayBuffer();
      statuses[response.status] = (statuses[response.status] ?? 0) + 1;
    } catch (error) {
      statuses.error = (statuses.error ?? 0) + 1;
    }
  }
}
Promise.all(Array.from({ length: connections }, loop)).then(() => parentPort.postMessage({ statuses, sent: next }));
`;

function flood(url: string, durationMs: number): Promise<{ statuses: Record<string, number>; sent: number }> {
  const worker = new Worker(FLOOD_WORKER, {
    eval: true,
    workerData: { url, address: FLOODER, connections: FLOOD_CONNECTIONS, durationMs },
  });
  return new Promise((resolveFlood, reject) => {
    worker.once('message', (result) => {
      resolveFlood(result);
      void worker.terminate();
    });
    worker.once('error', reject);
  });
}

interface Sample {
  kind: 'seen search' | 'new search' | 'dataset';
  status: number;
  /** Until the answer began (status and headers): how long the request waited for the server. */
  ms: number;
  /** Until the whole body was read (5.6 MB for the dataset, shared with the flood's bytes). */
  bodyMs: number;
}

/** The other client: repeated searches, about five new ones a second (within its own limit) and the dataset, one at a time. */
async function otherClient(url: string, seen: string[], untilMs: number): Promise<Sample[]> {
  const samples: Sample[] = [];
  const cycle: Array<Sample['kind']> = [
    'seen search',
    'new search',
    'seen search',
    'dataset',
    'seen search',
    'seen search',
  ];
  for (let i = 0; Date.now() < untilMs; i++) {
    const kind = cycle[i % cycle.length]!;
    const path =
      kind === 'dataset'
        ? '/reviews.json'
        : `/api/reviews/search?${kind === 'seen search' ? seen[i % seen.length] : `query=crew&limit=${1 + (i % 100)}&since=2021-0${1 + (i % 9)}-01`}`;
    const started = performance.now();
    const response = await fetch(url + path, { headers: asClient(OTHER) });
    const ms = performance.now() - started;
    await response.arrayBuffer();
    samples.push({ kind, status: response.status, ms, bodyMs: performance.now() - started });
    await new Promise((wait) => setTimeout(wait, 30));
  }
  return samples;
}

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
};

describe('a flood of never-seen searches from one client (10k reviews)', () => {
  let server: RunningServer;
  const seen = [
    'query=roof',
    'query=leak&limit=50',
    'rating=5',
    'query=gutter&min_rating=4',
    'mentions_service=gutters&limit=100',
    'query=estimate',
  ];

  before(async () => {
    server = await startBehindProxy('large', {});
    for (const search of seen)
      assert.equal(
        (await fetch(`${server.url}/api/reviews/search?${search}`, { headers: asClient(OTHER) })).status,
        200,
      );
    await (await fetch(`${server.url}/reviews.json`)).arrayBuffer();
  });

  it('the other client keeps answering within the bound, every time, while the flooder is answered 429', async () => {
    const flooding = flood(server.url, FLOOD_MS);
    // The flood's first second: the flooder spends its burst and the queue fills.
    await new Promise((wait) => setTimeout(wait, 500));
    const samples = await otherClient(server.url, seen, Date.now() + FLOOD_MS - 1_000);
    const { statuses, sent } = await flooding;

    const figures = Object.fromEntries(
      (['seen search', 'new search', 'dataset'] as const).map((kind) => {
        const ms = samples.filter((s) => s.kind === kind).map((s) => s.ms);
        const bodyMs = samples.filter((s) => s.kind === kind).map((s) => s.bodyMs);
        return [
          kind,
          {
            n: ms.length,
            p50: Math.round(percentile(ms, 50)),
            p99: Math.round(percentile(ms, 99)),
            bodyP99: Math.round(percentile(bodyMs, 99)),
          },
        ];
      }),
    );
    const all = samples.map((s) => s.ms);
    console.log(
      `flood: ${sent} requests in ${FLOOD_MS} ms, statuses ${JSON.stringify(statuses)}; other client: ${JSON.stringify(figures)}, all p99 ${Math.round(percentile(all, 99))} ms`,
    );

    assert.deepEqual(
      [...new Set(samples.map((s) => s.status))],
      [200],
      'every request of the other client is answered 200',
    );
    assert.ok(
      percentile(all, 99) < P99_BOUND_MS,
      `the other client's p99 is ${Math.round(percentile(all, 99))} ms (bound ${P99_BOUND_MS} ms): ${JSON.stringify(figures)}`,
    );
    assert.ok(samples.length >= 30, `the other client made ${samples.length} requests`);
    assert.ok((statuses['429'] ?? 0) > 0, `the flooder is refused: ${JSON.stringify(statuses)}`);
    assert.ok(
      Object.keys(statuses).every((status) => status === '200' || status === '429'),
      `only 200 and 429, never a 5xx: ${JSON.stringify(statuses)}`,
    );
    // Its burst (30) and ten a second, with a second's slack for the window's edges.
    assert.ok(
      (statuses['200'] ?? 0) <= 30 + 10 * (FLOOD_MS / 1000 + 1),
      `the flooder had ${statuses['200']} searches answered`,
    );
  });

  it('limited, the flooder is told why and for how long, and its repeated searches still answer', async () => {
    // Spend whatever the bucket refilled since the flood.
    let limited: Response | undefined;
    for (let i = 0; i < 100 && !limited; i++) {
      const response = await fetch(`${server.url}/api/reviews/search?query=after${i}`, { headers: asClient(FLOODER) });
      if (response.status === 429) limited = response;
      else await response.arrayBuffer();
    }
    assert.ok(limited, 'a 429 within 100 new searches');
    assert.equal(limited.headers.get('content-type'), 'application/json; charset=utf-8');
    assert.equal(limited.headers.get('cache-control'), 'no-store');
    assert.ok(Number(limited.headers.get('retry-after')) >= 1);
    const body = await limited.json();
    assert.equal(body.error, 'rate_limited');
    assert.match(body.message, /try again in \d+ s/);
    assert.deepEqual(Object.keys(body).sort(), ['error', 'message'], 'the MessageError shape');
    const documented = (await (await fetch(`${server.url}/openapi.json`)).json()).paths['/api/reviews/search'].get
      .responses['429'];
    assert.deepEqual(
      documented.content['application/json'].schema,
      { $ref: '#/components/schemas/MessageError' },
      'the 429 is documented',
    );
    assert.ok(documented.headers['Retry-After']);
    for (const search of seen)
      assert.equal(
        (await fetch(`${server.url}/api/reviews/search?${search}`, { headers: asClient(FLOODER) })).status,
        200,
        `cached: ${search}`,
      );
    // Another spelling of a cached query is the same answer: not counted either.
    assert.equal(
      (await fetch(`${server.url}/api/reviews/search?limit=20&query=roof`, { headers: asClient(FLOODER) })).status,
      200,
    );
    // A malformed query is the 400 it always was, not a 429.
    assert.equal((await fetch(`${server.url}/api/reviews/search?limit=0`, { headers: asClient(FLOODER) })).status, 400);
    // After Retry-After, new searches answer again.
    await new Promise((wait) => setTimeout(wait, Number(limited!.headers.get('retry-after')) * 1000));
    assert.equal(
      (await fetch(`${server.url}/api/reviews/search?query=later`, { headers: asClient(FLOODER) })).status,
      200,
    );
  });
});

/**
 * The delivery pool: bounded concurrency, where a task that keeps its slot
 * past lagAfterMs (a subscriber that does not answer) hands it on.
 */
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { Pool } from '../../src/lib/websub/pool.ts';

const never = () => new Promise<void>(() => {});

it('runs at most `size` tasks at once, the rest in order', async () => {
  const pool = new Pool(2);
  let running = 0;
  let peak = 0;
  const order: number[] = [];
  await Promise.all(
    [0, 1, 2, 3, 4].map((n) =>
      pool.run(async () => {
        peak = Math.max(peak, ++running);
        await sleep(10);
        order.push(n);
        running--;
      }),
    ),
  );
  assert.equal(peak, 2);
  assert.deepEqual(order, [0, 1, 2, 3, 4]);
});

it('a task unanswered past lagAfterMs gives its slot to the next one; without the option it keeps it', async () => {
  const lagging = new Pool(2, { lagAfterMs: 30 });
  void lagging.run(never);
  void lagging.run(never);
  const started = performance.now();
  await lagging.run(async () => {});
  assert.ok(performance.now() - started < 1000, 'the healthy task ran once the silent ones lagged');

  const strict = new Pool(2);
  void strict.run(never);
  void strict.run(never);
  const ran = await Promise.race([strict.run(async () => 'ran'), sleep(200, 'waiting')]);
  assert.equal(ran, 'waiting');
});

it('at most maxLaggards lag at once: past that, a silent task keeps its slot', async () => {
  const pool = new Pool(1, { lagAfterMs: 20, maxLaggards: 1 });
  void pool.run(never); // lags after 20 ms, freeing the slot
  void pool.run(never); // takes the slot, and cannot lag: one laggard already
  await sleep(100);
  const ran = await Promise.race([pool.run(async () => 'ran'), sleep(200, 'waiting')]);
  assert.equal(ran, 'waiting');
});

it('a laggard that finishes makes room for another', async () => {
  const pool = new Pool(1, { lagAfterMs: 20, maxLaggards: 1 });
  let finish!: () => void;
  const first = pool.run(() => new Promise<void>((resolve) => (finish = resolve)));
  await sleep(60); // first lags
  const second = pool.run(never); // takes the slot
  await sleep(60);
  finish();
  await first;
  await sleep(60); // the second can lag now
  assert.equal(await pool.run(async () => 'ran'), 'ran');
  void second;
});

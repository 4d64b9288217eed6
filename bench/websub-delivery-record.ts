/**
 * What a delivery's 2xx costs before it is on record, on the folder store (issue 14,
 * kill-cycles): a kill -9 in that time is the one window in which a change is sent
 * twice (docs/websub.md). Times, one after another on one folder:
 *
 * - record: `HubState.recordDelivered`'s write (an atomic, fsync'd file): the window;
 * - finish: `finishJob`, a compare-and-delete under the key's lock (after the record,
 *   so outside the window);
 * - finish before: the old `finishJob`, a read then a remove (not atomic).
 *
 * In process, on a temporary folder in .test-builds (the disk the tests use).
 *
 *   node_modules/.bin/node bench/websub-delivery-record.ts [--count 200]
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { fileStore } from '../src/lib/store/file-store.ts';
import { HubState, type DeliveryJob } from '../src/lib/websub/subscriptions.ts';
import { TEST_BUILDS_DIR } from '../test/helpers/builds.ts';

const { values } = parseArgs({ options: { count: { type: 'string', default: '200' } } });
const count = Number(values.count);
mkdirSync(TEST_BUILDS_DIR, { recursive: true });
const dir = mkdtempSync(resolve(TEST_BUILDS_DIR, 'bench-record-'));
const store = fileStore(dir, Date.now);
const state = new HubState(store, Date.now);
const times = { record: [] as number[], finish: [] as number[], 'finish before': [] as number[] };
const timed = async (into: number[], step: () => Promise<unknown>) => {
  const start = performance.now();
  await step();
  into.push(performance.now() - start);
};
const cpu = process.cpuUsage();
try {
  for (let i = 0; i < count; i++) {
    const job: DeliveryJob = { id: `job-${i}`, topic_id: 'reviews', callback_key: `key-${i}`, due_at: 0, version: 'v1' };
    await state.putJob(job);
    await timed(times.record, () => state.recordDelivered(job, 30 * 24 * 3600));
    await timed(times.finish, () => state.finishJob(job));
    await state.putJob(job);
    await timed(times['finish before'], async () => {
      if ((await state.getJob(job.topic_id, job.callback_key))?.id === job.id) await store.remove(`websub:job:${job.topic_id}:${job.callback_key}`);
    });
  }
  const at = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * q))]!.toFixed(2);
  for (const [name, list] of Object.entries(times)) {
    const sorted = [...list].sort((a, b) => a - b);
    console.log(`${name.padEnd(14)} median ${at(sorted, 0.5)} ms, p90 ${at(sorted, 0.9)} ms, max ${at(sorted, 1)} ms`);
  }
  const used = process.cpuUsage(cpu);
  console.log(`${count} rounds; CPU ${((used.user + used.system) / 1000).toFixed(0)} ms`);
} finally {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
}

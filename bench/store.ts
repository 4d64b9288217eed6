/**
 * The folder store's two primitives against the kept libraries (issue 12 item
 * 5), each composed into the store's operations as src/lib/store/file-store.ts
 * composes them. Three kits: before (our `writeFileAtomic` from
 * src/lib/store/file-driver.ts and the hand-rolled mkdir lock, copied here);
 * both libraries (`write-file-atomic`, and `proper-lockfile` through
 * src/lib/store/file-lock.ts); and what the store adopted (our write,
 * proper-lockfile's lock). The operations:
 *
 * - set: one atomic write of an envelope;
 * - get: one read (no library is involved: the same code for both, a baseline);
 * - set-if-absent: lock, read, write when absent, unlock (a new key each time);
 * - lock+unlock: the lock alone, one caller, one key (no fsync to hide its cost);
 * - increment: lock, read, write n + 1, unlock, with `--concurrency` callers on
 *   ONE key at once (contention: how the lock waits matters here).
 *
 * In process, on a temporary folder on the same disk as the project.
 *
 *   node_modules/.bin/node bench/store.ts [--seconds 2] [--concurrency 16]
 *
 * Must hold: every increment counted exactly once with every kit (exit 1 otherwise).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { mkdir, readFile, rm, stat } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import { dirname, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import writeFileAtomicLib from 'write-file-atomic';
import { writeFileAtomic } from '../src/lib/store/file-driver.ts';
import { withLock } from '../src/lib/store/file-lock.ts';

const { values } = parseArgs({ options: { seconds: { type: 'string', default: '2' }, concurrency: { type: 'string', default: '16' } } });
const SECONDS = Number(values.seconds);
const CONCURRENCY = Number(values.concurrency);

interface Kit {
  name: string;
  write(path: string, data: string): Promise<void>;
  lock<T>(path: string, step: () => Promise<T>): Promise<T>;
}

/** The hand-rolled mkdir lock the store had before proper-lockfile: stale after 10 s, no refresh. */
async function mkdirLock<T>(path: string, step: () => Promise<T>): Promise<T> {
  const lock = `${path}.lock`;
  for (;;) {
    try {
      await mkdir(lock);
      break;
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOENT') {
        await mkdir(dirname(lock), { recursive: true });
        continue;
      }
      if (code !== 'EEXIST') throw error;
      const held = await stat(lock).catch(() => null);
      if (held && Date.now() - held.mtimeMs > 10_000) await rm(lock, { recursive: true, force: true });
      else await sleep(1 + Math.random() * 4);
    }
  }
  try {
    return await step();
  } finally {
    await rm(lock, { recursive: true, force: true });
  }
}

const kits: Kit[] = [
  { name: 'before: ours + mkdir lock', write: writeFileAtomic, lock: mkdirLock },
  {
    name: 'write-file-atomic + proper-lockfile',
    async write(path, data) {
      await mkdir(dirname(path), { recursive: true });
      await writeFileAtomicLib(path, data, { mode: 0o600 });
    },
    lock: withLock,
  },
  { name: 'adopted: ours + proper-lockfile', write: writeFileAtomic, lock: withLock },
];

const read = (path: string) => readFile(path, 'utf8').catch(() => null);

/** Runs `op` with `callers` loops at once for SECONDS; operations per second. */
async function rate(callers: number, op: (i: number) => Promise<void>): Promise<number> {
  let done = 0;
  const end = performance.now() + SECONDS * 1000;
  const start = performance.now();
  await Promise.all(
    Array.from({ length: callers }, async () => {
      while (performance.now() < end) await op(done++);
    }),
  );
  return done / ((performance.now() - start) / 1000);
}

async function measure(kit: Kit, root: string): Promise<{ figures: Record<string, number>; counted: boolean }> {
  const base = mkdtempSync(join(root, 'kit-'));
  const envelope = (value: unknown) => JSON.stringify({ value, expires_at: null });
  const figures: Record<string, number> = {};
  figures.set = await rate(1, (i) => kit.write(join(base, 'set', String(i % 64)), envelope({ i })));
  figures.get = await rate(1, async (i) => void (await read(join(base, 'set', String(i % 64)))));
  figures['set-if-absent'] = await rate(1, (i) => {
    const path = join(base, 'claims', String(i));
    return kit.lock(path, async () => {
      if ((await read(path)) === null) await kit.write(path, envelope(true));
    });
  });
  // The lock alone, no write: its own cost, which the fsync of every write above hides.
  figures['lock+unlock'] = await rate(1, () => kit.lock(join(base, 'bare'), async () => {}));
  const counter = join(base, 'rate', 'counter');
  let increments = 0;
  figures[`increment ×${CONCURRENCY}`] = await rate(CONCURRENCY, () =>
    kit.lock(counter, async () => {
      const raw = await read(counter);
      const n = raw === null ? 0 : (JSON.parse(raw) as { value: number }).value;
      await kit.write(counter, envelope(n + 1));
      increments++;
    }),
  );
  const final = (JSON.parse((await read(counter))!) as { value: number }).value;
  rmSync(base, { recursive: true, force: true });
  return { figures, counted: final === increments };
}

const root = mkdtempSync(join(resolve(import.meta.dirname, '..'), '.bench-store-'));
let failed = false;
try {
  const results: Array<[string, Record<string, number>]> = [];
  // Interleaved twice, so neither kit always runs on a cooler machine.
  for (const round of [1, 2]) {
    for (const kit of kits) {
      const { figures, counted } = await measure(kit, root);
      if (!counted) {
        console.error(`${kit.name}: increments lost or doubled`);
        failed = true;
      }
      results.push([`${kit.name} (round ${round})`, figures]);
    }
  }
  const ops = Object.keys(results[0]![1]);
  console.log(`ops/s, in process, ${SECONDS} s each, ${CONCURRENCY} callers on one counter for increment`);
  console.log(['kit', ...ops].join(' | '));
  for (const [name, figures] of results) console.log([name, ...ops.map((op) => Math.round(figures[op]!))].join(' | '));
} finally {
  rmSync(root, { recursive: true, force: true });
}
process.exit(failed ? 1 : 0);

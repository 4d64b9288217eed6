/**
 * The state store on both backends (a folder, and a real redis-server): values
 * with expiry, listing, and the atomic steps — set-if-absent, claims,
 * counters and compare-and-delete — raced by several processes at once,
 * where exactly one must win.
 */
import assert from 'node:assert/strict';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { createServer } from 'node:net';
import { join, resolve } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { TEST_BUILDS_DIR, NODE, ROOT } from '../helpers/builds.ts';
import { createStore, type StoreConfig } from '../../src/lib/store/index.ts';
import { fileStore } from '../../src/lib/store/file-store.ts';

const work = mkdtempSync(join(TEST_BUILDS_DIR, 'store-'));
let redis: ChildProcess;
let redisUrl: string;

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const { port } = server.address() as { port: number };
  await new Promise((r) => server.close(r));
  return port;
}

before(async () => {
  const port = await freePort();
  redis = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], {
    stdio: 'ignore',
  });
  redisUrl = `redis://127.0.0.1:${port}`;
  for (let i = 0; i < 100; i++) {
    if (spawnSync('redis-cli', ['-p', String(port), 'ping'], { encoding: 'utf8' }).stdout.trim() === 'PONG') return;
    await sleep(50);
  }
  throw new Error('redis-server did not start');
});
after(() => {
  redis?.kill();
  rmSync(work, { recursive: true, force: true });
});

let folders = 0;
const backends: Array<[string, () => StoreConfig]> = [
  ['file', () => ({ dir: join(work, `f${folders++}`), redisPrefix: 'unused' })],
  ['redis', () => ({ dir: 'unused', redisUrl, redisPrefix: `t${folders++}` })],
];

/** Runs `op` in `count` separate processes at the same moment; returns what each printed. */
function race(config: StoreConfig, op: string, count: number): Promise<string[]> {
  const script = `
    import { createStore } from ${JSON.stringify(resolve(ROOT, 'src/lib/store/index.ts'))};
    const store = createStore(${JSON.stringify(config)});
    const go = Number(process.argv[1]);
    while (Date.now() < go) {}
    const result = await (${op})(store);
    console.log(JSON.stringify(result));
    await store.close();`;
  const go = Date.now() + 600;
  return Promise.all(
    Array.from({ length: count }, () => {
      const child = spawn(NODE, ['--input-type=module', '-e', script, String(go)], {
        cwd: ROOT,
        stdio: ['ignore', 'pipe', 'inherit'],
      });
      let out = '';
      child.stdout.on('data', (chunk) => (out += chunk));
      return new Promise<string>((r) => child.once('exit', () => r(out.trim())));
    }),
  );
}

// The two backends at once (each one's tests one after another): most of their time is waiting for values to expire and racers to start.
describe('both backends', { concurrency: true }, () => {
  for (const [name, config] of backends) {
    describe(`${name} store`, { concurrency: 1 }, () => {
      it('gets, sets, removes and expires values; lists live keys by prefix', async () => {
        const store = createStore(config());
        await store.set('a:one', { n: 1 });
        await store.set('a:two', [2]);
        await store.set('b:three', 'x', { ttlSeconds: 0.3 });
        assert.deepEqual(await store.get('a:one'), { n: 1 });
        assert.deepEqual(await store.keys('a:'), ['a:one', 'a:two']);
        assert.deepEqual(await store.keys('b:'), ['b:three']);
        await sleep(1100);
        assert.equal(await store.get('b:three'), null);
        assert.deepEqual(await store.keys('b:'), []);
        await store.remove('a:one');
        assert.equal(await store.get('a:one'), null);
        assert.deepEqual(await store.keys(''), ['a:two']);
        await store.close();
      });

      it('setIfAbsent stores once, and again after the value expired', async () => {
        const store = createStore(config());
        assert.equal(await store.setIfAbsent('k', 'first', { ttlSeconds: 1 }), true);
        assert.equal(await store.setIfAbsent('k', 'second'), false);
        assert.equal(await store.get('k'), 'first');
        await sleep(1100);
        assert.equal(await store.setIfAbsent('k', 'third'), true);
        assert.equal(await store.get('k'), 'third');
        await store.close();
      });

      it('removeIf removes only a value whose field is the one expected (compare-and-delete)', async () => {
        const store = createStore(config());
        await store.set('job', { id: 'newer', n: 1 });
        assert.equal(await store.removeIf('job', 'id', 'older'), false);
        assert.deepEqual(await store.get('job'), { id: 'newer', n: 1 }, 'a value written since stays');
        assert.equal(await store.removeIf('job', 'id', 'newer'), true);
        assert.equal(await store.get('job'), null);
        assert.equal(await store.removeIf('job', 'id', 'newer'), false, 'absent: nothing removed');
        await store.set('text', 'newer');
        assert.equal(await store.removeIf('text', 'id', 'newer'), false, 'not an object: kept');
        assert.equal(await store.get('text'), 'newer');
        await store.close();
      });

      it('one winner among processes racing setIfAbsent, and everyone reads its value', async () => {
        const shared = config();
        const results = await race(
          shared,
          `async (s) => { const mine = Math.random().toString(36); const won = await s.setIfAbsent('key', mine); return { won, mine, read: await s.get('key') }; }`,
          6,
        );
        const parsed = results.map((r) => JSON.parse(r));
        assert.equal(parsed.filter((r) => r.won).length, 1, results.join('\n'));
        const winner = parsed.find((r) => r.won);
        for (const r of parsed) assert.equal(r.read, winner.mine);
      });

      it('one winner among processes racing a claim, also when the previous claim has just expired', async () => {
        const shared = config();
        const store = createStore(shared);
        for (let round = 0; round < 5; round++) {
          assert.equal(await store.claim(`c${round}`, 1), true);
        }
        await sleep(1100);
        // Every racer stays alive a while after its claims: the claim of a process that has exited is free again.
        const results = await race(
          shared,
          `async (s) => { const won = []; for (let round = 0; round < 5; round++) won.push(await s.claim('c' + round, 30)); await new Promise((r) => setTimeout(r, 3000)); return won; }`,
          4,
        );
        const won = results.map((r) => JSON.parse(r) as boolean[]);
        for (let round = 0; round < 5; round++)
          assert.equal(won.filter((w) => w[round]).length, 1, `round ${round}: ${results}`);
        await store.close();
      });

      it('a claim whose holder has exited (kill -9) is taken over at once; a live holder keeps it', async () => {
        const shared = config();
        const holder = spawn(
          NODE,
          [
            '--input-type=module',
            '-e',
            `import { createStore } from ${JSON.stringify(resolve(ROOT, 'src/lib/store/index.ts'))}; const s = createStore(${JSON.stringify(shared)}); console.log(await s.claim('held', 60)); setInterval(() => {}, 1000);`,
          ],
          { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] },
        );
        const exited = new Promise((r) => holder.once('exit', r));
        const said = await new Promise<string>((r) =>
          holder.stdout!.once('data', (chunk: Buffer) => r(chunk.toString().trim())),
        );
        assert.equal(said, 'true', 'the other process took the claim');
        const store = createStore(shared);
        assert.equal(await store.claim('held', 60), false, 'its holder is alive');
        holder.kill('SIGKILL');
        await exited;
        assert.equal(await store.claim('held', 60), true, 'its holder has exited: taken over');
        assert.equal(await store.claim('held', 60), false, 'and now held by this process');
        await store.close();
      });

      it('counters count every increment across processes and expire with their window', async () => {
        const shared = config();
        // A window long enough that a slow machine's 40 racing increments all fall inside it.
        const results = await race(
          shared,
          `async (s) => { const seen = []; for (let i = 0; i < 10; i++) seen.push(await s.increment('hits', 60)); return seen; }`,
          4,
        );
        const all = results.flatMap((r) => JSON.parse(r) as number[]).sort((a, b) => a - b);
        assert.deepEqual(
          all,
          Array.from({ length: 40 }, (_, i) => i + 1),
          'every value exactly once',
        );
        const store = createStore(shared);
        assert.equal(await store.increment('short', 1), 1);
        await sleep(1100);
        assert.equal(await store.increment('short', 1), 1, 'a new window starts at 1');
        await store.close();
      });
    });
  }
});

describe('file store on disk', () => {
  it('writes owner-only files, leaves no temporary files, and sweeps expired keys nobody lists', async () => {
    const dir = join(work, 'sweep');
    const store = fileStore(dir, Date.now, { sweepIntervalMs: 200 });
    await store.set('secret:key', 'k');
    await store.set('rate:window:client', 1, { ttlSeconds: 0.2 });
    await store.claim('once', 0.2);
    assert.equal(statSync(join(dir, 'secret', 'key')).mode & 0o777, 0o600);
    await sleep(900);
    const files = readdirSync(dir, { recursive: true, withFileTypes: true })
      .filter((e) => e.isFile())
      .map((e) => join(e.parentPath, e.name));
    assert.deepEqual(files, [join(dir, 'secret', 'key')], 'expired values and claims are gone, nothing .tmp is left');
    await store.close();
  });
});

describe('sets in the folder store', () => {
  it('a member added through another store on the same folder is seen at once; an expired set holds nothing', async () => {
    const dir = mkdtempSync(join(TEST_BUILDS_DIR, 'store-sets-'));
    let clock = Date.now();
    const reader = fileStore(dir, () => clock);
    const writer = fileStore(dir, () => clock);
    try {
      assert.equal(await reader.hasMember('set:a', 'x'), false);
      await writer.addMember('set:a', 'x', 60);
      assert.equal(await reader.hasMember('set:a', 'x'), true);
      assert.equal(await reader.hasMember('set:a', 'y'), false);
      await writer.addMember('set:a', 'y', 60);
      assert.equal(await reader.hasMember('set:a', 'y'), true, 'read again after the file changed');
      clock += 61_000;
      assert.equal(await reader.hasMember('set:a', 'x'), false, 'expired');
      await writer.remove('set:a');
      clock -= 61_000;
      assert.equal(await reader.hasMember('set:a', 'x'), false, 'removed');
    } finally {
      await reader.close();
      await writer.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

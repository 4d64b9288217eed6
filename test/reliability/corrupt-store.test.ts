/**
 * Corrupt store files (issue 14, item 8): a truncated or otherwise unreadable
 * file is never taken for a missing value without a word nor deleted: it is
 * logged (naming the key) and moved aside to `<file>.corrupt-<time>`; a
 * corrupt MCP session key stops the server's start and is left as it was.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { after, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { keyToPath } from '../../src/lib/store/file-driver.ts';
import { fileStore } from '../../src/lib/store/file-store.ts';
import { BUILDS, NODE, ROOT } from '../helpers/builds.ts';
import { tempDir } from '../mcp/helpers.ts';

const dirs: Array<{ remove: () => void }> = [];
after(() => dirs.forEach((dir) => dir.remove()));

function newStore(sweepIntervalMs = 3_600_000) {
  const dir = tempDir('corrupt-store-');
  dirs.push(dir);
  const lines: string[] = [];
  const store = fileStore(dir.path, Date.now, { sweepIntervalMs, log: (line) => lines.push(line) });
  return { dir: dir.path, store, lines };
}

/** Cuts a stored file in half, as a full disk or a crash of something writing in place would. */
function truncate(path: string): string {
  const whole = readFileSync(path, 'utf8');
  const half = whole.slice(0, Math.floor(whole.length / 2));
  writeFileSync(path, half);
  return half;
}

const asideOf = (path: string) =>
  readdirSync(dirname(path)).filter((name) => name.startsWith(`${path.split('/').pop()}.corrupt-`));

it('a truncated value reads as missing only after one log line naming the key, and is kept aside', async () => {
  const { dir, store, lines } = newStore();
  await store.set('websub:sub:atom:abc', { callback: 'https://example.com/cb', expires_at: Date.now() + 60_000 });
  const path = keyToPath(dir, 'websub:sub:atom:abc');
  const half = truncate(path);

  assert.equal(await store.get('websub:sub:atom:abc'), null);
  assert.equal(lines.length, 1, lines.join('\n'));
  assert.match(lines[0]!, /"websub:sub:atom:abc" is not readable JSON.*moved aside to .*\.corrupt-/);
  const aside = asideOf(path);
  assert.equal(aside.length, 1);
  assert.equal(readFileSync(join(dirname(path), aside[0]!), 'utf8'), half, 'the bad bytes are kept as they were');
  // Not a key any more, and not logged again.
  assert.deepEqual(await store.keys('websub:'), []);
  assert.equal(await store.get('websub:sub:atom:abc'), null);
  assert.equal(lines.length, 1);
  // A new value can be written where it was.
  await store.set('websub:sub:atom:abc', { n: 2 });
  assert.deepEqual(await store.get('websub:sub:atom:abc'), { n: 2 });
  await store.close();
});

it('listing keys moves a corrupt one aside (logged) instead of skipping it silently', async () => {
  const { dir, store, lines } = newStore();
  await store.set('websub:sub:atom:good', { ok: true });
  await store.set('websub:sub:atom:bad', { ok: true });
  truncate(keyToPath(dir, 'websub:sub:atom:bad'));
  assert.deepEqual(await store.keys('websub:sub:atom:'), ['websub:sub:atom:good']);
  assert.equal(lines.length, 1);
  assert.match(lines[0]!, /"websub:sub:atom:bad"/);
  assert.equal(asideOf(keyToPath(dir, 'websub:sub:atom:bad')).length, 1);
  await store.close();
});

it('the sweep never deletes a corrupt file (it used to, taking it for expired)', async () => {
  const { dir, store, lines } = newStore(100);
  await store.set('websub:sub:atom:kept', { ok: true });
  await store.set('websub:gone', { ok: true }, { ttlSeconds: 0.05 });
  const path = keyToPath(dir, 'websub:sub:atom:kept');
  const half = truncate(path);
  await sleep(600);
  await store.close();
  const aside = asideOf(path);
  assert.equal(aside.length, 1, `kept aside, not deleted: ${readdirSync(dirname(path)).join(', ')}`);
  assert.equal(readFileSync(join(dirname(path), aside[0]!), 'utf8'), half);
  assert.equal(lines.length, 1);
  assert.deepEqual(
    readdirSync(join(dir, 'websub')).filter((name) => name === 'gone'),
    [],
    'an expired value is still swept',
  );
});

it('set-if-absent over a corrupt file keeps the bad one aside (logged) before storing', async () => {
  const { dir, store, lines } = newStore();
  await store.set('claim-me', 'x');
  truncate(keyToPath(dir, 'claim-me'));
  assert.equal(await store.setIfAbsent('claim-me', 'y'), true);
  assert.equal(await store.get('claim-me'), 'y');
  assert.equal(lines.length, 1);
  assert.equal(asideOf(keyToPath(dir, 'claim-me')).length, 1);
  await store.close();
});

it('a truncated MCP session key stops the server at start, naming the key, and is left untouched', async () => {
  const dir = tempDir('corrupt-key-');
  dirs.push(dir);
  const keyFile = keyToPath(dir.path, 'mcp:session-key');
  mkdirSync(dirname(keyFile), { recursive: true });
  const whole = JSON.stringify({ value: Buffer.alloc(32, 7).toString('base64url'), expires_at: null });
  writeFileSync(keyFile, whole.slice(0, 20));
  const child = spawn(NODE, [resolve(ROOT, 'src/server.ts')], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH,
      ASTRO_OUT_DIR: BUILDS.small.outDir,
      PORT: '0',
      HOST: '127.0.0.1',
      ASTRO_NODE_LOGGING: 'disabled',
      STORE_DIR: dir.path,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  const code = await new Promise<number | null>((resolveExit) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
    }, 20_000);
    child.once('exit', (exitCode) => {
      clearTimeout(timer);
      resolveExit(exitCode);
    });
  });
  assert.notEqual(code, 0, `the server must not start:\n${output}`);
  assert.doesNotMatch(output, /Serving /);
  assert.match(output, /"mcp:session-key".*not readable JSON/);
  assert.equal(readFileSync(keyFile, 'utf8'), whole.slice(0, 20), 'the key file is left as it was');
});

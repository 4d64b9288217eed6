/**
 * A STORE_DIR the server cannot write (issue 14, item 9), against the real Node
 * server: it starts, says so in one line naming STORE_DIR and the path, and the
 * routes that need the store (the WebSub hub, MCP 2025 sessions) answer a 503
 * JSON `store_unavailable` while static files, search and 2026-07-28 MCP answer
 * 200. Before: an existing read-only folder started without a word and then
 * every hub POST and MCP DELETE was a 500; a fresh one crashed on `ENOENT mkdir …/mcp`.
 *
 * Permission bits do not bind root, so when the tests run as root the server
 * runs as root without the capabilities that override them (setpriv, from
 * util-linux: CAP_DAC_OVERRIDE and CAP_DAC_READ_SEARCH dropped), so a folder's
 * mode binds it like any owner. Not as `nobody`: a clone in a folder only root
 * may enter (mktemp -d) would then be out of its reach. As any other user (CI)
 * the folder's mode is enough.
 */
import assert from 'node:assert/strict';
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { fileStore } from '../../src/lib/store/file-store.ts';
import { isStoreUnavailable } from '../../src/lib/store/unavailable.ts';
import { TEST_BUILDS_DIR } from '../helpers/builds.ts';
import { startServer, type RunningServer } from '../helpers/server.ts';
import { initializeRequest, post } from '../mcp/helpers.ts';
import { hubPost, TOPICS } from '../websub/helpers.ts';
import { until } from './helpers.ts';

const AS_ROOT = process.getuid?.() === 0;
const OVERRIDES = '-dac_override,-dac_read_search';
/** How the server is run so that a folder's mode binds it. */
const PREFIX = AS_ROOT ? ['setpriv', `--inh-caps=${OVERRIDES}`, `--bounding-set=${OVERRIDES}`] : [];
const SECRET = 'read-only-store-test-secret-0123456789abcdef';

const work = mkdtempSync(join(TEST_BUILDS_DIR, 'read-only-store-'));
const servers: RunningServer[] = [];
after(async () => {
  await Promise.all(servers.map((server) => server.stop()));
  rmSync(work, { recursive: true, force: true });
});

async function serve(storeDir: string, env: Record<string, string> = {}): Promise<RunningServer> {
  const server = await startServer('small', { STORE_DIR: storeDir, WEBSUB_ALLOW_LOOPBACK: 'true', ...env }, PREFIX);
  servers.push(server);
  return server;
}

/** Makes `dir` and everything below it read-only (or writable again) for the server. */
function setWritable(dir: string, writable: boolean) {
  chmodSync(dir, writable ? 0o700 : 0o500);
  for (const entry of readdirSync(dir, { withFileTypes: true }))
    if (entry.isDirectory()) setWritable(join(dir, entry.name), writable);
}

/** A folder the server's user owns (it may write it until setWritable says otherwise). */
function ownedFolder(name: string): string {
  const dir = join(work, name);
  mkdirSync(dir);
  return dir;
}

const subscribe = (server: RunningServer) =>
  hubPost(server.url, {
    'hub.mode': 'subscribe',
    'hub.callback': `https://127.0.0.1:${server.port}/nobody-listens`,
    'hub.topic': TOPICS.atom.url,
  });

async function assertStoreUnavailable(
  response:
    { status: number; headers: Headers; text(): Promise<string> } | { status: number; headers: Headers; text: string },
  what: string,
) {
  const text = typeof response.text === 'string' ? response.text : await response.text();
  assert.equal(response.status, 503, `${what}: ${text}`);
  assert.ok(Number(response.headers.get('retry-after')) > 0, `${what}: Retry-After`);
  const body = JSON.parse(text) as { error: string; message: string };
  assert.equal(body.error, 'store_unavailable', what);
  assert.match(body.message, /STORE_DIR/, what);
  assert.doesNotMatch(body.message, new RegExp(work), `${what}: the path is for the log, not for clients`);
}

/** What needs no store answers 200: a static file, search, and a 2026-07-28 MCP tools/call. */
async function assertStorelessRoutesWork(server: RunningServer) {
  const file = await fetch(`${server.url}/reviews.json`);
  assert.equal(file.status, 200);
  await file.arrayBuffer();
  const search = await fetch(`${server.url}/api/reviews/search?min_rating=1&limit=2`);
  assert.equal(search.status, 200, await search.clone().text());
  await search.arrayBuffer();
  const meta = {
    'io.modelcontextprotocol/protocolVersion': '2026-07-28',
    'io.modelcontextprotocol/clientInfo': { name: 'ro-test', version: '1' },
    'io.modelcontextprotocol/clientCapabilities': {},
  };
  const modern = await post(
    `${server.url}/mcp`,
    {
      jsonrpc: '2.0',
      id: 7,
      method: 'tools/call',
      params: { name: 'search_reviews', arguments: { min_rating: 5 }, _meta: meta },
    },
    { 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': 'search_reviews' },
  );
  assert.equal(modern.status, 200, modern.text);
}

const storeLines = (server: RunningServer) =>
  server
    .output()
    .split('\n')
    .filter((line) => line.startsWith('store: STORE_DIR'));

// Three servers at once: each mostly waits on its start.
describe('a STORE_DIR the server cannot write', { concurrency: true }, () => {
  it('an existing read-only STORE_DIR: one line naming it at start; the hub and an MCP session DELETE answer 503, the rest 200', async () => {
    const dir = ownedFolder('existing');
    setWritable(dir, false);
    // With the secret, initialize needs no store, so a session exists and its DELETE (which records the end) is tried.
    const server = await serve(dir, { MCP_SESSION_SECRET: SECRET });
    const lines = storeLines(server);
    assert.equal(lines.length, 1, server.output());
    assert.match(lines[0]!, new RegExp(`^store: STORE_DIR \\(${dir}\\) is not writable: EACCES`));

    await assertStoreUnavailable(await subscribe(server), 'hub subscribe');
    const initialized = await post(`${server.url}/mcp`, initializeRequest('2025-06-18'));
    assert.equal(initialized.status, 200, initialized.text);
    const session = initialized.headers.get('mcp-session-id')!;
    const ended = await fetch(`${server.url}/mcp`, {
      method: 'DELETE',
      headers: { 'mcp-session-id': session, 'mcp-protocol-version': '2025-06-18' },
    });
    await assertStoreUnavailable(ended, 'MCP DELETE');
    await assertStorelessRoutesWork(server);
    assert.equal(storeLines(server).length, 1, `still one line after the failed writes:\n${server.output()}`);
    assert.doesNotMatch(server.output(), /request failed|internal_error/);
  });

  it('a fresh STORE_DIR under a read-only folder: starts (no ENOENT crash), one line, MCP initialize and the hub answer 503', async () => {
    const parent = ownedFolder('parent');
    setWritable(parent, false);
    const dir = join(parent, 'store');
    const server = await serve(dir);
    const lines = storeLines(server);
    assert.equal(lines.length, 1, server.output());
    assert.match(lines[0]!, new RegExp(`^store: STORE_DIR \\(${dir}\\) is not writable: EACCES.*mkdir`));
    await assertStoreUnavailable(await subscribe(server), 'hub subscribe');
    await assertStoreUnavailable(
      await post(`${server.url}/mcp`, initializeRequest('2025-06-18')),
      'MCP 2025 initialize',
    );
    await assertStorelessRoutesWork(server);
  });

  it('a STORE_DIR that turns read-only at run time: 503 (never 500), one line; writable again: the hub works without a restart', async () => {
    const dir = ownedFolder('later');
    const server = await serve(dir);
    assert.equal(storeLines(server).length, 0, server.output());
    assert.equal((await subscribe(server)).status, 202);
    // The start-up publish and this subscription's verification write the store in the background.
    // The folder turns read-only once both are over: in the middle of one, a write in a subfolder
    // setWritable had not reached yet succeeded, and the server rightly said "writable again".
    const settled = await until(
      async () => server.output(),
      (output) => output.includes('websub: start-up publish done') && output.includes('not verified'),
      10_000,
    );
    assert.ok(
      settled.value.includes('websub: start-up publish done') && settled.value.includes('not verified'),
      server.output(),
    );

    setWritable(dir, false);
    await assertStoreUnavailable(await subscribe(server), 'hub subscribe, folder now read-only');
    await assertStoreUnavailable(await subscribe(server), 'hub subscribe again');
    assert.equal(storeLines(server).length, 1, server.output());
    assert.match(storeLines(server)[0]!, /is not writable: EACCES/);

    setWritable(dir, true);
    const back = await until(
      () => subscribe(server),
      (response) => response.status !== 503,
      5000,
    );
    assert.equal(back.value.status, 202, await back.value.text());
    assert.match(server.output(), new RegExp(`store: STORE_DIR \\(${dir}\\) is writable again`));
    assert.doesNotMatch(server.output(), /request failed|internal_error/);
  });
});

it('a STORE_DIR under a file (ENOTDIR, as any user, root too): one line, and every operation a StoreUnavailableError naming STORE_DIR', async () => {
  const file = join(work, 'a-file');
  writeFileSync(file, '');
  const lines: string[] = [];
  const store = fileStore(join(file, 'store'), Date.now, { log: (line) => lines.push(line) });
  await store.ready?.();
  for (const operation of [
    () => store.set('k', 1),
    () => store.get('k'),
    () => store.increment('n', 60),
    () => store.setIfAbsent('k', 2),
    () => store.keys(''),
  ]) {
    await assert.rejects(
      operation,
      (error) =>
        isStoreUnavailable(error) && /STORE_DIR \(.*a-file\/store\), is not writable \(ENOTDIR\)/.test(error.message),
    );
  }
  assert.equal(lines.length, 1, lines.join('\n'));
  assert.match(lines[0]!, /^store: STORE_DIR \(.*a-file\/store\) is not writable: ENOTDIR/);
  await store.close();
});

/**
 * Rate limits through the real server (issue 14 items 3, 9, 10): the client is
 * the socket's peer unless TRUST_PROXY names the proxies in front, counts live
 * in memory (one Node process) or Redis (shared by every instance), never in
 * files of the folder store; MCP sessions are opened and ended at a limited
 * rate, and ended ids are kept in a few records however many sessions end.
 */
import assert from 'node:assert/strict';
import { readdirSync, type Dirent } from 'node:fs';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { startServer, type RunningServer } from '../helpers/server.ts';
import { clientAddress, proxyTrustFromEnv } from '../../src/lib/http/client-address.ts';
import { initialize, initializeRequest, post, startRedis, tempDir } from '../mcp/helpers.ts';
import { hubPost } from '../websub/helpers.ts';

const running: RunningServer[] = [];
let trusted: RunningServer, untrusted: RunningServer, trustedStore: string;
const cleanups: Array<() => Promise<void> | void> = [];
after(async () => {
  await Promise.all(running.map((server) => server.stop()));
  for (const cleanup of cleanups) await cleanup();
});

async function start(env: Record<string, string>): Promise<RunningServer> {
  const server = await startServer('small', env);
  running.push(server);
  return server;
}

/** A subscribe request the hub refuses (400) once it has counted it: cheap, and no callback is ever called. */
const hubRequest = (server: RunningServer, forwardedFor?: string) =>
  hubPost(
    server.url,
    { 'hub.mode': 'subscribe' },
    forwardedFor === undefined ? {} : { 'x-forwarded-for': forwardedFor },
  );

/**
 * Every file and folder under `dir`, relative. The server works in the store meanwhile (its
 * start-up publish takes and drops claim locks, which are folders): one that goes while it is
 * listed is skipped, not an error.
 */
function listTree(dir: string, under = ''): string[] {
  let entries: Dirent[];
  try {
    entries = readdirSync(join(dir, under), { withFileTypes: true });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT' && under !== '') return [];
    throw error;
  }
  return entries.flatMap((entry) => {
    const path = join(under, entry.name);
    return entry.isDirectory() ? [path, ...listTree(dir, path)] : [path];
  });
}

describe('the client address, and MCP sessions', () => {
  it('behind a trusted proxy, clients named by X-Forwarded-For are counted apart; what a client wrote further left is not believed', async () => {
    const store = tempDir('limits-sessions-');
    cleanups.push(store.remove);
    trusted = await start({
      TRUST_PROXY: 'loopback',
      WEBSUB_SUBSCRIBE_RATE_LIMIT: '2',
      STORE_DIR: store.path,
      MCP_SESSION_RATE_LIMIT: '1000',
    });
    trustedStore = store.path;
    assert.equal((await hubRequest(trusted, '203.0.113.1')).status, 400);
    // The proxy appended the real client after what the client sent itself.
    assert.equal((await hubRequest(trusted, '198.51.100.7, 203.0.113.1')).status, 400);
    const limited = await hubRequest(trusted, '198.51.100.8, 203.0.113.1');
    assert.equal(limited.status, 429);
    assert.ok(Number(limited.headers.get('retry-after')) >= 1);
    assert.equal((await hubRequest(trusted, '203.0.113.2')).status, 400, 'another client has its own bucket');
    // IPv6 clients per /64, IPv4-mapped ones as IPv4.
    assert.equal((await hubRequest(trusted, '2001:db8:1:2::1')).status, 400);
    assert.equal((await hubRequest(trusted, '[2001:db8:1:2::ffff]:443')).status, 400);
    assert.equal((await hubRequest(trusted, '2001:db8:1:2::2')).status, 429, 'one /64, one bucket');
    assert.equal((await hubRequest(trusted, '::ffff:203.0.113.2')).status, 400);
    assert.equal((await hubRequest(trusted, '203.0.113.2')).status, 429, 'an IPv4-mapped address is that IPv4 client');
  });

  it('100 initialize + DELETE pairs leave a few store records, and every one of those sessions stays ended', async () => {
    const mcp = `${trusted.url}/mcp`;
    const ids: string[] = [];
    // Ten clients at a time: the ends race each other into the same record, and none may be lost.
    for (let round = 0; round < 10; round++) {
      const batch = await Promise.all(
        Array.from({ length: 10 }, () => initialize(mcp).then(({ sessionId }) => sessionId)),
      );
      const ends = await Promise.all(
        batch.map((id) => fetch(mcp, { method: 'DELETE', headers: { 'mcp-session-id': id } })),
      );
      assert.deepEqual(
        ends.map((r) => r.status),
        Array(10).fill(204),
      );
      ids.push(...batch);
    }
    const records = listTree(trustedStore).filter(
      (path) => /^mcp\/ended\/[^/]+$/.test(path) && !path.endsWith('.lock'),
    );
    assert.ok(
      records.length >= 1 && records.length <= 2,
      `ended ids in ${records.length} record(s): ${records.join(', ')}`,
    );
    const answers = await Promise.all(
      ids.map((id) => post(mcp, { jsonrpc: '2.0', id: 3, method: 'tools/list' }, { 'mcp-session-id': id })),
    );
    assert.deepEqual(
      answers.map((a) => a.status),
      Array(100).fill(404),
      'every ended session stays ended',
    );
  });

  it('without TRUST_PROXY, X-Forwarded-For is ignored (one bucket per connection peer), and no counter is written to STORE_DIR', async () => {
    const store = tempDir('limits-store-');
    cleanups.push(store.remove);
    untrusted = await start({ STORE_DIR: store.path, WEBSUB_SUBSCRIBE_RATE_LIMIT: '2', MCP_SESSION_RATE_LIMIT: '3' });
    assert.equal((await hubRequest(untrusted, '203.0.113.1')).status, 400);
    assert.equal((await hubRequest(untrusted, '203.0.113.2')).status, 400);
    assert.equal(
      (await hubRequest(untrusted, '203.0.113.3')).status,
      429,
      'a client cannot name itself another client',
    );
    const leftovers = listTree(store.path).filter((path) => /rate|counter/.test(path));
    assert.deepEqual(leftovers, [], 'no per-window counter files, locks or folders');
  });

  it('opening sessions past the limit is a 429 JSON-RPC error with Retry-After; so is ending them', async () => {
    const mcp = `${untrusted.url}/mcp`;
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push((await initialize(mcp)).sessionId);
    const limited = await post(mcp, initializeRequest('2025-06-18', 'fourth'));
    assert.equal(limited.status, 429);
    assert.ok(Number(limited.headers.get('retry-after')) >= 1);
    assert.equal(limited.json.jsonrpc, '2.0');
    assert.equal(limited.json.id, 'fourth');
    assert.match(limited.json.error.message, /Too Many Requests/);
    assert.equal(limited.headers.get('mcp-session-id'), null);
    // Sessions already open are served as before.
    assert.equal(
      (await post(mcp, { jsonrpc: '2.0', id: 2, method: 'tools/list' }, { 'mcp-session-id': ids[0]! })).status,
      200,
    );
    const end = (id: string) => fetch(mcp, { method: 'DELETE', headers: { 'mcp-session-id': id } });
    for (const id of ids) assert.equal((await end(id)).status, 204);
    const endLimited = await end(ids[0]!);
    assert.equal(endLimited.status, 429);
    assert.equal((await endLimited.json()).error.code, -32000);
  });
});

describe('who the client is (src/lib/http/client-address.ts)', () => {
  const headers = (entries: Record<string, string>) => new Headers(entries);
  it('TRUST_PROXY=1 with Forwarded (RFC 7239): the hop the proxy appended; quoted, bracketed and with ports', () => {
    const trust = proxyTrustFromEnv({ TRUST_PROXY: '1', TRUST_PROXY_HEADER: 'forwarded' });
    assert.equal(
      clientAddress(
        '10.0.0.2',
        headers({ forwarded: 'for=198.51.100.1, for="[2001:db8:cafe::17]:4711";proto=https' }),
        trust,
      ),
      '2001:db8:cafe::17',
    );
    assert.equal(
      clientAddress('10.0.0.2', headers({ forwarded: 'for=192.0.2.60;proto=http;by=203.0.113.43' }), trust),
      '192.0.2.60',
    );
    assert.equal(
      clientAddress('10.0.0.2', headers({ 'x-forwarded-for': '192.0.2.60' }), trust),
      '10.0.0.2',
      'the other header is not read',
    );
    assert.equal(clientAddress('10.0.0.2', headers({}), trust), '10.0.0.2');
  });
  it('ranges: trusted hops are skipped from the right; the first untrusted one is the client', () => {
    const trust = proxyTrustFromEnv({ TRUST_PROXY: 'loopback, 10.0.0.0/8' });
    assert.equal(
      clientAddress('127.0.0.1', headers({ 'x-forwarded-for': '6.6.6.6, 198.51.100.9, 10.1.2.3' }), trust),
      '198.51.100.9',
    );
    assert.equal(
      clientAddress('198.51.100.1', headers({ 'x-forwarded-for': '6.6.6.6' }), trust),
      '198.51.100.1',
      'an untrusted peer is the client',
    );
    assert.equal(
      clientAddress('::ffff:127.0.0.1', headers({ 'x-forwarded-for': '203.0.113.5:8443' }), trust),
      '203.0.113.5',
    );
  });
  it('bad settings are refused at start with what to write instead', () => {
    assert.equal(proxyTrustFromEnv({}).kind, 'none');
    assert.throws(() => proxyTrustFromEnv({ TRUST_PROXY: 'true' }), /number of proxies/);
    assert.throws(() => proxyTrustFromEnv({ TRUST_PROXY: '10.0.0.0/33' }), /TRUST_PROXY: "10.0.0.0\/33"/);
    assert.throws(() => proxyTrustFromEnv({ TRUST_PROXY: '1', TRUST_PROXY_HEADER: 'x-real-ip' }), /TRUST_PROXY_HEADER/);
  });
});

describe('with Redis', () => {
  it('two server processes share one count per client', async () => {
    const redis = await startRedis();
    cleanups.push(redis.stop);
    const env = { REDIS_URL: redis.url, WEBSUB_SUBSCRIBE_RATE_LIMIT: '3', MCP_SESSION_RATE_LIMIT: '2' };
    const [a, b] = await Promise.all([start(env), start(env)]);
    assert.equal((await hubRequest(a!)).status, 400);
    assert.equal((await hubRequest(b!)).status, 400);
    assert.equal((await hubRequest(a!)).status, 400);
    assert.equal((await hubRequest(b!)).status, 429, 'the fourth request, whichever instance it reaches');
    await initialize(`${a!.url}/mcp`);
    await initialize(`${b!.url}/mcp`);
    assert.equal((await post(`${a!.url}/mcp`, initializeRequest())).status, 429);
  });
});

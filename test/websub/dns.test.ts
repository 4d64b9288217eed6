/**
 * The c-ares lookups of the callback guard (src/lib/websub/dns.ts) against a
 * tiny DNS server on loopback UDP: answers are A + AAAA, a server that never
 * answers is given up at the deadline (the query cancelled), lookups are
 * capped per process, `localhost` is answered without DNS; and the one IP
 * parser the rate limiter shares with the guard.
 */
import assert from 'node:assert/strict';
import { createSocket, type Socket } from 'node:dgram';
import { readFile } from 'node:fs/promises';
import { after, before, describe, it } from 'node:test';
import { createDnsResolver, LookupBusyError } from '../../src/lib/websub/dns.ts';
import { mappedV4, v6ToBigInt } from '../../src/lib/net/ip.ts';
import { clientKey } from '../../src/lib/limits/client-key.ts';
import { NON_PUBLIC_HOST, resolveTarget } from '../../src/lib/websub/ssrf.ts';

/** name → A and AAAA records; names starting with "silent" are never answered. */
const ZONE: Record<string, { a?: string[]; aaaa?: string[] }> = {
  'public.test': { a: ['93.184.216.34'], aaaa: ['2606:2800:220:1::1'] },
  'v4only.test': { a: ['93.184.216.35'] },
  'internal.test': { a: ['10.1.2.3'] },
  'loop.test': { a: ['127.0.0.1'] },
};

let server: Socket;
let dnsServer: string;
let queries = 0;

function answer(query: Buffer): Buffer | undefined {
  let at = 12;
  const labels: string[] = [];
  while (query[at]! > 0) {
    labels.push(query.subarray(at + 1, at + 1 + query[at]!).toString('ascii'));
    at += query[at]! + 1;
  }
  const questionEnd = at + 5;
  const type = query.readUInt16BE(at + 1);
  const name = labels.join('.').toLowerCase();
  if (name.startsWith('silent')) return undefined;
  const entry = ZONE[name];
  const records = (type === 1 ? entry?.a : type === 28 ? entry?.aaaa : undefined) ?? [];
  const header = Buffer.alloc(12);
  query.copy(header, 0, 0, 2);
  header.writeUInt16BE(entry ? 0x8180 : 0x8183, 2); // NOERROR, or NXDOMAIN for unknown names
  header.writeUInt16BE(1, 4);
  header.writeUInt16BE(records.length, 6);
  const answers = records.map((address) => {
    const rdata =
      type === 1
        ? Buffer.from(address.split('.').map(Number))
        : Buffer.from(v6ToBigInt(address).toString(16).padStart(32, '0'), 'hex');
    const rr = Buffer.alloc(12);
    rr.writeUInt16BE(0xc00c, 0);
    rr.writeUInt16BE(type, 2);
    rr.writeUInt16BE(1, 4);
    rr.writeUInt32BE(60, 6);
    rr.writeUInt16BE(rdata.length, 10);
    return Buffer.concat([rr, rdata]);
  });
  return Buffer.concat([header, query.subarray(12, questionEnd), ...answers]);
}

before(async () => {
  server = createSocket('udp4');
  server.on('message', (message, peer) => {
    queries++;
    const reply = answer(message);
    if (reply) server.send(reply, peer.port, peer.address);
  });
  await new Promise<void>((resolve) => server.bind(0, '127.0.0.1', resolve));
  dnsServer = `127.0.0.1:${server.address().port}`;
});
after(() => server.close());

describe('c-ares resolver', () => {
  it('answers A and AAAA records; one family is enough; an unknown name fails', async () => {
    const resolve = createDnsResolver({ servers: [dnsServer] });
    assert.deepEqual(await resolve('public.test', { timeoutMs: 2000 }), [
      { address: '93.184.216.34', family: 4 },
      { address: '2606:2800:220:1::1', family: 6 },
    ]);
    assert.deepEqual(await resolve('v4only.test', { timeoutMs: 2000 }), [{ address: '93.184.216.35', family: 4 }]);
    assert.deepEqual(await resolve('nothing.test', { timeoutMs: 2000 }), []);
  });

  it('the guard refuses a name resolving to an internal address without saying which, and names the address only in the detail', async () => {
    const resolver = createDnsResolver({ servers: [dnsServer] });
    for (const host of ['internal.test', 'loop.test']) {
      const result = await resolveTarget(`https://${host}/cb`, { allowLoopback: false, resolver, timeoutMs: 2000 });
      assert.equal(result.ok, false);
      if (result.ok) return;
      assert.equal(result.reason, NON_PUBLIC_HOST);
      assert.doesNotMatch(result.reason, /10\.1\.2\.3|127\.0\.0\.1|private|loopback/);
      assert.match(result.detail, /10\.1\.2\.3|127\.0\.0\.1/);
    }
    const unknown = await resolveTarget('https://nothing.test/cb', { allowLoopback: false, resolver, timeoutMs: 2000 });
    assert.equal(!unknown.ok && unknown.reason, NON_PUBLIC_HOST);
    const good = await resolveTarget('https://public.test/cb', { allowLoopback: false, resolver, timeoutMs: 2000 });
    assert.equal(good.ok && good.target.servername, 'public.test');
  });

  it('a server that never answers: the lookup fails at its deadline, its slot is freed, and file I/O is not held up meanwhile', async () => {
    const resolve = createDnsResolver({ servers: [dnsServer], maxConcurrent: 8 });
    const started = Date.now();
    // More hanging lookups than libuv's thread pool has threads (4): c-ares needs none.
    const hanging = Array.from({ length: 8 }, (_, i) =>
      resolve(`silent${i}.test`, { timeoutMs: 400 }).then(
        () => 'answered',
        (error: Error) => error.message,
      ),
    );
    const read = Date.now();
    await readFile(import.meta.filename);
    assert.ok(Date.now() - read < 300, 'file I/O is not queued behind the lookups');
    for (const outcome of await Promise.all(hanging)) assert.notEqual(outcome, 'answered');
    const took = Date.now() - started;
    assert.ok(took >= 350 && took < 2000, `gave up after ${took} ms`);
    assert.deepEqual(resolve.stats(), { running: 0, waiting: 0 });
  });

  it('at most maxConcurrent lookups run; maxWaiting more wait; past that a lookup is refused at once as busy', async () => {
    const resolve = createDnsResolver({ servers: [dnsServer], maxConcurrent: 2, maxWaiting: 1 });
    const before = queries;
    const pending = [0, 1, 2].map((i) =>
      resolve(`silent-cap${i}.test`, { timeoutMs: 300 }).catch((error: unknown) => error),
    );
    await new Promise((resolveWait) => setTimeout(resolveWait, 50));
    assert.deepEqual(resolve.stats(), { running: 2, waiting: 1 });
    await assert.rejects(resolve('public.test', { timeoutMs: 300 }), LookupBusyError);
    const refused = await resolveTarget('https://public.test/', {
      allowLoopback: false,
      resolver: resolve,
      timeoutMs: 300,
    });
    assert.equal(!refused.ok && refused.kind, 'busy');
    await Promise.all(pending);
    assert.ok(queries - before >= 4, 'the two running lookups asked (A and AAAA each)');
    assert.deepEqual(resolve.stats(), { running: 0, waiting: 0 });
    assert.equal((await resolve('public.test', { timeoutMs: 2000 })).length, 2, 'free again');
  });

  it('localhost is loopback without DNS: allowed only with the loopback setting', async () => {
    const resolver = createDnsResolver({ servers: [dnsServer] });
    const before = queries;
    const allowed = await resolveTarget('https://localhost:8443/cb', { allowLoopback: true, resolver });
    assert.equal(allowed.ok, true);
    assert.deepEqual(allowed.ok && allowed.target.addresses, [
      { address: '127.0.0.1', family: 4 },
      { address: '::1', family: 6 },
    ]);
    assert.equal((await resolveTarget('https://localhost/cb', { allowLoopback: false, resolver })).ok, false);
    assert.equal(queries, before);
  });
});

describe('one IP parser for the guard and the rate limiter', () => {
  it('IPv6 clients are counted per /64, whatever the spelling (an IPv4 tail included)', () => {
    assert.equal(clientKey('64:ff9b::1.2.3.4'), clientKey('64:ff9b::102:304'));
    assert.equal(clientKey('64:ff9b::1.2.3.4'), 'v6-64ff9b00000000');
    assert.equal(clientKey('2001:db8:1:2::1'), clientKey('2001:db8:1:2:ffff:ffff:ffff:ffff'));
    assert.notEqual(clientKey('2001:db8:1:2::1'), clientKey('2001:db8:1:3::1'));
    assert.equal(clientKey('::ffff:203.0.113.9'), 'v4-203.0.113.9');
    assert.equal(clientKey('::ffff:cb00:7109'), 'v4-203.0.113.9');
    assert.equal(clientKey('203.0.113.9'), 'v4-203.0.113.9');
    assert.equal(mappedV4('64:ff9b::1.2.3.4'), undefined);
  });
});

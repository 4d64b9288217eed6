/**
 * The SSRF guard at unit level: which addresses a callback may reach, URL
 * syntax rules, every resolved address checked, and the pinned lookup that
 * keeps the connection on the checked addresses.
 */
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { describe, it } from 'node:test';
import { createStore } from '../../src/lib/store/index.ts';
import { DEFAULT_HUB_CONFIG } from '../../src/lib/websub/config.ts';
import { callbackHost } from '../../src/lib/websub/caps.ts';
import { createHub } from '../../src/lib/websub/hub-handler.ts';
import { mappedV4, v6ToBigInt } from '../../src/lib/net/ip.ts';
import {
  checkAddress,
  checkCallbackSyntax,
  NON_PUBLIC_HOST,
  pinnedLookup,
  resolveTarget,
} from '../../src/lib/websub/ssrf.ts';
import { tempDir, TOPICS } from './helpers.ts';

const REFUSED: Array<[string, string]> = [
  ['0.0.0.0', 'this network'],
  ['10.0.0.1', 'private'],
  ['10.255.255.255', 'private'],
  ['100.64.0.1', 'carrier-grade NAT'],
  ['100.100.100.200', 'carrier-grade NAT'], // Alibaba Cloud metadata
  ['127.0.0.1', 'loopback'],
  ['127.53.0.9', 'loopback'],
  ['169.254.169.254', 'link-local'], // AWS, GCP, Azure, OpenStack metadata
  ['169.254.0.1', 'link-local'],
  ['168.63.129.16', 'metadata'], // Azure wire server
  ['172.16.0.1', 'private'],
  ['172.31.255.254', 'private'],
  ['192.0.0.170', 'IETF'],
  ['192.0.2.5', 'documentation'],
  ['192.168.1.1', 'private'],
  ['198.18.0.1', 'benchmarking'],
  ['224.0.0.1', 'multicast'],
  ['239.255.255.250', 'multicast'],
  ['240.0.0.1', 'reserved'],
  ['255.255.255.255', 'reserved'],
  ['::', 'unspecified'],
  ['::1', 'loopback'],
  ['::ffff:127.0.0.1', 'IPv4-mapped'],
  ['::ffff:8.8.8.8', 'IPv4-mapped'],
  ['::ffff:7f00:1', 'IPv4-mapped'],
  ['::127.0.0.1', 'IPv4-compatible'],
  ['64:ff9b::a9fe:a9fe', 'NAT64'], // 169.254.169.254 through NAT64
  ['64:ff9b::10.0.0.1', 'NAT64'],
  ['fc00::1', 'unique-local'],
  ['fd00:ec2::254', 'unique-local'], // AWS metadata over IPv6
  ['fe80::1', 'link-local'],
  ['fe80::1%eth0', 'link-local'],
  ['fec0::1', 'site-local'],
  ['ff02::1', 'multicast'],
  ['2001:db8::1', 'documentation'],
  ['2002:a00:1::1', '6to4'],
  ['2001::1', 'IETF'], // Teredo
  ['not-an-ip', 'not an IP'],
  // Ranges ipaddr.js names coarsely or not at all, and its readings Node does not share (src/lib/net/ip.ts).
  ['192.88.99.1', '6to4 relay'],
  ['198.51.100.7', 'documentation'],
  ['203.0.113.9', 'documentation'],
  ['192.175.48.1', 'AS112'],
  ['192.52.193.1', 'AMT'],
  ['::7f00:1', 'IPv4-compatible'], // ::127.0.0.1 in hex: ipaddr.js calls it unicast
  ['::a9fe:a9fe%eth0', 'IPv4-compatible'],
  ['::ffff:0:a00:1', 'IPv4-translated'],
  ['64:ff9b:1::a00:1', 'local-use NAT64'],
  ['64:ff9b::7f00:1', 'NAT64 address of 127.0.0.1: loopback'],
  ['100::1', 'discard'],
  ['2001:2::1', 'benchmarking'],
  ['2001:20::1', 'ORCHID'],
  ['3fff::1', 'documentation'],
  ['5f00::1', 'segment routing'],
  ['2620:4f:8000::1', 'AS112'],
  ['010.0.0.1', 'not an IP'], // ipaddr.js reads it as octal 8.0.0.1; Node will not connect to it
  ['0x7f.0.0.1', 'not an IP'],
  ['127.1', 'not an IP'],
  ['2130706433', 'not an IP'],
  ['::ffff:0x7f.0.0.1', 'not an IP'],
];

const ALLOWED = [
  '8.8.8.8',
  '1.1.1.1',
  '192.0.3.1',
  '2001:200::1',
  '93.184.216.34',
  '172.32.0.1',
  '100.128.0.1',
  '169.253.255.255',
  '2606:4700:4700::1111',
  '2a00:1450:4001:82b::200e',
  '64:ff9b::808:808',
];

describe('checkAddress', () => {
  for (const [address, reason] of REFUSED) {
    it(`refuses ${address} (${reason})`, () => {
      const verdict = checkAddress(address);
      assert.equal(verdict.ok, false);
      assert.match((verdict as { reason: string }).reason, new RegExp(reason, 'i'));
    });
  }
  for (const address of ALLOWED) {
    it(`allows public ${address}`, () => assert.deepEqual(checkAddress(address), { ok: true }));
  }
  it('the loopback setting lets loopback through and nothing else', () => {
    assert.deepEqual(checkAddress('127.0.0.1', true), { ok: true });
    assert.deepEqual(checkAddress('127.9.9.9', true), { ok: true });
    assert.deepEqual(checkAddress('::1', true), { ok: true });
    for (const address of [
      '::ffff:127.0.0.1',
      '10.0.0.1',
      '192.168.0.1',
      '169.254.169.254',
      '100.64.0.1',
      'fd00::1',
      'fe80::1',
      '0.0.0.0',
      '::',
    ]) {
      assert.equal(checkAddress(address, true).ok, false, address);
    }
  });
});

describe('the shared IP parser (ip.ts, also used by the rate limiter)', () => {
  it('reads ::a.b.c.d as IPv4-compatible, as Node does, not as ipaddr.js does (IPv4-mapped)', () => {
    assert.equal(v6ToBigInt('::1.2.3.4'), 0x01020304n);
    assert.equal(mappedV4('::1.2.3.4'), undefined);
    assert.equal(v6ToBigInt('::ffff:1.2.3.4%eth0'), 0xffff01020304n);
  });
  it('finds the IPv4 address in every spelling of an IPv4-mapped address', () => {
    for (const spelling of ['::ffff:1.2.3.4', '::FFFF:102:304', '0:0:0:0:0:ffff:1.2.3.4', '0::ffff:0102:0304'])
      assert.equal(mappedV4(spelling), '1.2.3.4', spelling);
    for (const other of ['1.2.3.4', '64:ff9b::1.2.3.4', '::ffff:0:102:304', 'nonsense', '::ffff:010.2.3.4'])
      assert.equal(mappedV4(other), undefined, other);
  });
  it('an IPv6 address as a 128-bit integer', () => {
    assert.equal(v6ToBigInt('2001:db8::1'), 0x20010db8000000000000000000000001n);
    assert.equal(v6ToBigInt('64:ff9b::1.2.3.4'), 0x0064ff9b000000000000000001020304n);
    assert.throws(() => v6ToBigInt('1.2.3.4'));
  });
});

describe('checkCallbackSyntax', () => {
  const cases: Array<[string, RegExp | null]> = [
    ['https://example.com/cb?x=1', null],
    ['http://example.com/cb', /https/],
    ['ftp://example.com/cb', /https/],
    ['https://user:pw@example.com/cb', /credentials/],
    ['https://user@example.com/cb', /credentials/],
    ['example.com/cb', /absolute/],
    ['', /absolute/],
    ['https://example.com./cb', null],
    ['https://localhost..:8443/d', /empty labels/],
    ['https://localhost...:8443/d', /empty labels/],
    ['https://a..example.com/cb', /empty labels/],
    ['https://.example.com/cb', /empty labels/],
  ];
  for (const [url, error] of cases) {
    it(`${url || '(empty)'} → ${error ?? 'ok'}`, () => {
      const verdict = checkCallbackSyntax(url);
      if (error === null) assert.equal(verdict.ok, true);
      else assert.match((verdict as { reason: string }).reason, error);
    });
  }
});

it('callbackHost counts every spelling of a name with trailing dots as the name', () => {
  for (const url of [
    'https://localhost/d',
    'https://localhost.:8443/d',
    'https://LOCALHOST../d',
    'https://localhost.../d',
  ])
    assert.equal(callbackHost(url), 'localhost', url);
});

describe('resolveTarget', () => {
  const dns = (answers: Record<string, string[]>) => async (host: string) =>
    (answers[host] ?? []).map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));

  it('accepts a name whose every address is public, and pins to them with the name as SNI', async () => {
    const result = await resolveTarget('https://sub.example/cb', {
      allowLoopback: false,
      resolver: dns({ 'sub.example': ['93.184.216.34', '2606:2800:220:1::1'] }),
    });
    assert.equal(result.ok, true);
    if (!result.ok) return;
    assert.equal(result.target.servername, 'sub.example');
    assert.deepEqual(
      result.target.addresses.map((a) => a.address),
      ['93.184.216.34', '2606:2800:220:1::1'],
    );
  });
  it('refuses a name with one private address among public ones, without telling which address or what kind', async () => {
    const result = await resolveTarget('https://mixed.example/cb', {
      allowLoopback: false,
      resolver: dns({ 'mixed.example': ['93.184.216.34', '10.1.2.3'] }),
    });
    assert.equal(result.ok, false);
    if (result.ok) return;
    assert.equal(result.reason, NON_PUBLIC_HOST);
    assert.match(result.detail, /10\.1\.2\.3/, 'the detail (for the log) names it');
  });
  it("an IP literal: the refusal names the class of the caller's own address", async () => {
    const result = await resolveTarget('https://10.0.0.7/cb', { allowLoopback: false });
    assert.equal(!result.ok && result.kind, 'refused');
    assert.match(!result.ok ? result.reason : '', /private/);
  });
  it('refuses a name resolving to the metadata address, and one that does not resolve', async () => {
    assert.equal(
      (
        await resolveTarget('https://meta.example/', {
          allowLoopback: false,
          resolver: dns({ 'meta.example': ['169.254.169.254'] }),
        })
      ).ok,
      false,
    );
    assert.equal((await resolveTarget('https://none.example/', { allowLoopback: false, resolver: dns({}) })).ok, false);
    assert.equal(
      (
        await resolveTarget('https://fail.example/', {
          allowLoopback: false,
          resolver: async () => Promise.reject(new Error('ENOTFOUND')),
        })
      ).ok,
      false,
    );
  });
  it('refuses IP literals in private ranges, including bracketed IPv6 and WHATWG-normalised forms', async () => {
    for (const url of [
      'https://10.0.0.1/',
      'https://[::1]/',
      'https://[::ffff:169.254.169.254]/',
      'https://0x7f.1/',
      'https://2130706433/',
      'https://[fd00::1]:8443/',
    ]) {
      assert.equal((await resolveTarget(url, { allowLoopback: false })).ok, false, url);
    }
  });
  it('a DNS answer that changes between two checks is judged again (rebinding)', async () => {
    let calls = 0;
    const rebinding = async () => [{ address: calls++ === 0 ? '93.184.216.34' : '127.0.0.1', family: 4 }];
    assert.equal(
      (await resolveTarget('https://rebind.example/', { allowLoopback: false, resolver: rebinding })).ok,
      true,
    );
    assert.equal(
      (await resolveTarget('https://rebind.example/', { allowLoopback: false, resolver: rebinding })).ok,
      false,
    );
  });
  it('times out a DNS lookup that hangs', async () => {
    const started = Date.now();
    const result = await resolveTarget('https://slow.example/', {
      allowLoopback: false,
      timeoutMs: 100,
      resolver: () => new Promise(() => {}),
    });
    assert.equal(result.ok, false);
    assert.ok(Date.now() - started < 1000);
  });
});

describe('pinnedLookup', () => {
  const lookup = pinnedLookup([
    { address: '93.184.216.34', family: 4 },
    { address: '2606:2800:220:1::1', family: 6 },
  ]);
  const call = (host: string, options: object) =>
    new Promise<unknown[]>((resolve) =>
      (lookup as unknown as (h: string, o: object, cb: (...a: unknown[]) => void) => void)(host, options, (...args) =>
        resolve(args),
      ),
    );

  it('answers the checked addresses whatever host it is asked for', async () => {
    assert.deepEqual(await call('evil.example', { all: true }), [
      null,
      [
        { address: '93.184.216.34', family: 4 },
        { address: '2606:2800:220:1::1', family: 6 },
      ],
    ]);
    assert.deepEqual(await call('evil.example', {}), [null, '93.184.216.34', 4]);
    assert.deepEqual(await call('evil.example', { family: 6 }), [null, '2606:2800:220:1::1', 6]);
  });
  it('fails rather than look up anything else', async () => {
    const only4 = pinnedLookup([{ address: '93.184.216.34', family: 4 }]) as unknown as (
      h: string,
      o: object,
      cb: (...a: unknown[]) => void,
    ) => void;
    const [error] = await new Promise<unknown[]>((resolve) => only4('x', { family: 6 }, (...args) => resolve(args)));
    assert.ok(error instanceof Error);
  });
});

describe('the hub answers a refused callback host generically', () => {
  it('400 without the resolved addresses or their class; the log has them', async () => {
    const dir = tempDir('websub-ssrf-hub-');
    const store = createStore({ dir, redisPrefix: 'test' });
    const logged: string[] = [];
    const resolver = async (host: string) =>
      host === 'internal.example' ? [{ address: '127.0.0.1', family: 4 }] : [{ address: '10.20.30.40', family: 4 }];
    const hub = createHub({
      site: 'http://localhost:4321',
      store,
      content: async () => undefined,
      config: DEFAULT_HUB_CONFIG,
      resolver,
      log: (line) => logged.push(line),
    });
    try {
      for (const host of ['internal.example', 'corp.example']) {
        const body = new URLSearchParams({
          'hub.mode': 'subscribe',
          'hub.callback': `https://${host}/cb?token=t0ken`,
          'hub.topic': TOPICS.atom.url,
        });
        const response = await hub.handle(
          new Request('http://localhost:4321/api/websub/hub', {
            method: 'POST',
            headers: { 'content-type': 'application/x-www-form-urlencoded' },
            body,
          }),
          { address: '203.0.113.1' },
        );
        assert.equal(response.status, 400);
        const text = await response.text();
        assert.match(text, /does not resolve to a public address/);
        assert.doesNotMatch(text, /127\.0\.0\.1|10\.20\.30\.40|loopback|private/);
      }
      assert.ok(
        logged.some((line) => line.includes('127.0.0.1')) && logged.some((line) => line.includes('10.20.30.40')),
        logged.join('\n'),
      );
      assert.ok(
        !logged.some((line) => line.includes('t0ken')),
        'the callback query (it may hold a token) is not logged',
      );
      assert.deepEqual(await store.keys('websub:sub:'), []);
    } finally {
      await hub.close();
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

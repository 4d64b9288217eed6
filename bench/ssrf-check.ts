/**
 * The callback guard's address check (`checkAddress` in src/lib/websub/ssrf.ts), in process:
 * time per check over a fixed mix of addresses, and, with `--baseline`, the same against another
 * version of the module (e.g. the hand-rolled one before ipaddr.js) in the same run, plus a
 * verdict-by-verdict comparison: the current check must refuse every address the baseline refuses.
 *
 *   git archive ee1b64a src/lib/websub | tar -x -C /tmp/ssrf-before
 *   node_modules/.bin/node bench/ssrf-check.ts --baseline /tmp/ssrf-before/src/lib/websub/ssrf.ts
 *
 * Options: --addresses 100000 --rounds 7 --seed 42, --public (only public addresses, what DNS
 * usually answers: every range is tested and none matches). Exits 1 when the current check allows an
 * address the baseline refuses, or throws on any address.
 */
import { parseArgs } from 'node:util';
import { pathToFileURL } from 'node:url';
import { resolve } from 'node:path';
import ipaddr from 'ipaddr.js';

type Check = (address: string, allowLoopback?: boolean) => { ok: boolean };

const { values } = parseArgs({
  options: {
    baseline: { type: 'string' },
    addresses: { type: 'string', default: '100000' },
    rounds: { type: 'string', default: '7' },
    seed: { type: 'string', default: '42' },
    public: { type: 'boolean', default: false },
  },
});

const load = async (path: string): Promise<Check> => ((await import(pathToFileURL(resolve(path)).href)) as { checkAddress: Check }).checkAddress;
const current = await load('src/lib/websub/ssrf.ts');
const baseline = values.baseline ? await load(values.baseline) : undefined;

// mulberry32: the same mix on every run.
let state = Number(values.seed) >>> 0;
const random = (): number => {
  state = (state + 0x6d2b79f5) >>> 0;
  let t = state;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
};
const int = (n: number): number => Math.floor(random() * n);
const hex = (): string => int(0x10000).toString(16);
const quad = (): string => [int(256), int(256), int(256), int(256)].join('.');
const pick = <T>(items: readonly T[]): T => items[int(items.length)]!;

/** Every range either version names: its first and last address and the two just outside it. */
function boundaries(): string[] {
  const ranges: string[] = [
    '0.0.0.0/8', '10.0.0.0/8', '100.64.0.0/10', '127.0.0.0/8', '169.254.0.0/16', '172.16.0.0/12', '192.0.0.0/24',
    '192.0.2.0/24', '192.88.99.0/24', '192.168.0.0/16', '198.18.0.0/15', '198.51.100.0/24', '203.0.113.0/24',
    '224.0.0.0/4', '240.0.0.0/4', '168.63.129.16/32', '::/128', '::1/128', '::ffff:0:0/96', '::ffff:0:0:0/96', '::/96',
    '64:ff9b::/96', '64:ff9b:1::/48', '100::/64', '2001::/23', '2001:db8::/32', '2002::/16', '3fff::/20', '5f00::/16',
    'fc00::/7', 'fe80::/10', 'fec0::/10', 'ff00::/8',
  ];
  for (const special of [ipaddr.IPv4.prototype, ipaddr.IPv6.prototype] as unknown as Array<{ SpecialRanges: Record<string, unknown> }>) {
    for (const entry of Object.values(special.SpecialRanges)) {
      const list = (Array.isArray((entry as unknown[])[0]) ? entry : [entry]) as Array<[ipaddr.IPv4 | ipaddr.IPv6, number]>;
      for (const [base, bits] of list) ranges.push(`${base.toString()}/${bits}`);
    }
  }
  const out: string[] = [];
  for (const cidr of ranges) {
    const width = cidr.includes(':') ? 128 : 32;
    const [base, bits] = ipaddr.parseCIDR(cidr);
    const first = BigInt(`0x${Buffer.from(base.toByteArray()).toString('hex')}`) & ~((1n << BigInt(width - bits)) - 1n);
    const last = first | ((1n << BigInt(width - bits)) - 1n);
    for (const value of [first - 1n, first, last, last + 1n]) {
      if (value < 0n || value >= 1n << BigInt(width)) continue;
      const bytes = [...Buffer.from(value.toString(16).padStart(width / 4, '0'), 'hex')];
      out.push(ipaddr.fromByteArray(bytes).toString());
    }
  }
  return out;
}

/** A realistic-to-hostile mix: mostly public IPv4/IPv6 (what DNS answers), then every refused kind and spelling. */
function mix(count: number): string[] {
  const makers: Array<() => string> = [
    quad, quad, quad, quad,
    () => `2${int(16).toString(16)}${hex().slice(0, 2)}:${hex()}:${hex()}::${hex()}`,
    () => `2a00:1450:${hex()}:${hex()}:${hex()}:${hex()}:${hex()}:${hex()}`,
    () => `10.${int(256)}.${int(256)}.${int(256)}`,
    () => `192.168.${int(256)}.${int(256)}`,
    () => `172.${16 + int(16)}.${int(256)}.${int(256)}`,
    () => `127.${int(256)}.${int(256)}.${int(256)}`,
    () => `169.254.${int(256)}.${int(256)}`,
    () => `100.${64 + int(64)}.${int(256)}.${int(256)}`,
    () => `${224 + int(32)}.${int(256)}.${int(256)}.${int(256)}`,
    () => `::ffff:${quad()}`,
    () => `::ffff:${hex()}:${hex()}`,
    () => `0:0:0:0:0:ffff:${quad()}`,
    () => `::${quad()}`,
    () => `::${hex()}:${hex()}`,
    () => `64:ff9b::${quad()}`,
    () => `64:ff9b::${hex()}:${hex()}`,
    () => `64:ff9b:1:${hex()}::${hex()}`,
    () => `fd${hex().slice(0, 2)}:${hex()}::${hex()}`,
    () => `fe80::${hex()}:${hex()}%eth${int(4)}`,
    () => `ff0${int(16).toString(16)}::${hex()}`,
    () => `2001:${int(0x200).toString(16)}::${hex()}`,
    () => `2002:${hex()}:${hex()}::${hex()}`,
    () => `2001:db8:${hex()}::${hex()}`,
    () => pick(['::', '::1', '0.0.0.0', '255.255.255.255', 'FE80::1', '::FFFF:7F00:1', 'not-an-ip', '010.0.0.1', '127.1', '0x7f.0.0.1']),
  ];
  return Array.from({ length: count }, () => pick(makers)());
}

/** Public addresses only; the few random ones that fall in a refused range are dropped. */
function publicMix(count: number): string[] {
  const out: string[] = [];
  while (out.length < count) {
    const address = random() < 0.7 ? quad() : `2${int(16).toString(16)}${hex().slice(0, 2)}:${hex()}:${hex()}::${hex()}`;
    if (current(address).ok && (!baseline || baseline(address).ok)) out.push(address);
  }
  return out;
}

const addresses = values.public ? publicMix(Number(values.addresses)) : [...boundaries(), ...mix(Number(values.addresses))];

let failed = false;
if (baseline) {
  let tightened = 0;
  const examples: string[] = [];
  for (const address of addresses) {
    for (const allowLoopback of [false, true]) {
      const before = baseline(address, allowLoopback).ok;
      const after = current(address, allowLoopback).ok;
      if (after && !before) {
        failed = true;
        console.error(`LOOSENED: ${address}${allowLoopback ? ' (allowLoopback)' : ''} was refused, is now allowed`);
      } else if (before && !after) {
        tightened++;
        if (examples.length < 8 && !allowLoopback) examples.push(address);
      }
    }
  }
  console.log(`verdicts compared: ${addresses.length * 2} (each address with and without allowLoopback); newly refused: ${tightened}${examples.length ? ` (e.g. ${examples.join(', ')})` : ''}`);
}

function time(check: Check): number {
  const started = process.hrtime.bigint();
  let refused = 0;
  for (const address of addresses) if (!check(address).ok) refused++;
  const ns = Number(process.hrtime.bigint() - started);
  if (refused === 0 && !values.public) throw new Error('nothing refused: the mix is wrong');
  return ns / addresses.length;
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const rounds = Number(values.rounds);
const timings = { current: [] as number[], baseline: [] as number[] };
time(current); // warm-up (JIT)
if (baseline) time(baseline);
for (let round = 0; round < rounds; round++) {
  timings.current.push(time(current));
  if (baseline) timings.baseline.push(time(baseline));
}
const refusedShare = addresses.filter((address) => !current(address).ok).length / addresses.length;
console.log(`${addresses.length} addresses (${(refusedShare * 100).toFixed(0)}% refused), median of ${rounds} rounds`);
console.log(`current:  ${(median(timings.current) / 1000).toFixed(2)} µs/check`);
if (baseline) {
  console.log(`baseline: ${(median(timings.baseline) / 1000).toFixed(2)} µs/check`);
  console.log(`current / baseline time: ${(median(timings.current) / median(timings.baseline)).toFixed(2)}`);
}
if (failed) {
  console.error('must hold: the current check refuses everything the baseline refuses — FAILED');
  process.exit(1);
}

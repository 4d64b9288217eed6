/**
 * The callback guard (SSRF): which URLs and addresses the hub may send a
 * request to. A callback must be HTTPS without credentials; its host name is
 * resolved and every address must be public. The check runs again before
 * every request the hub makes, and the connection is pinned to the addresses
 * just checked (a `lookup` that answers them), so a DNS answer that changes
 * between check and connect (rebinding) cannot reach an internal address.
 */
import { isIP } from 'node:net';
import type { LookupFunction } from 'node:net';
import { LookupBusyError, systemResolver, type ResolvedAddress, type Resolver } from './dns.ts';
import { intToV4, v4ToInt, v6ToBigInt } from './ip.ts';

export type { Resolver } from './dns.ts';

export type AddressVerdict = { ok: true } | { ok: false; reason: string };

interface Range {
  base: bigint;
  bits: number;
  reason: string;
}

const v4 = (cidr: string, reason: string): Range => {
  const [base, bits] = cidr.split('/') as [string, string];
  return { base: v4ToInt(base), bits: Number(bits), reason };
};
const v6 = (cidr: string, reason: string): Range => {
  const [base, bits] = cidr.split('/') as [string, string];
  return { base: v6ToBigInt(base), bits: Number(bits), reason };
};

/** IANA special-purpose registries (RFC 6890 and successors), plus cloud metadata services. */
const V4_BLOCKED: Range[] = [
  v4('0.0.0.0/8', '"this network" address'),
  v4('10.0.0.0/8', 'private address'),
  v4('100.64.0.0/10', 'carrier-grade NAT address'),
  v4('127.0.0.0/8', 'loopback address'),
  v4('169.254.0.0/16', 'link-local address (cloud metadata lives here)'),
  v4('172.16.0.0/12', 'private address'),
  v4('192.0.0.0/24', 'IETF protocol assignment'),
  v4('192.0.2.0/24', 'documentation address'),
  v4('192.88.99.0/24', '6to4 relay anycast address'),
  v4('192.168.0.0/16', 'private address'),
  v4('198.18.0.0/15', 'benchmarking address'),
  v4('198.51.100.0/24', 'documentation address'),
  v4('203.0.113.0/24', 'documentation address'),
  v4('224.0.0.0/4', 'multicast address'),
  v4('240.0.0.0/4', 'reserved address'),
  v4('168.63.129.16/32', 'cloud metadata address (Azure)'),
];

const V6_BLOCKED: Range[] = [
  v6('::/128', 'unspecified address'),
  v6('::1/128', 'loopback address'),
  v6('::ffff:0:0/96', 'IPv4-mapped IPv6 address'),
  v6('::ffff:0:0:0/96', 'IPv4-translated IPv6 address'),
  v6('::/96', 'IPv4-compatible IPv6 address'),
  v6('64:ff9b:1::/48', 'local-use NAT64 address'),
  v6('100::/64', 'discard-only address'),
  v6('2001::/23', 'IETF protocol assignment'),
  v6('2001:db8::/32', 'documentation address'),
  v6('2002::/16', '6to4 address'),
  v6('3fff::/20', 'documentation address'),
  v6('5f00::/16', 'segment routing address'),
  v6('fc00::/7', 'unique-local address'),
  v6('fe80::/10', 'link-local address'),
  v6('fec0::/10', 'site-local address'),
  v6('ff00::/8', 'multicast address'),
];

function inRange(value: bigint, range: Range, width: number): boolean {
  const shift = BigInt(width - range.bits);
  return value >> shift === range.base >> shift;
}

function checkV4(address: string, allowLoopback: boolean): AddressVerdict {
  const value = v4ToInt(address);
  if (allowLoopback && value >> 24n === 127n) return { ok: true };
  const hit = V4_BLOCKED.find((range) => inRange(value, range, 32));
  return hit ? { ok: false, reason: `${address}: ${hit.reason}` } : { ok: true };
}

/**
 * Whether the hub may connect to `address` (an IP literal). `allowLoopback`
 * (a test setting) lets 127.0.0.0/8 and ::1 through, nothing else.
 */
export function checkAddress(address: string, allowLoopback = false): AddressVerdict {
  const family = isIP(address);
  if (family === 4) return checkV4(address, allowLoopback);
  if (family !== 6) return { ok: false, reason: `${address} is not an IP address` };
  const value = v6ToBigInt(address);
  if (allowLoopback && value === 1n) return { ok: true };
  // NAT64 (64:ff9b::/96) carries an IPv4 address that the gateway reaches: judge that one.
  if (value >> 32n === v6ToBigInt('64:ff9b::') >> 32n) {
    const embedded = value & 0xffffffffn;
    const verdict = checkV4(intToV4(embedded), false);
    return verdict.ok ? verdict : { ok: false, reason: `${address}: NAT64 address of ${verdict.reason}` };
  }
  const hit = V6_BLOCKED.find((range) => inRange(value, range, 128));
  return hit ? { ok: false, reason: `${address}: ${hit.reason}` } : { ok: true };
}

export interface CheckedTarget {
  url: URL;
  /** The host name to send as TLS SNI and to verify the certificate against ('' for IP literals). */
  servername: string;
  addresses: Array<{ address: string; family: 4 | 6 }>;
}

export type UrlVerdict = { ok: true; url: URL } | { ok: false; reason: string };

/** The synchronous part: scheme, credentials, a host. No DNS. */
export function checkCallbackSyntax(raw: string): UrlVerdict {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { ok: false, reason: 'must be an absolute URL' };
  }
  if (url.protocol !== 'https:') return { ok: false, reason: 'must be an https: URL' };
  if (url.username || url.password) return { ok: false, reason: 'must not carry credentials (user:password@)' };
  if (!url.hostname) return { ok: false, reason: 'must name a host' };
  return { ok: true, url };
}

function literalHost(url: URL): string | undefined {
  const host = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
  return isIP(host) ? host : undefined;
}

/**
 * Why a callback is refused. `reason` is what the subscriber may be told: for
 * a host name it never says which addresses the name resolves to, nor what
 * kind they are (that would make the hub an oracle for internal DNS); for an
 * IP literal the address is the caller's own, so its class is named.
 * `detail` is for the hub's log only.
 */
export type TargetRefusal = { ok: false; kind: 'syntax' | 'refused' | 'unresolved' | 'busy'; reason: string; detail: string };

/**
 * One answer for "resolves to a non-public address" and "does not resolve": two
 * would tell a caller which internal names exist. The details go to the log only.
 */
export const NON_PUBLIC_HOST = "the callback's host does not resolve to a public address";
export const LOOKUPS_BUSY = 'the hub is checking too many callback hosts right now; try again later';

/**
 * Resolves the URL's host and checks every address. One refused address
 * refuses the URL: an attacker's DNS may hand out a public and a private one.
 * IP literals are checked without a lookup.
 */
export async function resolveTarget(
  raw: string,
  options: { allowLoopback: boolean; resolver?: Resolver; timeoutMs?: number },
): Promise<{ ok: true; target: CheckedTarget } | TargetRefusal> {
  const syntax = checkCallbackSyntax(raw);
  if (!syntax.ok) return { ok: false, kind: 'syntax', reason: syntax.reason, detail: syntax.reason };
  const url = syntax.url;
  const literal = literalHost(url);
  if (literal) {
    const verdict = checkAddress(literal, options.allowLoopback);
    if (!verdict.ok) return { ok: false, kind: 'refused', reason: `the callback's host is a refused address: ${verdict.reason}`, detail: verdict.reason };
    return { ok: true, target: { url, servername: '', addresses: [{ address: literal, family: isIP(literal) === 6 ? 6 : 4 }] } };
  }
  const hostname = url.hostname.replace(/\.$/, '');
  const timeoutMs = options.timeoutMs ?? 10_000;
  let found: ResolvedAddress[];
  try {
    found = await withTimeout((options.resolver ?? systemResolver)(hostname, { timeoutMs }), timeoutMs);
  } catch (error) {
    if (error instanceof LookupBusyError) return { ok: false, kind: 'busy', reason: LOOKUPS_BUSY, detail: `host ${hostname}: ${error.message}` };
    return { ok: false, kind: 'unresolved', reason: NON_PUBLIC_HOST, detail: `host ${hostname} does not resolve: ${(error as Error).message}` };
  }
  if (found.length === 0) return { ok: false, kind: 'unresolved', reason: NON_PUBLIC_HOST, detail: `host ${hostname} has no A or AAAA records` };
  for (const { address } of found) {
    const verdict = checkAddress(address, options.allowLoopback);
    if (!verdict.ok) return { ok: false, kind: 'refused', reason: NON_PUBLIC_HOST, detail: `host ${hostname} resolves to ${verdict.reason}` };
  }
  return {
    ok: true,
    target: { url, servername: hostname, addresses: found.map(({ address, family }) => ({ address, family: family === 6 ? 6 : 4 })) },
  };
}

/**
 * A `lookup` for net/tls/https that answers only the addresses already
 * checked, whatever name it is asked for: no second DNS query can happen
 * between the check and the connection.
 */
export function pinnedLookup(addresses: CheckedTarget['addresses']): LookupFunction {
  return ((_hostname: string, options: { all?: boolean; family?: number | string } | number, callback: (...args: unknown[]) => void) => {
    const opts = typeof options === 'object' && options !== null ? options : { family: options };
    const wanted = opts.family === 4 || opts.family === 'IPv4' ? 4 : opts.family === 6 || opts.family === 'IPv6' ? 6 : 0;
    const usable = wanted ? addresses.filter((a) => a.family === wanted) : addresses;
    if (usable.length === 0) {
      const error = Object.assign(new Error('no checked address of the requested family'), { code: 'ENOTFOUND' });
      process.nextTick(callback, error);
      return;
    }
    if (opts.all) process.nextTick(callback, null, usable.map((a) => ({ address: a.address, family: a.family })));
    else process.nextTick(callback, null, usable[0]!.address, usable[0]!.family);
  }) as unknown as LookupFunction;
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms`)), ms);
    promise.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}

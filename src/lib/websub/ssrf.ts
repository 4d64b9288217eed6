/**
 * The callback guard (SSRF): which URLs and addresses the hub may send a
 * request to. A callback must be HTTPS without credentials; its host name is
 * resolved and every address must be public. The check runs again before
 * every request the hub makes, and the connection is pinned to the addresses
 * just checked (a `lookup` that answers them), so a DNS answer that changes
 * between check and connect (rebinding) cannot reach an internal address.
 */
import { isIP, type LookupFunction } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import ipaddr from 'ipaddr.js';
import { LookupBusyError, systemResolver, type ResolvedAddress, type Resolver } from './dns.ts';
import { nat64Embedded, parseIp } from '../net/ip.ts';

export type AddressVerdict = { ok: true } | { ok: false; reason: string };

/**
 * Why each of ipaddr.js's special-purpose ranges (`.range()`, from the IANA
 * registries) is refused. Only its default, `unicast`, is public; a range a
 * later ipaddr.js adds is refused too (see `refusal`).
 */
const V4_RANGE_REASONS: Record<string, string> = {
  unspecified: '"this network" address',
  broadcast: 'reserved address (limited broadcast)',
  multicast: 'multicast address',
  linkLocal: 'link-local address (cloud metadata lives here)',
  loopback: 'loopback address',
  carrierGradeNat: 'carrier-grade NAT address',
  private: 'private address',
  reserved: 'reserved address (IETF protocol assignment, documentation, benchmarking, 6to4 relay or future use)',
  as112: 'AS112 DNS sink address',
  amt: 'AMT relay anycast address',
};

const V6_RANGE_REASONS: Record<string, string> = {
  unspecified: 'unspecified address',
  linkLocal: 'link-local address',
  multicast: 'multicast address',
  loopback: 'loopback address',
  uniqueLocal: 'unique-local address',
  ipv4Mapped: 'IPv4-mapped IPv6 address',
  deprecatedSiteLocal: 'site-local address',
  discard: 'discard-only address',
  rfc6145: 'IPv4-translated IPv6 address',
  rfc6052: 'local-use NAT64 address',
  '6to4': '6to4 address',
  teredo: 'Teredo address (IETF protocol assignment)',
  benchmarking: 'benchmarking address (IETF protocol assignment)',
  amt: 'AMT address (IETF protocol assignment)',
  as112v6: 'AS112 DNS sink address',
  deprecatedOrchid: 'ORCHID address (IETF protocol assignment)',
  orchid2: 'ORCHIDv2 address (IETF protocol assignment)',
  droneRemoteIdProtocolEntityTags: 'drone remote ID address (IETF protocol assignment)',
  segmentRouting: 'segment routing address',
  reserved: 'reserved address (IETF protocol assignment or documentation)',
};

/** What ipaddr.js calls unicast but we refuse. */
const EXTRA_REFUSED: Array<{ cidr: [ipaddr.IPv4 | ipaddr.IPv6, number]; reason: string }> = [
  { cidr: ipaddr.parseCIDR('168.63.129.16/32'), reason: 'cloud metadata address (Azure)' },
  // RFC 4291 deprecated these; ipaddr.js has no range for them (`::` and `::1` are matched before).
  { cidr: ipaddr.parseCIDR('::/96'), reason: 'IPv4-compatible IPv6 address' },
];

function refusal(address: ipaddr.IPv4 | ipaddr.IPv6): string | undefined {
  const range = address.range();
  if (range !== 'unicast') {
    const reasons = address.kind() === 'ipv4' ? V4_RANGE_REASONS : V6_RANGE_REASONS;
    return reasons[range] ?? `special-purpose address (${range})`;
  }
  return EXTRA_REFUSED.find(({ cidr }) => address.kind() === cidr[0].kind() && address.match(cidr))?.reason;
}

/**
 * Whether the hub may connect to `address` (an IP literal). `allowLoopback`
 * (a test setting) lets 127.0.0.0/8 and ::1 through, nothing else.
 */
export function checkAddress(address: string, allowLoopback = false): AddressVerdict {
  const parsed = parseIp(address);
  if (!parsed) return { ok: false, reason: `${address} is not an IP address` };
  if (allowLoopback && parsed.range() === 'loopback') return { ok: true };
  // The NAT64 gateway reaches the IPv4 address inside, so that one is judged.
  const embedded = nat64Embedded(parsed);
  if (embedded) {
    const reason = refusal(embedded);
    return reason ? { ok: false, reason: `${address}: NAT64 address of ${embedded}: ${reason}` } : { ok: true };
  }
  const reason = refusal(parsed);
  return reason ? { ok: false, reason: `${address}: ${reason}` } : { ok: true };
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
  const url = URL.parse(raw);
  if (!url) return { ok: false, reason: 'must be an absolute URL' };
  if (url.protocol !== 'https:') return { ok: false, reason: 'must be an https: URL' };
  if (url.username || url.password) return { ok: false, reason: 'must not carry credentials (user:password@)' };
  if (!url.hostname) return { ok: false, reason: 'must name a host' };
  // `localhost..` or `a..b` would count as a host of its own under the per-host cap while naming the same one.
  if (!url.hostname.startsWith('[') && /^\.|\.\./.test(url.hostname))
    return { ok: false, reason: 'must name a host without empty labels (only one trailing dot)' };
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
export type TargetRefusal = {
  ok: false;
  kind: 'syntax' | 'refused' | 'unresolved' | 'busy';
  reason: string;
  detail: string;
};

/**
 * One answer for "resolves to a non-public address" and "does not resolve": two
 * would tell a caller which internal names exist. The details go to the log only.
 */
export const NON_PUBLIC_HOST = "the callback's host does not resolve to a public address";
const LOOKUPS_BUSY = 'the hub is checking too many callback hosts right now; try again later';

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
    if (!verdict.ok)
      return {
        ok: false,
        kind: 'refused',
        reason: `the callback's host is a refused address: ${verdict.reason}`,
        detail: verdict.reason,
      };
    return {
      ok: true,
      target: { url, servername: '', addresses: [{ address: literal, family: isIP(literal) === 6 ? 6 : 4 }] },
    };
  }
  const hostname = url.hostname.replace(/\.$/, '');
  const timeoutMs = options.timeoutMs ?? 10_000;
  let found: ResolvedAddress[];
  // The deadline holds whatever the resolver does (the system one keeps it itself; one a test swaps in may hang).
  const deadline = new AbortController();
  try {
    const late = sleep(timeoutMs, undefined, { signal: deadline.signal }).then(() =>
      Promise.reject(new Error(`timed out after ${timeoutMs} ms`)),
    );
    found = await Promise.race([(options.resolver ?? systemResolver)(hostname, { timeoutMs }), late]);
  } catch (error) {
    if (error instanceof LookupBusyError)
      return { ok: false, kind: 'busy', reason: LOOKUPS_BUSY, detail: `host ${hostname}: ${error.message}` };
    return {
      ok: false,
      kind: 'unresolved',
      reason: NON_PUBLIC_HOST,
      detail: `host ${hostname} does not resolve: ${(error as Error).message}`,
    };
  } finally {
    deadline.abort();
  }
  if (found.length === 0)
    return {
      ok: false,
      kind: 'unresolved',
      reason: NON_PUBLIC_HOST,
      detail: `host ${hostname} has no A or AAAA records`,
    };
  for (const { address } of found) {
    const verdict = checkAddress(address, options.allowLoopback);
    if (!verdict.ok)
      return {
        ok: false,
        kind: 'refused',
        reason: NON_PUBLIC_HOST,
        detail: `host ${hostname} resolves to ${verdict.reason}`,
      };
  }
  return {
    ok: true,
    target: {
      url,
      servername: hostname,
      addresses: found.map(({ address, family }) => ({ address, family: family === 6 ? 6 : 4 })),
    },
  };
}

/**
 * A `lookup` for net/tls/https that answers only the addresses already
 * checked, whatever name it is asked for: no second DNS query can happen
 * between the check and the connection.
 */
export function pinnedLookup(addresses: CheckedTarget['addresses']): LookupFunction {
  return ((
    _hostname: string,
    options: { all?: boolean; family?: number | string } | number,
    callback: (...args: unknown[]) => void,
  ) => {
    const opts = typeof options === 'object' && options !== null ? options : { family: options };
    const wanted =
      opts.family === 4 || opts.family === 'IPv4' ? 4 : opts.family === 6 || opts.family === 'IPv6' ? 6 : 0;
    const usable = wanted ? addresses.filter((a) => a.family === wanted) : addresses;
    if (usable.length === 0) {
      const error = Object.assign(new Error('no checked address of the requested family'), { code: 'ENOTFOUND' });
      process.nextTick(callback, error);
      return;
    }
    if (opts.all)
      process.nextTick(
        callback,
        null,
        usable.map((a) => ({ address: a.address, family: a.family })),
      );
    else process.nextTick(callback, null, usable[0]!.address, usable[0]!.family);
  }) as unknown as LookupFunction;
}

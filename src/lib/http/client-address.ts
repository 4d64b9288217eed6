/**
 * The one place that decides a request's client address (what rate limits
 * count). By default it is the connection's peer: `Forwarded` and
 * `X-Forwarded-For` are written by whoever sends the request, so they are
 * never read unless the operator says which proxies in front may be believed
 * (TRUST_PROXY). Then the chain is read from the right, the end nearest to us:
 * each trusted proxy vouches only for the hop it appended, and whatever a
 * client wrote further left is never reached while a trusted hop precedes it.
 *
 * On Netlify and Vercel the platform states the address itself (Astro's
 * `clientAddress`: Netlify's `context.ip`, Vercel's own `X-Forwarded-For`,
 * which its edge overwrites), so the Astro routes there take that as is.
 */
import ipaddr from 'ipaddr.js';
import { parseIp, unmapped } from '../net/ip.ts';

type ForwardedHeader = 'x-forwarded-for' | 'forwarded';

export type ProxyTrust =
  | { kind: 'none' }
  /** That many proxies, each appending one hop, stand between the clients and us. */
  | { kind: 'hops'; hops: number; header: ForwardedHeader }
  /** Peers and hops inside these ranges are proxies of ours. */
  | { kind: 'ranges'; ranges: Array<[ipaddr.IPv4 | ipaddr.IPv6, number]>; header: ForwardedHeader };

type Headers = { get(name: string): string | null };

/** Names TRUST_PROXY accepts besides addresses and CIDRs. */
const NAMED_RANGES: Record<string, string[]> = {
  loopback: ['127.0.0.0/8', '::1/128'],
  private: ['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16', 'fc00::/7'],
  linklocal: ['169.254.0.0/16', 'fe80::/10'],
};

/** No request names more hops than this; a longer chain is read only this far from the right. */
const MAX_HOPS = 32;

/**
 * TRUST_PROXY: unset (or `false`, `0`): trust no header. A number N: N proxies
 * in front. Otherwise a comma-separated list of addresses, CIDRs and the names
 * `loopback`, `private`, `linklocal`. TRUST_PROXY_HEADER: `x-forwarded-for`
 * (default) or `forwarded` (RFC 7239), the one the proxy writes.
 */
export function proxyTrustFromEnv(env: Record<string, string | undefined>): ProxyTrust {
  const text = env.TRUST_PROXY?.trim().toLowerCase() ?? '';
  if (text === '' || text === 'false' || text === '0') return { kind: 'none' };
  const headerText = env.TRUST_PROXY_HEADER?.trim().toLowerCase() || 'x-forwarded-for';
  if (headerText !== 'x-forwarded-for' && headerText !== 'forwarded') {
    throw new Error(`TRUST_PROXY_HEADER must be "x-forwarded-for" or "forwarded"; got "${env.TRUST_PROXY_HEADER}"`);
  }
  const header: ForwardedHeader = headerText;
  if (/^\d+$/.test(text)) {
    const hops = Number(text);
    if (hops > MAX_HOPS) throw new Error(`TRUST_PROXY: at most ${MAX_HOPS} proxies; got ${hops}`);
    return { kind: 'hops', hops, header };
  }
  if (text === 'true') {
    throw new Error(
      "TRUST_PROXY=true would believe any client's X-Forwarded-For: give the number of proxies in front (e.g. 1) or their addresses (e.g. loopback, 10.0.0.0/8)",
    );
  }
  const ranges = text
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean)
    .flatMap((item) => (NAMED_RANGES[item] ?? [item]).map((range) => parseRange(range, item)));
  return { kind: 'ranges', ranges, header };
}

function parseRange(range: string, item: string): [ipaddr.IPv4 | ipaddr.IPv6, number] {
  try {
    if (range.includes('/')) return ipaddr.parseCIDR(range);
    const address = ipaddr.parse(range);
    return [address, address.kind() === 'ipv4' ? 32 : 128];
  } catch {
    throw new Error(
      `TRUST_PROXY: "${item}" is not a number of proxies, an address, a CIDR or one of ${Object.keys(NAMED_RANGES).join(', ')}`,
    );
  }
}

/** The client's address: `peer` (the socket's) unless a trusted proxy says otherwise. */
export function clientAddress(peer: string, headers: Headers, trust: ProxyTrust): string {
  if (trust.kind === 'none') return peer;
  const chain = [...forwardedChain(headers.get(trust.header), trust.header), peer];
  if (trust.kind === 'hops') return chain[Math.max(0, chain.length - 1 - trust.hops)]!;
  for (let index = chain.length - 1; index > 0; index--) {
    if (!isTrusted(chain[index]!, trust.ranges)) return chain[index]!;
  }
  return chain[0]!;
}

function isTrusted(hop: string, ranges: Array<[ipaddr.IPv4 | ipaddr.IPv6, number]>): boolean {
  const parsed = parseIp(hop);
  if (!parsed) return false;
  const address = unmapped(parsed);
  return ranges.some((range) => address.kind() === range[0].kind() && address.match(range));
}

/** The hops a header lists, left (the first client) to right (the last proxy), at most MAX_HOPS from the right, ports and brackets gone. */
function forwardedChain(value: string | null, header: ForwardedHeader): string[] {
  if (value === null) return [];
  const elements = value.split(',').slice(-MAX_HOPS);
  return elements.map((element) => bareAddress(header === 'forwarded' ? forValue(element) : element.trim()));
}

/** The `for` parameter of one RFC 7239 element (`for=192.0.2.60;proto=https`, `for="[2001:db8::17]:4711"`); `unknown` without one. */
function forValue(element: string): string {
  for (const pair of element.split(';')) {
    const equals = pair.indexOf('=');
    if (equals > 0 && pair.slice(0, equals).trim().toLowerCase() === 'for')
      return pair
        .slice(equals + 1)
        .trim()
        .replace(/^"(.*)"$/, '$1');
  }
  return 'unknown';
}

/** `[2001:db8::1]:443` → `2001:db8::1`; `192.0.2.1:80` → `192.0.2.1`; anything else as it is. */
function bareAddress(hop: string): string {
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(hop);
  if (bracketed) return bracketed[1]!;
  const v4WithPort = /^(\d{1,3}(?:\.\d{1,3}){3}):\d+$/.exec(hop);
  return v4WithPort ? v4WithPort[1]! : hop;
}

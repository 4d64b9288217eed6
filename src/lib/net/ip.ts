/**
 * One IP parser for the callback guard (websub/ssrf.ts) and the rate limits'
 * client (limits/client-key.ts, http/client-address.ts), so all read every
 * textual form alike (`::`, zone ids, an embedded dotted quad such as
 * `64:ff9b::1.2.3.4`). Parsing is ipaddr.js's;
 * which strings count as addresses is Node's (`net.isIP`), because the guard
 * hands the same string to `net.connect`: ipaddr.js alone would also read
 * `010.0.0.1` (as octal, 8.0.0.1), `127.1` or `0x7f.0.0.1`, which Node
 * refuses to connect to, and the two must never disagree.
 */
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

export type IpAddress = ipaddr.IPv4 | ipaddr.IPv6;

/**
 * ipaddr.js reads the deprecated IPv4-compatible form `::a.b.c.d` (its
 * "deprecatedTransitional" pattern, exactly `::` then a dotted quad) as the
 * IPv4-mapped `::ffff:a.b.c.d`; Node and RFC 4291 read it as `::a.b.c.d`.
 */
const IPV4_COMPATIBLE_TEXT = /^::[^:]*\./;

/** The address `text` names, or undefined when Node would not take it as an IP address. */
export function parseIp(text: string): IpAddress | undefined {
  const family = isIP(text);
  if (family === 4) return ipaddr.IPv4.parse(text);
  if (family !== 6) return undefined;
  const parsed = ipaddr.IPv6.parse(text);
  if (!IPV4_COMPATIBLE_TEXT.test(text)) return parsed;
  const parts = [...parsed.parts];
  parts[5] = 0;
  const compatible = new ipaddr.IPv6(parts);
  if (parsed.zoneId) compatible.zoneId = parsed.zoneId;
  return compatible;
}

/** An IPv4-mapped address (`::ffff:a.b.c.d`, as a dual-stack socket reports IPv4 peers) as its IPv4 address; any other as itself. */
export function unmapped(ip: IpAddress): IpAddress {
  return ip instanceof ipaddr.IPv6 && ip.isIPv4MappedAddress() ? ip.toIPv4Address() : ip;
}

/** NAT64's well-known prefix (RFC 6052). */
const NAT64_WELL_KNOWN = ipaddr.parseCIDR('64:ff9b::/96');

/** The IPv4 address a NAT64 gateway reaches for an address of its well-known prefix, else undefined. */
export function nat64Embedded(ip: IpAddress): ipaddr.IPv4 | undefined {
  if (!(ip instanceof ipaddr.IPv6 && ip.match(NAT64_WELL_KNOWN))) return undefined;
  const [high, low] = ip.parts.slice(6) as [number, number];
  return new ipaddr.IPv4([high >> 8, high & 0xff, low >> 8, low & 0xff]);
}

/** An IPv6 address as a 128-bit integer (embedded dotted quads, `::` and a `%zone` included). */
export function v6ToBigInt(address: string): bigint {
  const parsed = parseIp(address);
  if (!(parsed instanceof ipaddr.IPv6)) throw new TypeError(`not an IPv6 address: ${address}`);
  return parsed.parts.reduce((value, part) => (value << 16n) | BigInt(part), 0n);
}

/** The IPv4 address inside an IPv4-mapped IPv6 address (`::ffff:a.b.c.d` in any spelling), else undefined. */
export function mappedV4(address: string): string | undefined {
  const parsed = parseIp(address);
  return parsed instanceof ipaddr.IPv6 && parsed.isIPv4MappedAddress() ? parsed.toIPv4Address().toString() : undefined;
}

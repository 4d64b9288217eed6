/**
 * The bucket a client address is counted in: an IPv4 address as itself (also
 * when it arrives IPv4-mapped through a dual-stack socket, `::ffff:a.b.c.d`),
 * an IPv6 address by its /64 (one host usually holds a whole /64, so counting
 * single IPv6 addresses would let it take 2^64 buckets). Every textual form of
 * one address (zone ids, an embedded dotted quad, `::`) gives one key: the
 * text is read by the same parser as the callback guard's (src/lib/net/ip.ts).
 */
import ipaddr from 'ipaddr.js';
import { parseIp, unmapped } from '../net/ip.ts';

export function clientKey(address: string): string {
  const text = address.trim();
  const parsed = parseIp(text);
  if (!parsed) return `other-${encodeURIComponent(text).slice(0, 64)}`;
  const ip = unmapped(parsed);
  if (ip instanceof ipaddr.IPv4) return `v4-${ip.toString()}`;
  const prefix = ip.parts.slice(0, 4).reduce((value, part) => (value << 16n) + BigInt(part), 0n);
  return `v6-${prefix.toString(16)}`;
}

/**
 * The bucket a client address is counted in: an IPv4 address as itself (also
 * when it arrives IPv4-mapped through a dual-stack socket, `::ffff:a.b.c.d`),
 * an IPv6 address by its /64 (one host usually holds a whole /64, so counting
 * single IPv6 addresses would let it take 2^64 buckets). Every textual form of
 * one address (zone ids, an embedded dotted quad, `::`) gives one key.
 */
import ipaddr from 'ipaddr.js';

export function clientKey(address: string): string {
  const text = address.trim();
  if (!isAddress(text)) return `other-${encodeURIComponent(text).slice(0, 64)}`;
  const ip = ipaddr.process(text);
  if (ip.kind() === 'ipv4') return `v4-${ip.toString()}`;
  const prefix = (ip as ipaddr.IPv6).parts.slice(0, 4).reduce((value, part) => (value << 16n) + BigInt(part), 0n);
  return `v6-${prefix.toString(16)}`;
}

/** An IPv6 address, or an IPv4 one in four decimal parts (not `1.2.3` nor `0x7f.1`, which ipaddr.js would also take). */
export function isAddress(text: string): boolean {
  return ipaddr.IPv6.isValid(text) || ipaddr.IPv4.isValidFourPartDecimal(text);
}

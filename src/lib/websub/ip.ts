/**
 * IP address arithmetic shared by the callback guard (ssrf.ts) and the rate
 * limiter (rate-limit.ts): one parser, so both read every textual form alike
 * (`::`, zone ids, and an embedded dotted quad such as `64:ff9b::1.2.3.4`).
 * Callers pass strings that `net.isIP` accepts.
 */
import { isIP } from 'node:net';

/** A dotted-quad IPv4 address as a 32-bit integer. */
export function v4ToInt(address: string): bigint {
  const parts = address.split('.').map(Number);
  return BigInt((((parts[0]! << 24) >>> 0) + (parts[1]! << 16) + (parts[2]! << 8) + parts[3]!) >>> 0);
}

/** An IPv6 address as a 128-bit integer (embedded dotted quads, `::` and a `%zone` included). */
export function v6ToBigInt(address: string): bigint {
  let text = address.toLowerCase();
  const zone = text.indexOf('%');
  if (zone >= 0) text = text.slice(0, zone);
  const lastColon = text.lastIndexOf(':');
  const tail = text.slice(lastColon + 1);
  if (tail.includes('.')) {
    const v4 = v4ToInt(tail);
    text = `${text.slice(0, lastColon + 1)}${(v4 >> 16n).toString(16)}:${(v4 & 0xffffn).toString(16)}`;
  }
  const [head, rest] = text.split('::') as [string, string | undefined];
  const headGroups = head ? head.split(':') : [];
  const restGroups = rest ? rest.split(':') : [];
  const fill = rest === undefined ? [] : new Array<string>(8 - headGroups.length - restGroups.length).fill('0');
  const groups = [...headGroups, ...fill, ...restGroups];
  let value = 0n;
  for (const group of groups) value = (value << 16n) + BigInt(parseInt(group || '0', 16));
  return value;
}

/** A 32-bit integer as a dotted quad. */
export function intToV4(value: bigint): string {
  return [24n, 16n, 8n, 0n].map((shift) => String((value >> shift) & 0xffn)).join('.');
}

/** The IPv4 address inside an IPv4-mapped IPv6 address (`::ffff:a.b.c.d` in any spelling), else undefined. */
export function mappedV4(address: string): string | undefined {
  if (isIP(address) !== 6) return undefined;
  const value = v6ToBigInt(address);
  return value >> 32n === 0xffffn ? intToV4(value & 0xffffffffn) : undefined;
}

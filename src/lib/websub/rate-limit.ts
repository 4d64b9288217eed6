/**
 * Fixed-window rate limits per client address, counted in the store so that
 * every instance shares them. IPv6 clients are counted per /64 (one host
 * usually holds a whole /64). Over the limit: 429 with Retry-After.
 */
import { isIP } from 'node:net';
import type { Store } from '../store/index.ts';
import type { Clock } from './config.ts';
import { mappedV4, v6ToBigInt } from './ip.ts';

export type RateVerdict = { ok: true } | { ok: false; retryAfterSeconds: number };

export function clientKey(address: string): string {
  const ip = address.trim();
  const family = isIP(ip);
  if (family === 4) return `v4-${ip}`;
  if (family === 6) {
    // An IPv4 client seen through a dual-stack socket is that IPv4 client.
    const mapped = mappedV4(ip);
    if (mapped) return `v4-${mapped}`;
    return `v6-${(v6ToBigInt(ip) >> 64n).toString(16)}`;
  }
  return `other-${encodeURIComponent(ip).slice(0, 64)}`;
}

export class RateLimiter {
  readonly #store: Store;
  readonly #now: Clock;
  readonly #windowSeconds: number;

  constructor(store: Store, now: Clock, windowSeconds: number) {
    this.#store = store;
    this.#now = now;
    this.#windowSeconds = windowSeconds;
  }

  async hit(kind: string, address: string, limit: number): Promise<RateVerdict> {
    const windowMs = this.#windowSeconds * 1000;
    const now = this.#now();
    const window = Math.floor(now / windowMs);
    const count = await this.#store.increment(`websub:rate:${kind}:${window}:${clientKey(address)}`, this.#windowSeconds + 1);
    if (count <= limit) return { ok: true };
    return { ok: false, retryAfterSeconds: Math.max(1, Math.ceil(((window + 1) * windowMs - now) / 1000)) };
  }
}

/**
 * Fixed-window rate limits per client address, counted in the store so that
 * every instance shares them. IPv6 clients are counted per /64 (one host
 * usually holds a whole /64). Over the limit: 429 with Retry-After.
 */
import { isIP } from 'node:net';
import type { Store } from '../store/index.ts';
import type { Clock } from './config.ts';

export type RateVerdict = { ok: true } | { ok: false; retryAfterSeconds: number };

export function clientKey(address: string): string {
  let ip = address.trim();
  if (ip.toLowerCase().startsWith('::ffff:') && isIP(ip.slice(7)) === 4) ip = ip.slice(7);
  if (isIP(ip) === 6) {
    const [head = '', rest] = ip.toLowerCase().split('::');
    const groups = head ? head.split(':') : [];
    const tail = rest === undefined ? [] : rest.split(':');
    const full = [...groups, ...new Array<string>(Math.max(0, 8 - groups.length - tail.length)).fill('0'), ...tail];
    return `v6-${full.slice(0, 4).join('-')}`;
  }
  return isIP(ip) === 4 ? `v4-${ip}` : `other-${encodeURIComponent(ip).slice(0, 64)}`;
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

/**
 * The caps on a topic's subscriptions: in all, per callback host, and per
 * network of the callback's address (IPv4 /24, IPv6 /48). The per-topic cap
 * alone let one client with many addresses and callbacks of its own fill a
 * topic and lock real subscribers out; a host or network is what such a
 * client has few of.
 *
 * Counting lists the topic's subscriptions (the store has no cheaper count),
 * so each process keeps its last census of a topic (plus its own new
 * subscriptions since) and trusts it while it is less than a minute old and
 * more than 10 % of a cap below it; otherwise it counts again. Subscriptions
 * are only read (to tally hosts and networks) when the topic holds at least as
 * many as the smaller of the host and network caps: below that no host or
 * network can be at its cap, and a subscribe costs one read.
 */
import ipaddr from 'ipaddr.js';
import { nat64Embedded, parseIp, unmapped } from '../net/ip.ts';
import type { Clock } from './config.ts';
import type { HubState, Subscription } from './subscriptions.ts';

export interface CapSettings {
  maxSubscriptionsPerTopic: number;
  maxSubscriptionsPerCallbackHost: number;
  maxSubscriptionsPerCallbackNetwork: number;
}

/** What a new subscription is counted under. `network` is absent when the callback's address is unknown. */
export interface CallbackPlace {
  host: string;
  network?: string;
}

const COUNT_FRESH_MS = 60_000;
const COUNT_MARGIN = 0.1;

/**
 * The network an address belongs to, as the caps count it: IPv4 by /24, IPv6 by /48 (what one
 * site or customer is usually given), an IPv4-mapped or NAT64 address by its IPv4 /24.
 */
export function addressNetwork(address: string): string | undefined {
  const parsed = parseIp(address);
  if (!parsed) return undefined;
  // A NAT64 address by its IPv4 one: every IPv4 host reached through the gateway would otherwise share one /48.
  const ip = nat64Embedded(parsed) ?? unmapped(parsed);
  if (ip instanceof ipaddr.IPv4) return `${ipaddr.IPv4.networkAddressFromCIDR(`${ip.toString()}/24`).toString()}/24`;
  return `${ipaddr.IPv6.networkAddressFromCIDR(`${ip.toNormalizedString()}/48`).toString()}/48`;
}

/** The host a callback is counted under: its URL's host name, without trailing dots. */
export function callbackHost(callback: string): string {
  return new URL(callback).hostname.replace(/\.+$/, '');
}

/** Which cap refuses a new subscription, and why (told to the subscriber; it never names an address). */
export interface CapRefusal {
  cap: 'topic' | 'host' | 'network';
  reason: string;
}

interface Census {
  at: number;
  total: number;
  /** Only taken when the topic holds at least the smaller of the host and network caps. */
  hosts?: Map<string, number>;
  networks?: Map<string, number>;
}

const bump = (map: Map<string, number> | undefined, key: string | undefined) => {
  if (map && key !== undefined) map.set(key, (map.get(key) ?? 0) + 1);
};

export class SubscriptionCaps {
  readonly #state: HubState;
  readonly #settings: CapSettings;
  readonly #now: Clock;
  readonly #census = new Map<string, Census>();

  constructor(state: HubState, settings: CapSettings, now: Clock) {
    this.#state = state;
    this.#settings = settings;
    this.#now = now;
  }

  /**
   * Why one more subscription of `place` to the topic is refused, or null when there is room.
   * Callers leave out re-subscriptions of a callback already subscribed: those are not new.
   */
  async refusal(topicId: string, place: CallbackPlace): Promise<CapRefusal | null> {
    const {
      maxSubscriptionsPerTopic: topicCap,
      maxSubscriptionsPerCallbackHost: hostCap,
      maxSubscriptionsPerCallbackNetwork: networkCap,
    } = this.#settings;
    const tallyFrom = Math.min(hostCap, networkCap);
    const known = this.#census.get(topicId);
    const census =
      known && this.#now() - known.at < COUNT_FRESH_MS && this.#clear(known, place)
        ? known
        : await this.#count(topicId, tallyFrom);
    if (census.total >= topicCap) return { cap: 'topic', reason: 'this topic has reached its subscription limit' };
    if ((census.hosts?.get(place.host) ?? 0) >= hostCap) {
      return {
        cap: 'host',
        reason: `callbacks on this host hold ${hostCap} subscriptions to this topic, the limit per host`,
      };
    }
    if (place.network !== undefined && (census.networks?.get(place.network) ?? 0) >= networkCap) {
      // Never names the network: it would tell which address the host name resolves to.
      return {
        cap: 'network',
        reason: `callbacks in this host's network hold ${networkCap} subscriptions to this topic, the limit per network`,
      };
    }
    return null;
  }

  /** Counts a subscription this process just stored, so the census stays usable until it is taken again. */
  added(topicId: string, place: CallbackPlace): void {
    const census = this.#census.get(topicId);
    if (!census) return;
    census.total++;
    bump(census.hosts, place.host);
    bump(census.networks, place.network);
  }

  /** Whether a recent census shows room under every cap with a margin for what other instances added since. */
  #clear(census: Census, place: CallbackPlace): boolean {
    const {
      maxSubscriptionsPerTopic: topicCap,
      maxSubscriptionsPerCallbackHost: hostCap,
      maxSubscriptionsPerCallbackNetwork: networkCap,
    } = this.#settings;
    const below = (count: number, cap: number) => count + Math.max(1, Math.ceil(cap * COUNT_MARGIN)) < cap;
    if (!below(census.total, topicCap)) return false;
    if (below(census.total, Math.min(hostCap, networkCap))) return true;
    if (!census.hosts || !census.networks) return false;
    return (
      below(census.hosts.get(place.host) ?? 0, hostCap) &&
      (place.network === undefined || below(census.networks.get(place.network) ?? 0, networkCap))
    );
  }

  async #count(topicId: string, tallyFrom: number): Promise<Census> {
    const at = this.#now();
    const keys = await this.#state.subscriptionKeys(topicId);
    const census: Census = { at, total: keys.length };
    if (keys.length >= tallyFrom) {
      const subs = await this.#state.activeSubscriptions(topicId, keys);
      census.total = subs.length;
      census.hosts = new Map();
      census.networks = new Map();
      for (const sub of subs) {
        const place = subscriptionPlace(sub);
        bump(census.hosts, place.host);
        bump(census.networks, place.network);
      }
    }
    this.#census.set(topicId, census);
    return census;
  }
}

/** Where a stored subscription is counted; one stored before networks were recorded counts by host only. */
function subscriptionPlace(sub: Subscription): CallbackPlace {
  return { host: callbackHost(sub.callback), network: sub.network };
}

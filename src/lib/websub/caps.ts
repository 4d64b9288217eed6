/**
 * The caps on a topic's subscriptions: in all, per callback host, and per
 * network of the callback's address (IPv4 /24, IPv6 /48). The per-topic cap
 * alone let one client with many addresses and callbacks of its own fill a
 * topic and lock real subscribers out; a host or network is what such a
 * client has few of.
 */
import ipaddr from 'ipaddr.js';
import { nat64Embedded, parseIp, unmapped } from '../net/ip.ts';
import type { HubConfig } from './config.ts';
import type { HubState } from './subscriptions.ts';

/** What a new subscription is counted under. `network` is absent when the callback's address is unknown. */
export interface CallbackPlace {
  host: string;
  network?: string;
}

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

/** The host a callback is counted under: its URL's host name, without a trailing dot. */
export function callbackHost(callback: string): string {
  return new URL(callback).hostname.replace(/\.$/, '');
}

/** Which cap refuses a new subscription, and why (told to the subscriber; it never names an address). */
export interface CapRefusal {
  cap: 'topic' | 'host' | 'network';
  reason: string;
}

/**
 * Why one more subscription of `place` to the topic is refused, or null when there is room.
 * Callers leave out re-subscriptions of a callback already subscribed: those are not new.
 */
export async function capRefusal(state: HubState, caps: HubConfig, topicId: string, place: CallbackPlace): Promise<CapRefusal | null> {
  const { maxSubscriptionsPerTopic: topicCap, maxSubscriptionsPerCallbackHost: hostCap, maxSubscriptionsPerCallbackNetwork: networkCap } = caps;
  const keys = await state.subscriptionKeys(topicId);
  // Below the smaller per-callback cap none can be reached: a subscribe then costs one listing, not a read of every record.
  const subs = keys.length >= Math.min(hostCap, networkCap) ? await state.activeSubscriptions(topicId) : undefined;
  if ((subs ?? keys).length >= topicCap) return { cap: 'topic', reason: 'this topic has reached its subscription limit' };
  if (!subs) return null;
  if (subs.filter((sub) => callbackHost(sub.callback) === place.host).length >= hostCap) {
    return { cap: 'host', reason: `callbacks on this host hold ${hostCap} subscriptions to this topic, the limit per host` };
  }
  // A subscription stored before networks were recorded has none: it counts by host only.
  if (place.network !== undefined && subs.filter((sub) => sub.network === place.network).length >= networkCap) {
    // Never names the network: it would tell which address the host name resolves to.
    return { cap: 'network', reason: `callbacks in this host's network hold ${networkCap} subscriptions to this topic, the limit per network` };
  }
  return null;
}

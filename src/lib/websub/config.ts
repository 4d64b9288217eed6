/**
 * The hub's settings, all from environment variables (documented in
 * docs/websub.md). Every default is what production wants; tests shorten the
 * delays and bounds so the whole 3-strike path runs in seconds.
 */

/** Request body limit of the hub endpoint (the Node route table and the handler itself); not a setting. */
export const HUB_MAX_BODY_BYTES = 64 * 1024;

export const DEFAULT_HUB_CONFIG = {
  /** Callbacks on 127.0.0.0/8 and ::1 are allowed (tests only; never private ranges). */
  allowLoopback: false,
  /** Delay before the 1st, 2nd, ... retry of a failed notification, in seconds. */
  retryDelaysSeconds: [60, 600],
  /** Deadline of every outbound request (DNS, connect, TLS, answer), in ms. */
  requestTimeoutMs: 10_000,
  leaseDefaultSeconds: 10 * 24 * 3600,
  leaseMinSeconds: 3600,
  leaseMaxSeconds: 30 * 24 * 3600,
  maxSubscriptionsPerTopic: 10_000,
  /** Subscriptions to one topic whose callbacks share a host name (or IP literal). */
  maxSubscriptionsPerCallbackHost: 100,
  /** Subscriptions to one topic whose callbacks' addresses share an IPv4 /24 or IPv6 /48. */
  maxSubscriptionsPerCallbackNetwork: 500,
  /** Requests per window and client address: subscribe + unsubscribe, and publish. */
  subscribeRateLimit: 30,
  publishRateLimit: 10,
  rateWindowSeconds: 60,
  /** Outbound requests in flight at once per process (deliveries and verifications). */
  concurrency: 64,
  /** How often the scheduler looks for due retries and expired leases, in ms. */
  schedulerIntervalMs: 15_000,
  /** Publish changed topics when the Node server starts listening. */
  publishOnStart: true,
};

export type HubConfig = typeof DEFAULT_HUB_CONFIG;

/** Every request the hub sends names it (outbound.ts, content.ts); not a setting. */
export const HUB_USER_AGENT = 'CedarRidgeReviews-WebSubHub/1.0 (+https://www.w3.org/TR/websub/)';

type Env = Record<string, string | undefined>;

function number(env: Env, name: string, fallback: number, min: number): number {
  const raw = env[name]?.trim();
  if (!raw) return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value < min) throw new Error(`${name} must be a number >= ${min}, got "${raw}"`);
  return value;
}

function flag(env: Env, name: string, fallback: boolean): boolean {
  const raw = env[name]?.trim().toLowerCase();
  if (!raw) return fallback;
  if (['1', 'true', 'yes', 'on'].includes(raw)) return true;
  if (['0', 'false', 'no', 'off'].includes(raw)) return false;
  throw new Error(`${name} must be true or false, got "${raw}"`);
}

export function hubConfigFromEnv(env: Env = process.env): HubConfig {
  const d = DEFAULT_HUB_CONFIG;
  const delaysRaw = env.WEBSUB_RETRY_DELAYS?.trim();
  const retryDelaysSeconds = delaysRaw ? delaysRaw.split(',').map((part) => Number(part.trim())) : d.retryDelaysSeconds;
  if (retryDelaysSeconds.length === 0 || retryDelaysSeconds.some((s) => !Number.isFinite(s) || s < 0)) {
    throw new Error(`WEBSUB_RETRY_DELAYS must be comma-separated seconds, got "${delaysRaw}"`);
  }
  const config: HubConfig = {
    allowLoopback: flag(env, 'WEBSUB_ALLOW_LOOPBACK', d.allowLoopback),
    retryDelaysSeconds,
    requestTimeoutMs: number(env, 'WEBSUB_TIMEOUT_MS', d.requestTimeoutMs, 1),
    leaseDefaultSeconds: number(env, 'WEBSUB_LEASE_DEFAULT_SECONDS', d.leaseDefaultSeconds, 1),
    leaseMinSeconds: number(env, 'WEBSUB_LEASE_MIN_SECONDS', d.leaseMinSeconds, 1),
    leaseMaxSeconds: number(env, 'WEBSUB_LEASE_MAX_SECONDS', d.leaseMaxSeconds, 1),
    maxSubscriptionsPerTopic: number(env, 'WEBSUB_MAX_SUBSCRIPTIONS_PER_TOPIC', d.maxSubscriptionsPerTopic, 0),
    maxSubscriptionsPerCallbackHost: number(
      env,
      'WEBSUB_MAX_SUBSCRIPTIONS_PER_CALLBACK_HOST',
      d.maxSubscriptionsPerCallbackHost,
      1,
    ),
    maxSubscriptionsPerCallbackNetwork: number(
      env,
      'WEBSUB_MAX_SUBSCRIPTIONS_PER_CALLBACK_NETWORK',
      d.maxSubscriptionsPerCallbackNetwork,
      1,
    ),
    subscribeRateLimit: number(env, 'WEBSUB_SUBSCRIBE_RATE_LIMIT', d.subscribeRateLimit, 1),
    publishRateLimit: number(env, 'WEBSUB_PUBLISH_RATE_LIMIT', d.publishRateLimit, 1),
    rateWindowSeconds: number(env, 'WEBSUB_RATE_WINDOW_SECONDS', d.rateWindowSeconds, 1),
    concurrency: Math.floor(number(env, 'WEBSUB_CONCURRENCY', d.concurrency, 1)),
    schedulerIntervalMs: number(env, 'WEBSUB_SCHEDULER_INTERVAL_MS', d.schedulerIntervalMs, 10),
    publishOnStart: flag(env, 'WEBSUB_PUBLISH_ON_START', d.publishOnStart),
  };
  if (!(config.leaseMinSeconds <= config.leaseDefaultSeconds && config.leaseDefaultSeconds <= config.leaseMaxSeconds)) {
    throw new Error('WebSub lease bounds must satisfy MIN <= DEFAULT <= MAX');
  }
  return config;
}

/** The clock of the hub: milliseconds since the epoch. Tests move time through leases and delays, not the clock. */
export type Clock = () => number;

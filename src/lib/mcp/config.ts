/**
 * The MCP endpoint's settings, from the environment (documented in docs/mcp.md):
 * which Host names and browser Origins it answers, how long a session lives,
 * and the session signing secret when one is configured.
 */
/** 30 days: common clients do not re-initialize after a 404, so sessions live long. */
const DEFAULT_SESSION_TTL_SECONDS = 30 * 24 * 60 * 60;
/** Sessions a client may open, and as many it may end, per SESSION_RATE_WINDOW_SECONDS: a client opens one per connection. */
const DEFAULT_SESSION_RATE_LIMIT = 30;
export const SESSION_RATE_WINDOW_SECONDS = 60;
/** A configured MCP_SESSION_SECRET shorter than this is refused: HMAC-SHA256 wants 256 bits. */
export const MIN_SECRET_LENGTH = 32;

export const LOOPBACK_NAMES = ['localhost', '127.0.0.1', '[::1]'];

/**
 * The environment variable through which the Node entry tells the Astro route
 * (src/route-services/mcp-handler.ts) the address the process listens on, when that route runs
 * inside it. Unset on serverless hosts: no loopback names there.
 */
export const BIND_HOST_ENV = 'MCP_BIND_HOST';

export interface McpConfig {
  /** Host names (no port, lower case; IPv6 in brackets) the Host header may name. */
  allowedHosts: string[];
  /** Exact origins a browser may call from; `*` allows any. Requests without Origin are always served. */
  allowedOrigins: string[];
  /** Bound to loopback: a page of this server on a loopback name (same origin) may call it too. */
  loopback: boolean;
  sessionTtlSeconds: number;
  /** initialize requests, and DELETEs, per client and minute. */
  sessionRateLimit: number;
  /** MCP_SESSION_SECRET, when configured; otherwise a key generated once and kept in the store. */
  secret?: string;
}

/**
 * `site`: the public base URL (SITE_URL). `bindHost`: the address the server
 * listens on, when the caller knows it (the Node entry: HOST, default
 * localhost); a loopback one adds the loopback names, so
 * `http://localhost:4321/mcp` works on a developer's machine. Undefined (a
 * serverless host) adds none. `deployment`: the origins this deployment also
 * answers under (a host's deploy and preview names), allowed as Host and Origin.
 */
export function mcpConfigFromEnv(
  env: Record<string, string | undefined>,
  site: string,
  bindHost: string | undefined,
  deployment: readonly string[] = [],
): McpConfig {
  const siteUrl = new URL(site);
  const hosts = new Set([siteUrl.hostname.toLowerCase()]);
  const loopback = isLoopback(bindHost);
  if (loopback) for (const name of LOOPBACK_NAMES) hosts.add(name);
  for (const host of list(env.MCP_ALLOWED_HOSTS)) hosts.add(normaliseHost(host));
  for (const origin of deployment) hosts.add(new URL(origin).hostname);

  const configuredOrigins = list(env.MCP_ALLOWED_ORIGINS);
  const origins = new Set([siteUrl.origin, ...deployment]);
  for (const origin of configuredOrigins) origins.add(origin === '*' ? '*' : normaliseOrigin(origin));

  const ttlText = env.MCP_SESSION_TTL_SECONDS?.trim();
  const ttl = ttlText ? Number(ttlText) : DEFAULT_SESSION_TTL_SECONDS;
  if (!Number.isInteger(ttl) || ttl < 60)
    throw new Error(`MCP_SESSION_TTL_SECONDS must be a whole number of seconds, at least 60; got "${ttlText}"`);

  const rateText = env.MCP_SESSION_RATE_LIMIT?.trim();
  const rate = rateText ? Number(rateText) : DEFAULT_SESSION_RATE_LIMIT;
  if (!Number.isInteger(rate) || rate < 1)
    throw new Error(`MCP_SESSION_RATE_LIMIT must be a whole number, at least 1; got "${rateText}"`);

  const secret = env.MCP_SESSION_SECRET?.trim() || undefined;
  if (secret !== undefined && secret.length < MIN_SECRET_LENGTH) {
    throw new Error(
      `MCP_SESSION_SECRET must be at least ${MIN_SECRET_LENGTH} characters (e.g. \`openssl rand -base64 32\`); or leave it unset to have a key generated and kept in the store`,
    );
  }
  return {
    allowedHosts: [...hosts],
    allowedOrigins: [...origins],
    loopback,
    sessionTtlSeconds: ttl,
    sessionRateLimit: rate,
    secret,
  };
}

/** `localhost`, `127.x.x.x`, `::1` (bracketed or not): addresses no other machine reaches. */
function isLoopback(bindHost: string | undefined): boolean {
  if (!bindHost) return false;
  const host = bindHost
    .trim()
    .toLowerCase()
    .replace(/^\[|\]$/g, '');
  return host === 'localhost' || host === '::1' || /^127(?:\.\d{1,3}){3}$/.test(host);
}

function list(value: string | undefined): string[] {
  return (value ?? '')
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);
}

/** `Example.com:443` → `example.com`; `::1` → `[::1]`: the form the Host check compares. */
function normaliseHost(host: string): string {
  const bracketed = host.includes(':') && !host.startsWith('[') && host.split(':').length > 2 ? `[${host}]` : host;
  try {
    return new URL(`http://${bracketed}`).hostname.toLowerCase();
  } catch {
    throw new Error(`MCP_ALLOWED_HOSTS: "${host}" is not a host name`);
  }
}

function normaliseOrigin(origin: string): string {
  try {
    const url = new URL(origin);
    if (url.origin === 'null') throw new Error('opaque');
    return url.origin;
  } catch {
    throw new Error(`MCP_ALLOWED_ORIGINS: "${origin}" is not an origin like https://app.example.com`);
  }
}

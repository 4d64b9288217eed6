/**
 * The client address of a request to an Astro route (the hub, /mcp), for the
 * rate limits. On Netlify and Vercel it is what the platform guarantees, as
 * the adapter gives it to Astro's `clientAddress`: Netlify's `context.ip`, and
 * on Vercel the `X-Forwarded-For` that Vercel's edge writes itself (a client's
 * own is overwritten). TRUST_PROXY is not read there: the platform is the proxy.
 *
 * On the Node server these routes run only with API_THROUGH_ASTRO (the entry
 * answers them itself otherwise); `clientAddress` is then the socket's peer
 * (no `security.allowedDomains` is configured, so @astrojs/node reads no
 * forwarding header), and TRUST_PROXY applies as on the direct path.
 */
import { SERVERLESS } from './built-target.ts';
import { clientAddress, proxyTrustFromEnv, type ProxyTrust } from '../lib/http/client-address.ts';

let trust: ProxyTrust | undefined;

export function routeClient(context: { clientAddress: string; request: Request }): { address: string } {
  let platform: string;
  try {
    platform = context.clientAddress;
  } catch {
    // A host that cannot tell the address: its callers share one bucket.
    return { address: 'unknown' };
  }
  if (SERVERLESS) return { address: platform };
  trust ??= proxyTrustFromEnv(process.env);
  return { address: clientAddress(platform, context.request.headers, trust) };
}

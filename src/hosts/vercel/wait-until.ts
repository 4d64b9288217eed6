/**
 * Vercel: `waitUntil` from @vercel/functions reads the request context the
 * runtime installs under a global symbol; outside a Vercel function it does
 * nothing, so it is used only when that context is there.
 */
import { waitUntil } from '@vercel/functions';
import type { Defer } from '../../lib/websub/hub.ts';

const REQUEST_CONTEXT = Symbol.for('@vercel/request-context');

export function vercelDefer(): Defer | undefined {
  const context = (globalThis as { [REQUEST_CONTEXT]?: { get?: () => { waitUntil?: unknown } | undefined } })[REQUEST_CONTEXT]?.get?.();
  return typeof context?.waitUntil === 'function' ? (work) => void waitUntil(work) : undefined;
}

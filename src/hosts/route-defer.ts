/**
 * How an Astro route keeps work running after its answer: the host's
 * `waitUntil` on Netlify or Vercel, else the Node server's tracker of pending
 * work (finished on SIGTERM), else nothing (the process simply lives on).
 */
import { waitUntil } from '@vercel/functions';
import type { Defer } from '../lib/websub/hub-handler.ts';
import { processWork } from './node/pending-work.ts';

export function deferFor(locals: App.Locals): Defer | undefined {
  return netlifyDefer(locals) ?? vercelDefer() ?? processWork()?.track;
}

/** Netlify: the adapter hands the function's context to Astro as `locals.netlify.context`. */
function netlifyDefer(locals: App.Locals): Defer | undefined {
  const context = locals.netlify?.context;
  return context && typeof context.waitUntil === 'function' ? (work) => context.waitUntil(work) : undefined;
}

const VERCEL_REQUEST_CONTEXT = Symbol.for('@vercel/request-context');

/**
 * Vercel: `waitUntil` from @vercel/functions reads the request context the
 * runtime installs under a global symbol; outside a Vercel function it does
 * nothing, so it is used only when that context is there.
 */
export function vercelDefer(): Defer | undefined {
  const context = (globalThis as { [VERCEL_REQUEST_CONTEXT]?: { get?: () => { waitUntil?: unknown } | undefined } })[
    VERCEL_REQUEST_CONTEXT
  ]?.get?.();
  return typeof context?.waitUntil === 'function' ? (work) => void waitUntil(work) : undefined;
}

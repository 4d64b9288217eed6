/** Netlify: the adapter hands the function's context to Astro as `locals.netlify.context`. */
import type { Defer } from '../../lib/websub/hub.ts';

export function netlifyDefer(locals: App.Locals): Defer | undefined {
  const context = locals.netlify?.context;
  return context && typeof context.waitUntil === 'function' ? (work) => context.waitUntil(work) : undefined;
}

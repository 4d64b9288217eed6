/**
 * Runs before every on-demand route. Its only job is the host's post-deploy
 * step where the host offers no hook (Vercel: see src/hosts/vercel/first-request.ts).
 * Prerendering at build time is skipped: nothing is live then.
 */
import { defineMiddleware } from 'astro:middleware';
import { afterFirstRequest } from './hosts/vercel/first-request.ts';

export const onRequest = defineMiddleware((context, next) => {
  if (!context.isPrerendered) afterFirstRequest();
  return next();
});

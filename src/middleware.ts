/**
 * Runs around every on-demand route: the host's post-deploy step where the
 * host offers no hook (Vercel: see src/hosts/vercel/first-request.ts), and the
 * security headers on what a function answers (the hosts' header rules cover
 * the static files). Prerendering at build time is skipped: nothing is live then.
 */
import { defineMiddleware } from 'astro:middleware';
import { securityHeadersFor } from './lib/http/security-headers.ts';
import { afterFirstRequest } from './hosts/vercel/first-request.ts';

export const onRequest = defineMiddleware(async (context, next) => {
  if (context.isPrerendered) return next();
  afterFirstRequest();
  const response = await next();
  const headers = Object.entries(securityHeadersFor(context.url.pathname));
  try {
    for (const [name, value] of headers) response.headers.set(name, value);
    return response;
  } catch {
    // A Response whose headers are immutable (one passed through from fetch): a copy takes them.
    const copy = new Response(response.body, response);
    for (const [name, value] of headers) copy.headers.set(name, value);
    return copy;
  }
});

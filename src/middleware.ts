/**
 * Runs around every on-demand route: the host's post-deploy step where the
 * host offers no hook (Vercel: see src/hosts/vercel/first-request.ts), the
 * security headers on what a function answers (the hosts' header rules cover
 * the static files), and validators and compression for pages rendered on
 * request, which static pages get from the build. Prerendering at build time
 * is skipped: nothing is live then.
 */
import { defineMiddleware } from 'astro:middleware';
import { answerPage } from './lib/http/representation.ts';
import { securityHeadersFor } from './lib/http/security-headers.ts';
import { afterFirstRequest } from './hosts/vercel/first-request.ts';
import { getStore } from './route-services/process-store.ts';
import { getHub } from './route-services/websub-hub.ts';

export const onRequest = defineMiddleware(async (context, next) => {
  if (context.isPrerendered) return next();
  afterFirstRequest({ hub: () => getHub().hub, store: getStore });
  const response = await withPageValidators(context.request, context.url, await next());
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

/** A rendered HTML page, read whole (a few KB), answered with its ETag, a 304 or a compressed body. */
async function withPageValidators(request: Request, url: URL, response: Response): Promise<Response> {
  const isPage = response.status === 200 && /^text\/html\b/.test(response.headers.get('content-type') ?? '');
  if (!isPage || (request.method !== 'GET' && request.method !== 'HEAD') || response.headers.has('content-encoding'))
    return response;
  const body = new Uint8Array(await response.arrayBuffer());
  const answer = answerPage(
    `${url.pathname}${url.search}`,
    body,
    response.headers.get('last-modified') ?? undefined,
    request.headers,
  );
  const headers = new Headers(response.headers);
  for (const [name, value] of Object.entries(answer.headers)) headers.set(name, value);
  if (answer.status === 304) headers.delete('content-length');
  return new Response(request.method === 'HEAD' ? null : (answer.body as BodyInit | null), {
    status: answer.status,
    headers,
  });
}

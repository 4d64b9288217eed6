/**
 * Runs around every on-demand route: the host's post-deploy step where the
 * host offers no hook (Vercel: see src/hosts/vercel/first-request.ts), the
 * security headers on what a function answers (the hosts' header rules cover
 * the static files), and validators and compression for pages rendered on
 * request, which static pages get from the build. Prerendering at build time
 * is skipped: nothing is live then.
 */
import { defineMiddleware } from 'astro:middleware';
import { createKeptAnswers, type KeptAnswer } from './lib/http/kept-answers.ts';
import { securityHeadersFor } from './lib/http/security-headers.ts';
import { processKeptAnswers } from './hosts/node/process-kept-answers.ts';
import { afterFirstRequest } from './hosts/vercel/first-request.ts';
import { getStore } from './route-services/process-store.ts';
import { getHub } from './route-services/websub-hub.ts';

/** Pages kept where the Node entry keeps none: a serverless function's, while it stays warm. */
const localPages = createKeptAnswers(4 * 1024 * 1024);

export const onRequest = defineMiddleware(async (context, next) => {
  if (context.isPrerendered) return next();
  afterFirstRequest({ hub: () => getHub().hub, store: getStore });
  const response = await answerPage(context.request, context.url, next);
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

/**
 * A page kept from an earlier rendering (src/lib/http/kept-answers.ts), or the
 * route's answer; a rendered HTML page is read whole (a few KB) and answered
 * with its ETag, a 304 or a compressed body.
 */
async function answerPage(request: Request, url: URL, next: () => Promise<Response>): Promise<Response> {
  const read = request.method === 'GET' || request.method === 'HEAD';
  const pages = processKeptAnswers() ?? localPages;
  const key = `${url.pathname}${url.search}`;
  // In `astro dev` a page changes with the content under it: it is rendered every time.
  const kept = read && !import.meta.env.DEV ? pages.find(key) : undefined;
  if (kept) return toResponse(kept.answer(request.headers), request.method);
  const response = await next();
  const isPage = response.status === 200 && /^text\/html\b/.test(response.headers.get('content-type') ?? '');
  if (!isPage || !read || response.headers.has('content-encoding')) return response;
  const body = new Uint8Array(await response.arrayBuffer());
  const page = pages.rendered(key, url.pathname, response, body, request.method);
  return toResponse(page.answer(request.headers), request.method);
}

function toResponse(answer: KeptAnswer, method: string): Response {
  const body = method === 'HEAD' || !answer.body ? null : (answer.body as BodyInit);
  return new Response(body, { status: answer.status, headers: answer.headers });
}

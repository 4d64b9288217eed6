/**
 * The Node entry that `npm start` runs: one HTTP server around the Astro
 * adapter's handler. Every request target is put in one canonical form first
 * (src/node/request.ts), so the routers below never see two spellings of a path.
 * Static files come from memory with content-hash ETags; the dynamic routes go
 * straight to the same src/lib handlers that the thin Astro routes wrap
 * (src/node/dynamic-routes.ts); Astro renders the pages and nothing else (its
 * adapter runs as middleware, without a static file handler of its own). A
 * page it rendered, or a search or since answer, is kept by its URL and
 * answered from then on first, before any routing (src/lib/http/kept-answers.ts).
 */
import { existsSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { ApiContext } from './lib/api/context.ts';
import { siteUrl } from './lib/config/site.ts';
import { clientAddress, proxyTrustFromEnv, type ProxyTrust } from './lib/http/client-address.ts';
import { jsonAnswer, methodNotAllowed } from './lib/http/json.ts';
import { createSearchMissLimit, searchMissRuleFromEnv, type SearchMissRule } from './lib/limits/search-misses.ts';
import { securityHeadersFor } from './lib/http/security-headers.ts';
import { registerProcessDataset } from './hosts/node/process-dataset.ts';
import { registerProcessKeptAnswers } from './hosts/node/process-kept-answers.ts';
import { createKeptAnswers } from './lib/http/kept-answers.ts';
import { getReviewIndex } from './lib/reviews/review-index.ts';
import { bodySettingsFromEnv, serverTimeouts, type BodySettings } from './node/body-settings.ts';
import { answerClientError, refuseConnect } from './node/client-errors.ts';
import { canonicalTarget, checkedHost, FORBIDDEN_METHODS, nodeHeaderReader, requestUrl } from './node/request.ts';
import { openDatasetFile } from './node/dataset-file.ts';
import { createNodeServices } from './node/dynamic-routes.ts';
import { loadStaticFiles } from './node/static-files.ts';
import { reviewJsonFiles } from './lib/static/review-files.ts';
import { runWebHandler, sendAnswer } from './node/web-bridge.ts';

/**
 * The pages Astro rendered and the build's files, kept for their URLs
 * (src/lib/http/kept-answers.ts): a review's page is about 6 KB and its two
 * compressed forms 4 KB, so about 1,500 of them (a file's bytes are counted in
 * the static files' own budget).
 */
const KEPT_PAGES_BYTES = 16 * 1024 * 1024;
/**
 * The API's answers kept for their URLs, apart, so that endless spellings of
 * one cheap search cannot push out the pages: the answer cache's own bodies,
 * each counted at three times its size (the body and two compressed forms) but
 * held once, about 400 search answers at 100k reviews.
 */
const KEPT_API_BYTES = 16 * 1024 * 1024;

/** What a refused method (TRACE, CONNECT) is told to use instead. */
const REFUSED_METHOD_ALLOW = ['GET', 'HEAD', 'OPTIONS'];

export interface ServerOptions {
  distDir: string;
  port: number;
  host: string;
  site: string;
  /** Diagnostics and tests: send the API through Astro's routes instead of the direct path. */
  apiThroughAstro: boolean;
  /** The deadline of a request body and the bytes held for unfinished ones (src/node/body-settings.ts). */
  bodies: BodySettings;
  /** Which proxies' X-Forwarded-For / Forwarded name the client (TRUST_PROXY; default none). */
  trust: ProxyTrust;
  /** Searches answered outside the cache per client (SEARCH_MISS_RATE_LIMIT, SEARCH_MISS_BURST); null: no limit. */
  searchMisses: SearchMissRule | null;
}

export function optionsFromEnv(env = process.env): ServerOptions {
  return {
    distDir: resolve(env.ASTRO_OUT_DIR ?? 'dist'),
    port: env.PORT ? Number(env.PORT) : 4321,
    host: env.HOST ?? 'localhost',
    site: siteUrl(env),
    apiThroughAstro: env.API_THROUGH_ASTRO === 'true',
    bodies: bodySettingsFromEnv(env),
    trust: proxyTrustFromEnv(env),
    searchMisses: searchMissRuleFromEnv(env),
  };
}

export async function startServer(options: ServerOptions) {
  const entry = pathToFileURL(resolve(options.distDir, 'server/entry.mjs')).href;
  const { handler: astroHandler } = (await import(entry)) as {
    handler: (req: IncomingMessage, res: ServerResponse) => void | Promise<void>;
  };
  const staticFiles = loadStaticFiles(resolve(options.distDir, 'client'));
  // Pages, feeds and Link headers carry the build's site; the hub takes topics under the runtime's.
  if (staticFiles.builtSite && staticFiles.builtSite !== options.site) {
    console.warn(
      `warning: this build was made for ${staticFiles.builtSite} but SITE_URL is ${options.site}: pages and feeds name the first, the WebSub hub accepts only the second. Build with SITE_URL=${options.site}, or run with SITE_URL=${staticFiles.builtSite}.`,
    );
  }
  const datasetPath = resolve(options.distDir, 'client/reviews.json');
  if (!existsSync(datasetPath)) throw new Error(`no reviews.json in ${options.distDir}/client: run the build first`);
  // The reviews as compact records read from reviews.json by offset, not 100k parsed objects (src/node/dataset-file.ts).
  const datasetFile = openDatasetFile(datasetPath);
  const api: ApiContext = {
    site: options.site,
    dataset: datasetFile.records,
    ...(options.searchMisses ? { searchMisses: createSearchMissLimit(options.searchMisses) } : {}),
  };
  // The review pages (Astro, same process) read the same records instead of the content collections.
  registerProcessDataset(api.dataset);
  // Astro's middleware keeps the pages it renders in the first, the handler below the API's answers
  // in the second and the build's files in whichever holds their path (a file's bytes count in the
  // static files' budget); what is kept is answered first from then on.
  const keptPages = createKeptAnswers(KEPT_PAGES_BYTES);
  const keptApi = createKeptAnswers(KEPT_API_BYTES);
  const keptFor = (url: string) => (url.startsWith('/api/') ? keptApi : keptPages);
  registerProcessKeptAnswers(keptPages);
  // /reviews/{id}.json: made from the dataset on request, not 100k files from the build.
  staticFiles.mount(reviewJsonFiles(api.dataset, true));
  const services = await createNodeServices({
    site: options.site,
    host: options.host,
    staticFiles,
    api,
    env: process.env,
  });

  /** The one decision of who the client is (rate limits): the socket's peer, unless TRUST_PROXY names the proxies in front. */
  const clientOf = (req: IncomingMessage, headers: { get(name: string): string | null }) => ({
    address: clientAddress(req.socket.remoteAddress ?? 'unknown', headers, options.trust),
  });
  // Static files and the read-only API are answered synchronously, without a URL object or a
  // promise: they are most of the traffic. Everything else takes the general path.
  const siteHost = new URL(options.site).host;
  const bodyBounds = {
    budget: { limitBytes: options.bodies.budgetBytes, held: 0 },
    deadlineMs: options.bodies.deadlineMs,
  };
  const answerBounds = {
    budget: { limitBytes: options.bodies.answerBudgetBytes, held: 0 },
    deadlineMs: options.bodies.answerDeadlineMs,
  };
  const server = createServer(serverTimeouts(options.bodies), (req, res) => {
    let security: Readonly<Record<string, string>> | undefined;
    try {
      // A URL kept earlier is a canonical target that was routed then: it is answered as it was,
      // once its Host passes.
      if (req.method === 'GET' || req.method === 'HEAD') {
        const kept = keptFor(req.url!).find(req.url!);
        if (kept && checkedHost(req, siteHost)) {
          const answer = kept.answer(nodeHeaderReader(req));
          res.writeHead(answer.status, answer.headers);
          res.end(req.method === 'HEAD' ? undefined : (answer.body ?? undefined));
          return;
        }
      }
      const target = canonicalTarget(req);
      // Every answer carries them. The static files and the read-only API write them in the one
      // header object of their answer; the other paths set them first.
      security = securityHeadersFor(target.kind === 'route' ? target.path : '/');
      if (FORBIDDEN_METHODS.has(req.method ?? '')) {
        sendAnswer(methodNotAllowed(REFUSED_METHOD_ALLOW), res, security);
        return;
      }
      if (target.kind !== 'route' || !checkedHost(req, siteHost)) {
        setHeaders(res, security);
        refuseTarget(
          req,
          res,
          target.kind === 'route'
            ? { kind: 'invalid', message: 'The Host header is not a host name or address with an optional port.' }
            : target,
          security,
        );
        return;
      }
      if (staticFiles.serve(req, res, target.path)) {
        // Kept by its URL once served; a query string (a cache buster) is answered the long way.
        if (target.search === '' && (req.method === 'GET' || req.method === 'HEAD')) {
          const file = staticFiles.keptUrl(target.path);
          if (file) keptFor(target.path).keepFile(target.path, file);
        }
        return;
      }
      const route = options.apiThroughAstro ? undefined : services.routes.find((r) => r.matches(target.path));
      if (route?.answer) {
        const headers = nodeHeaderReader(req);
        const answer = route.answer(
          { method: req.method ?? 'GET', path: target.path, search: target.search, headers },
          clientOf(req, headers),
        );
        if (answer.resource && req.method === 'GET')
          keptApi.keep(`${target.path}${target.search}`, answer.resource, security);
        sendAnswer(answer, res, security);
        return;
      }
      setHeaders(res, security);
      void slowPath(req, res, route).catch((error: unknown) => failed(res, error));
    } catch (error) {
      failed(res, error, security);
    }
  });
  server.on('clientError', answerClientError);
  // Node hands CONNECT to this event instead of the request handler, and closes the socket when nothing listens.
  server.on('connect', (_req: IncomingMessage, socket: Duplex) => refuseConnect(socket, REFUSED_METHOD_ALLOW));
  const slowPath = async (
    req: IncomingMessage,
    res: ServerResponse,
    route: (typeof services.routes)[number] | undefined,
  ) => {
    const url = requestUrl(req, options.site);
    if (route) {
      const client = clientOf(req, nodeHeaderReader(req));
      await runWebHandler(req, res, url, (request) => route.handle!(request, client), route, bodyBounds, answerBounds);
      return;
    }
    await astroHandler(req, res);
  };
  /**
   * Another spelling of a path is sent to the canonical one (the method kept
   * where it is not GET or HEAD); what is no path or no host is a 400, what
   * names nothing here (an escaped `/` in a page's path) the site's 404. A body
   * is never read here: the connection closes after the answer.
   */
  const refuseTarget = (
    req: IncomingMessage,
    res: ServerResponse,
    target: Exclude<ReturnType<typeof canonicalTarget>, { kind: 'route' }>,
    security: Readonly<Record<string, string>>,
  ) => {
    const read = req.method === 'GET' || req.method === 'HEAD';
    if (!read) res.setHeader('connection', 'close');
    if (target.kind === 'invalid') {
      sendAnswer(jsonAnswer({ error: 'bad_request', message: target.message }, { status: 400 }), res);
      return;
    }
    if (target.kind === 'absent') {
      staticFiles.notFound(res, security);
      return;
    }
    res.writeHead(read ? 301 : 308, {
      location: target.location,
      'cache-control': 'public, max-age=3600',
      'content-length': '0',
    });
    res.end();
  };
  const failed = (res: ServerResponse, error: unknown, security?: Readonly<Record<string, string>>) => {
    console.error('request failed:', error);
    if (!res.headersSent)
      sendAnswer(
        jsonAnswer({ error: 'internal_error', message: 'The server could not answer this request.' }, { status: 500 }),
        res,
        security,
      );
    else res.destroy();
  };
  await new Promise<void>((resolveListen, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => resolveListen());
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : options.port;
  // Only now is the new content live: what runs here (WebSub publishing) may announce it.
  services.pending.track(
    services.onListening().catch((error: unknown) => console.error('start-up task failed:', error)),
  );
  // The texts a `query` looks in are folded now (once), not by the first text query.
  getReviewIndex(api.dataset).texts();
  /**
   * Stops taking requests, lets the work the hub left running after its answers
   * (verifications, deliveries) finish within `graceMs`, then closes the store.
   * What a serverless host does with waitUntil, the process does here before it exits.
   */
  const shutdown = async (graceMs: number) => {
    const closed = new Promise<void>((resolveClose) => server.close(() => resolveClose()));
    server.closeIdleConnections();
    const settled = await services.pending.settle(graceMs);
    if (!settled) console.error(`shutdown: ${services.pending.size} background task(s) unfinished after ${graceMs} ms`);
    await Promise.race([closed, new Promise((resolveWait) => setTimeout(resolveWait, 1000).unref())]);
    await services.close();
  };
  return { server, port, shutdown };
}

function setHeaders(res: ServerResponse, headers: Readonly<Record<string, string>>): void {
  for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
}

/** Longest wait for background work on SIGTERM: the hub's 10 s request deadline, and a little more. */
export const SHUTDOWN_GRACE_MS = 12_000;

if (import.meta.main) {
  const options = optionsFromEnv();
  const { port, shutdown } = await startServer(options);
  console.log(`Serving ${options.site} on http://${options.host}:${port}`);
  const stop = () => {
    void shutdown(SHUTDOWN_GRACE_MS)
      .catch((error: unknown) => console.error('shutdown failed:', error))
      .finally(() => process.exit(0));
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}

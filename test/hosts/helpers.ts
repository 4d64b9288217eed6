/**
 * Drives the built serverless functions in this process, as the hosts would
 * call them: Netlify's `ssr.mjs` default export `(request, context)` with a
 * context like the adapter's own dev one, and Vercel's `_render.func` entry
 * `fetch(request)` with the request context @vercel/functions reads. Each
 * `load` imports a separate copy of the function folder (copied on disk), so
 * two copies share nothing but Redis, like two instances on the host.
 */
import { cpSync, existsSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join, resolve } from 'node:path';
import { getCACertificates, setDefaultCACertificates } from 'node:tls';
import { pathToFileURL } from 'node:url';
import { HOST_BUILDS, type HostName } from '../helpers/builds.ts';
import { contentTypeFor } from '../../src/lib/static/content-types.ts';

export interface LoadedFunction {
  /** Calls the function; the promises it handed to waitUntil are in `deferred`. */
  call(
    request: Request,
    extra?: { deployContext?: string },
  ): Promise<{ response: Response; deferred: Promise<unknown>[] }>;
  /** Calls it and waits for everything it deferred. */
  fetch(request: Request): Promise<Response>;
}

let copies = 0;

/** A fresh copy of the function folder under the host build's folder (node_modules resolve from the project). */
function copyOf(host: HostName, folder: string): string {
  const source = join(HOST_BUILDS[host].dir, 'output', folder);
  if (!existsSync(source))
    throw new Error(
      `no ${host} build in ${source}: run \`npm test\` (it builds first) or \`node scripts/build-test-sites.ts\``,
    );
  const target = join(HOST_BUILDS[host].dir, `copy-${process.pid}-${copies++}`);
  rmSync(target, { recursive: true, force: true });
  cpSync(source, target, { recursive: true, verbatimSymlinks: true });
  return target;
}

export async function loadNetlify(): Promise<LoadedFunction> {
  const dir = copyOf('netlify', 'v1/functions/ssr');
  const handler = (await import(pathToFileURL(join(dir, 'ssr.mjs')).href)).default as (
    request: Request,
    context: unknown,
  ) => Promise<Response>;
  const call: LoadedFunction['call'] = async (request, extra = {}) => {
    const deferred: Promise<unknown>[] = [];
    const context = netlifyContext((work) => deferred.push(work), extra.deployContext ?? 'production');
    return { response: await handler(request, context), deferred };
  };
  return { call, fetch: settleAfter(call) };
}

/** What Netlify passes as the second argument (the shape of the adapter's getLocalDevNetlifyContext). */
function netlifyContext(waitUntil: (work: Promise<unknown>) => void, deployContext: string) {
  return {
    waitUntil,
    ip: '203.0.113.7',
    account: { id: 'test-account' },
    deploy: { context: deployContext, id: 'test-deploy', published: deployContext === 'production' },
    site: { id: 'test-site', name: 'reviews-netlify', url: HOST_BUILDS.netlify.site },
    geo: {
      city: 'Test',
      country: { code: 'US', name: 'United States' },
      subdivision: { code: 'OR', name: 'Oregon' },
      timezone: 'UTC',
      longitude: 0,
      latitude: 0,
    },
    server: { region: 'test' },
    requestId: `test-${Math.random()}`,
    cookies: { get: () => undefined, set: () => {}, delete: () => {} },
    params: {},
    next: () => {
      throw new Error('next() is not available in a function');
    },
    json: (body: unknown) => Response.json(body),
  };
}

const VERCEL_CONTEXT = Symbol.for('@vercel/request-context');

export async function loadVercel(): Promise<LoadedFunction> {
  const dir = copyOf('vercel', 'functions/_render.func');
  const { handler: entry } = JSON.parse(readFileSync(join(dir, '.vc-config.json'), 'utf8')) as { handler: string };
  const fn = (await import(pathToFileURL(join(dir, entry)).href)).default as {
    fetch(request: Request): Promise<Response>;
  };
  const call: LoadedFunction['call'] = async (request) => {
    const deferred: Promise<unknown>[] = [];
    // The Vercel runtime installs this per request; @vercel/functions' waitUntil reads it.
    (globalThis as Record<symbol, unknown>)[VERCEL_CONTEXT] = {
      get: () => ({ waitUntil: (work: Promise<unknown>) => deferred.push(work), headers: {} }),
    };
    try {
      return { response: await fn.fetch(request), deferred };
    } finally {
      delete (globalThis as Record<symbol, unknown>)[VERCEL_CONTEXT];
    }
  };
  return { call, fetch: settleAfter(call) };
}

function settleAfter(call: LoadedFunction['call']): LoadedFunction['fetch'] {
  return async (request) => {
    const { response, deferred } = await call(request);
    await Promise.all(deferred);
    return response;
  };
}

/** Netlify's two standalone functions, imported from source as Netlify bundles them (a fresh module each time). */
export async function loadNetlifyFunction(name: 'websub-sweep' | 'deploy-succeeded') {
  const url = pathToFileURL(resolve(import.meta.dirname, `../../netlify/functions/${name}.mts`));
  url.search = `copy=${copies++}`;
  const module = (await import(url.href)) as {
    default: (request: Request, context: unknown) => Promise<Response>;
    config?: { schedule?: string };
  };
  return {
    config: module.config,
    run: (body: unknown) =>
      module.default(
        new Request('https://functions.netlify.test/', { method: 'POST', body: JSON.stringify(body) }),
        netlifyContext(() => {}, 'production'),
      ),
  };
}

/** The test CA trusted by this process's TLS clients (the hub's outbound requests run here). */
export function trustTestCa(ca: string): void {
  setDefaultCACertificates([...getCACertificates('default'), ca]);
}

/** Serves a host's published static folder over HTTP, as its CDN would (content type from the file name). */
export async function serveStatic(dir: string): Promise<{ origin: string; close(): Promise<void> }> {
  const server: Server = createServer((req, res) => {
    const path = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
    const file = join(dir, path.endsWith('/') ? `${path}index.html` : path);
    if (!file.startsWith(dir) || !existsSync(file)) return void res.writeHead(404).end();
    res.writeHead(200, { 'content-type': contentTypeFor(path) }).end(readFileSync(file));
  });
  await new Promise<void>((resolveListen) => server.listen(0, '127.0.0.1', resolveListen));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((resolveClose) => server.close(() => resolveClose())),
  };
}

/** Removes this process's function copies. */
export function removeCopies(): void {
  for (const host of Object.keys(HOST_BUILDS) as HostName[]) {
    const dir = HOST_BUILDS[host].dir;
    for (let i = 0; i < copies; i++) rmSync(join(dir, `copy-${process.pid}-${i}`), { recursive: true, force: true });
  }
}

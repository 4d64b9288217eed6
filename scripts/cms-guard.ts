/**
 * The editors' local backend for `npm run cms`: decap-server's file middleware
 * mounted inside a server that checks every request first. decap-server on its
 * own writes any file of the repository it is given, answers any Host and
 * grants CORS to every localhost port: a web page the editor visits could reach
 * it through DNS rebinding or another local dev server and overwrite
 * package.json (code that runs at the next `npm run`). So it never listens
 * anywhere itself; the only socket is this server's, which runs a request only
 * when its Host is exactly this address (localhost or 127.0.0.1 and this port),
 * its Origin, when it has one, is the dev site, it is a POST to the API, and
 * every path it names is a review file (content/reviews/<review id>.md), the
 * only files the form reads and writes.
 */
import { createRequire } from 'node:module';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { REVIEW_ID } from '../src/lib/content/editor-schema.ts';
import { REVIEWS_DIR } from '../src/lib/content/load.ts';

export interface GuardOptions {
  /** The port the guard listens on (127.0.0.1), the one the form's local_backend names. */
  port: number;
  /** The repository whose content/reviews/ the form edits (decap-server's GIT_REPO_DIRECTORY). */
  repository: string;
  /** The dev site's origins (`http://localhost:4321`, …): the only pages that may call the backend. */
  origins: readonly string[];
}

const API_PATH = '/api/v1';
/** The form's one collection, as seen from the repository root (src/lib/content/cms-config.ts). */
const REVIEWS_FOLDER = `content/${REVIEWS_DIR}`;
/** The media folder Decap requires in its config; the form lists it and nothing else touches it. */
const MEDIA_FOLDER = 'content/uploads';
/** As much as decap-server itself accepts. */
const MAX_BODY_BYTES = 50 * 1024 * 1024;

type Params = Record<string, unknown>;

/** A path exactly `content/reviews/<review id>.md`: no other folder, extension, hidden or encoded name. */
function isReviewFile(path: unknown): boolean {
  if (typeof path !== 'string' || !path.startsWith(`${REVIEWS_FOLDER}/`) || !path.endsWith('.md')) return false;
  return REVIEW_ID.test(path.slice(REVIEWS_FOLDER.length + 1, -'.md'.length));
}

const list = (value: unknown): unknown[] | undefined => (Array.isArray(value) && value.length > 0 ? value : undefined);
const pathOf = (value: unknown): unknown => (value as { path?: unknown } | null | undefined)?.path;

/** decap-server's fs-mode actions the form uses, each true only for what the form sends. */
const ALLOWED: Record<string, (params: Params) => boolean> = {
  info: () => true,
  getDeployPreview: () => true,
  entriesByFolder: (p) => p.folder === REVIEWS_FOLDER && p.extension === 'md' && p.depth === 1,
  entriesByFiles: (p) => list(p.files)?.every((file) => isReviewFile(pathOf(file))) ?? false,
  getEntry: (p) => isReviewFile(p.path),
  getMedia: (p) => p.mediaFolder === MEDIA_FOLDER,
  persistEntry: (p) => {
    // decap-server takes either an entry or dataFiles (the form sends dataFiles); whichever is there is checked.
    const files = [...(p.entry === undefined ? [] : [p.entry]), ...(list(p.dataFiles) ?? [])];
    const assets = p.assets === undefined || (Array.isArray(p.assets) && p.assets.length === 0);
    return (
      assets &&
      files.length > 0 &&
      files.every((file) => {
        const { path, newPath } = (file ?? {}) as { path?: unknown; newPath?: unknown };
        return isReviewFile(path) && (newPath === undefined || isReviewFile(newPath));
      })
    );
  },
  deleteFile: (p) => isReviewFile(p.path),
  deleteFiles: (p) => list(p.paths)?.every(isReviewFile) ?? false,
};

/** Why a request may not reach the backend, or undefined when it may. */
function refusal(req: IncomingMessage, options: GuardOptions): string | undefined {
  const hosts = [`localhost:${options.port}`, `127.0.0.1:${options.port}`];
  if (!hosts.includes(req.headers.host ?? '')) return `Host must be ${hosts.join(' or ')}`;
  const origin = req.headers.origin;
  if (origin !== undefined && !options.origins.includes(origin)) return `Origin ${origin} is not the dev site`;
  if ((req.url ?? '').split('?')[0] !== API_PATH) return 'not the API path';
  if (req.method !== 'POST' && req.method !== 'OPTIONS') return 'only POST';
  return undefined;
}

/** Why this API call may not run, or undefined when it names only what the form reads and writes. */
function bodyRefusal(body: unknown): string | undefined {
  const { action, params } = (body ?? {}) as { action?: unknown; params?: unknown };
  const allowed = typeof action === 'string' && Object.hasOwn(ALLOWED, action) ? ALLOWED[action]! : undefined;
  if (!allowed) return `action ${String(action)} is not allowed`;
  const named = typeof params === 'object' && params !== null ? (params as Params) : {};
  return allowed(named) ? undefined : `only review files (${REVIEWS_FOLDER}/<review id>.md) may be read or written`;
}

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

/**
 * decap-server's own Express app with its file middleware, listening nowhere. Express comes from
 * decap-server's dependencies (its middleware is written for the Express it ships with).
 */
async function decapBackend(repository: string): Promise<Handler> {
  const fromDecap = createRequire(createRequire(import.meta.url).resolve('decap-server/package.json'));
  const express = fromDecap('express') as () => Handler;
  const { registerLocalFs } = fromDecap('./dist/middlewares.js') as {
    registerLocalFs: (app: Handler, options: { logLevel: string }) => Promise<void>;
  };
  const app = express();
  // decap-server takes the repository from this variable, read while the middleware is registered.
  const previous = process.env.GIT_REPO_DIRECTORY;
  process.env.GIT_REPO_DIRECTORY = repository;
  try {
    await registerLocalFs(app, { logLevel: 'warn' });
  } finally {
    if (previous === undefined) delete process.env.GIT_REPO_DIRECTORY;
    else process.env.GIT_REPO_DIRECTORY = previous;
  }
  return app;
}

export async function startCmsGuard(options: GuardOptions): Promise<Server> {
  const backend = await decapBackend(options.repository);
  const server = createServer((req, res) => {
    const refused = refusal(req, options);
    if (refused) return deny(res, refused);
    if (req.method === 'OPTIONS') return backend(req, res);
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        deny(res, 'body too large', 413);
        req.destroy();
      } else chunks.push(chunk);
    });
    req.on('end', () => {
      if (res.headersSent) return;
      let body: unknown;
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      } catch {
        return deny(res, 'the body is not JSON', 400);
      }
      const bodyRefused = bodyRefusal(body);
      if (bodyRefused) return deny(res, bodyRefused);
      // The body is read and checked: Express's JSON parser skips a request marked as parsed.
      Object.assign(req, { body, _body: true });
      backend(req, res);
    });
  });
  return new Promise((resolveListen, reject) => {
    server.once('error', reject);
    server.listen(options.port, '127.0.0.1', () => resolveListen(server));
  });
}

function deny(res: ServerResponse, reason: string, status = 403): void {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' });
  res.end(`${JSON.stringify({ error: reason })}\n`);
}

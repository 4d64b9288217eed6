/**
 * The guard in front of decap-server for `npm run cms`. decap-server writes
 * any file of the repository it is given, answers any Host and grants CORS to
 * every localhost port: a web page the editor visits could reach it through
 * DNS rebinding or another local dev server and overwrite package.json (code
 * that runs at the next `npm run`). The guard forwards a request only when its
 * Host is exactly this address (localhost or 127.0.0.1 and the guard's port),
 * its Origin, when it has one, is the dev site, it is a POST to the API, and
 * every path it names lies under content/.
 */
import { createServer, request as forward, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { posix } from 'node:path';

export interface GuardOptions {
  /** The port the guard listens on (127.0.0.1), the one the form's local_backend names. */
  port: number;
  /** Where decap-server listens (127.0.0.1). */
  upstreamPort: number;
  /** The dev site's origins (`http://localhost:4321`, …): the only pages that may call the backend. */
  origins: readonly string[];
}

const API_PATH = '/api/v1';
/** The folder the form may touch, relative to the repository root. */
const CONTENT_FOLDER = 'content/';
/** As much as decap-server itself accepts. */
const MAX_BODY_BYTES = 50 * 1024 * 1024;

/** decap-server's actions in fs mode and the params that name repository paths. */
const PATHS_OF: Record<string, (params: Record<string, unknown>) => unknown[]> = {
  info: () => [],
  getDeployPreview: () => [],
  entriesByFolder: (p) => [p.folder],
  entriesByFiles: (p) =>
    Array.isArray(p.files) ? p.files.map((file) => (file as { path?: unknown }).path) : [undefined],
  getEntry: (p) => [p.path],
  getMedia: (p) => [p.mediaFolder],
  getMediaFile: (p) => [p.path],
  persistEntry: (p) => {
    const entries = [p.entry, ...(Array.isArray(p.dataFiles) ? p.dataFiles : [])].filter(Boolean) as Array<{
      path?: unknown;
      newPath?: unknown;
    }>;
    const assets = (Array.isArray(p.assets) ? p.assets : []) as Array<{ path?: unknown }>;
    return [
      ...entries.flatMap((e) => (e.newPath === undefined ? [e.path] : [e.path, e.newPath])),
      ...assets.map((a) => a.path),
    ];
  },
  persistMedia: (p) => [(p.asset as { path?: unknown } | undefined)?.path],
  deleteFile: (p) => [p.path],
  deleteFiles: (p) => (Array.isArray(p.paths) ? p.paths : [undefined]),
};

/** A relative path that stays under content/ once normalised. */
function underContent(path: unknown): boolean {
  if (typeof path !== 'string' || path.includes('\\') || path.includes('\0') || posix.isAbsolute(path)) return false;
  const normal = posix.normalize(path);
  return (normal.startsWith(CONTENT_FOLDER) || `${normal}/` === CONTENT_FOLDER) && !normal.split('/').includes('..');
}

/** Why a request may not reach decap-server, or undefined when it may. */
function refusal(req: IncomingMessage, options: GuardOptions): string | undefined {
  const hosts = [`localhost:${options.port}`, `127.0.0.1:${options.port}`];
  if (!hosts.includes(req.headers.host ?? '')) return `Host must be ${hosts.join(' or ')}`;
  const origin = req.headers.origin;
  if (origin !== undefined && !options.origins.includes(origin)) return `Origin ${origin} is not the dev site`;
  if ((req.url ?? '').split('?')[0] !== API_PATH) return 'not the API path';
  if (req.method !== 'POST' && req.method !== 'OPTIONS') return 'only POST';
  return undefined;
}

/** Why this API call may not run, or undefined when every path it names is under content/. */
function bodyRefusal(body: unknown): string | undefined {
  const { action, params } = (body ?? {}) as { action?: unknown; params?: unknown };
  const paths = typeof action === 'string' && Object.hasOwn(PATHS_OF, action) ? PATHS_OF[action]! : undefined;
  if (!paths) return `action ${String(action)} is not allowed`;
  const named = paths((params ?? {}) as Record<string, unknown>);
  return named.every(underContent) ? undefined : `only paths under ${CONTENT_FOLDER} may be read or written`;
}

export function startCmsGuard(options: GuardOptions): Promise<Server> {
  const server = createServer((req, res) => {
    const refused = refusal(req, options);
    if (refused) return deny(res, refused);
    if (req.method === 'OPTIONS') return pass(req, res, options);
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
      const bytes = Buffer.concat(chunks);
      let body: unknown;
      try {
        body = JSON.parse(bytes.toString('utf8'));
      } catch {
        return deny(res, 'the body is not JSON', 400);
      }
      const bodyRefused = bodyRefusal(body);
      if (bodyRefused) return deny(res, bodyRefused);
      pass(req, res, options, bytes);
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

/** Forwards the checked request to decap-server, its Host the upstream's own. */
function pass(req: IncomingMessage, res: ServerResponse, options: GuardOptions, body?: Buffer): void {
  const headers = { ...req.headers, host: `127.0.0.1:${options.upstreamPort}` };
  if (body) headers['content-length'] = String(body.length);
  const upstream = forward(
    { host: '127.0.0.1', port: options.upstreamPort, method: req.method, path: API_PATH, headers },
    (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    },
  );
  upstream.on('error', () => {
    if (!res.headersSent) deny(res, 'decap-server is not answering', 502);
    else res.destroy();
  });
  upstream.end(body);
}

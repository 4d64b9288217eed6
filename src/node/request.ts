/** Node request helpers shared by the static server and the Web bridge. */
import type { IncomingMessage } from 'node:http';

export function headersOf(req: IncomingMessage): Headers {
  const headers = new Headers();
  const raw = req.rawHeaders;
  for (let i = 0; i < raw.length; i += 2) {
    try {
      headers.append(raw[i] as string, raw[i + 1] as string);
    } catch {
      // A header value Headers refuses (control characters) is dropped, not a 500.
    }
  }
  return headers;
}

/**
 * The request's absolute URL. The Host header is client input: one that does
 * not make a valid authority falls back to the server's own, never an error.
 */
export function requestUrl(req: IncomingMessage, fallbackOrigin: string): URL {
  const path = req.url?.startsWith('/') ? req.url : '/';
  const host = req.headers.host ?? '';
  try {
    // A host name or IP literal with an optional port, nothing else: `user@host` would put
    // credentials in the URL, which Request refuses.
    if (!/^(?:\[[0-9a-fA-F:.]+\]|[A-Za-z0-9.-]+)(?::\d{1,5})?$/.test(host)) throw new Error('not a host');
    // Concatenated, not resolved: `//x/y` is a path here, never a host.
    return new URL(`http://${host}${path}`);
  } catch {
    try {
      return new URL(`${fallbackOrigin}${path}`);
    } catch {
      return new URL('/', fallbackOrigin);
    }
  }
}

/**
 * The headers as `headersOf` (the Web bridge's Headers) reads them, without
 * building a Headers object: every raw header, repeats joined with ", " as
 * Headers joins them (Node's parsed `req.headers` keeps only the first of
 * some, such as Content-Type), values Headers would refuse dropped. For
 * checks whose outcome must be the Web path's (the /mcp replay).
 */
export function rawHeaderReader(req: IncomingMessage): { get(name: string): string | null } {
  const values = new Map<string, string>();
  const raw = req.rawHeaders;
  for (let i = 0; i < raw.length; i += 2) {
    const name = (raw[i] as string).toLowerCase();
    const value = (raw[i + 1] as string).trim();
    // What Headers.append refuses (NUL, CR, LF; Node's parser lets few through): dropped as headersOf drops it.
    if (/[\0\r\n]/.test(value)) continue;
    const before = values.get(name);
    values.set(name, before === undefined ? value : `${before}, ${value}`);
  }
  return { get: (name) => values.get(name.toLowerCase()) ?? null };
}

/** Node's parsed headers behind the `get` that lib handlers read, without building a Headers object. */
export function nodeHeaderReader(req: IncomingMessage): { get(name: string): string | null } {
  return {
    get(name) {
      const value = req.headers[name.toLowerCase()];
      if (value === undefined) return null;
      return Array.isArray(value) ? value.join(', ') : value;
    },
  };
}

/**
 * The path and query string of the request line, cut without building a URL
 * (the hot path). A path a URL parser would rewrite — dot segments,
 * backslashes — goes through one, so every router sees the same path.
 */
export function requestTarget(req: IncomingMessage, fallbackOrigin: string): { path: string; search: string } {
  const raw = req.url ?? '/';
  const query = raw.indexOf('?');
  const path = query < 0 ? raw : raw.slice(0, query);
  if (path.startsWith('/') && !path.includes('/.') && !path.includes('\\') && !/[^\x21-\x7e]/.test(path)) {
    return { path, search: query < 0 || query === raw.length - 1 ? '' : raw.slice(query) };
  }
  const url = requestUrl(req, fallbackOrigin);
  return { path: url.pathname, search: url.search };
}

/** Methods the Fetch API refuses to build a Request with: answered 405 before any handler. */
export const FORBIDDEN_METHODS: ReadonlySet<string> = new Set(['CONNECT', 'TRACE', 'TRACK']);

/**
 * One spelling of the request target for every router (ours and Astro's):
 * an absolute-form target (`GET http://host/reviews.json`, RFC 9112 §3.2.2)
 * becomes its path and query, its authority taking the place of Host as the
 * RFC says; and `//a/b` is the path `/a/b`, never a host `a`.
 */
export function normaliseTarget(req: IncomingMessage): void {
  const raw = req.url ?? '/';
  if (/^https?:\/\//i.test(raw)) {
    try {
      const url = new URL(raw);
      req.url = `${url.pathname}${url.search}`;
      req.headers.host = url.host;
    } catch {
      req.url = '/';
    }
  }
  if (req.url?.startsWith('//')) req.url = req.url.replace(/^\/+/, '/');
}

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
 * The request's absolute URL from its Host (checkedHost has vetted it) and its
 * canonical path (canonicalTarget); the site's origin when the Host makes no URL.
 * Concatenated, not resolved: a path is never read as a host.
 */
export function requestUrl(req: IncomingMessage, fallbackOrigin: string): URL {
  const path = req.url!;
  return URL.parse(`http://${req.headers.host}${path}`) ?? new URL(`${new URL(fallbackOrigin).origin}${path}`);
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

/** Methods the Fetch API refuses to build a Request with: answered 405 before any handler. */
export const FORBIDDEN_METHODS: ReadonlySet<string> = new Set(['CONNECT', 'TRACE', 'TRACK']);

/**
 * What the entry does with a request target: route its canonical path, send the
 * client to the canonical spelling, or refuse a target that is no path at all.
 */
export type Target =
  | { kind: 'route'; path: string; search: string }
  | { kind: 'redirect'; location: string }
  | { kind: 'invalid'; message: string }
  | { kind: 'absent' };

/** Characters a path keeps as they are (RFC 3986 pchar and `/`, without `%`). */
const PATH_CHARS = /^[A-Za-z0-9\-._~!$&'()*+,;=:@/]*$/;
/** A `.` or `..` segment. */
const DOT_SEGMENT = /\/\.\.?(?:\/|$)/;
/** Escapes decoded in the canonical form: the unreserved characters (ALPHA DIGIT - . _ ~), RFC 3986 §6.2.2.2. */
const DECODED = /[A-Za-z0-9\-._~]/;
/** An escaped `/` or `\`: data inside one segment, never a separator. */
const ENCODED_SEPARATOR = /%2F|%5C/i;
/** An absolute-form target (RFC 9112 §3.2.2): its authority and the rest. */
const ABSOLUTE_FORM = /^https?:\/\/([^/?#]*)(.*)$/is;

/**
 * The one spelling of a request target that every router sees, ours and
 * Astro's alike. Astro decodes a path before it routes, and a router that
 * matched the raw bytes would let `/%6dcp` past it to a second handler; so the
 * target is put in canonical form first (RFC 3986 §6.2.2: escapes of
 * unreserved characters decoded, other escapes in upper case, dot segments of
 * real separators removed), with `\` as `/` and runs of slashes as one, as
 * browsers and file servers read them. `%2F` and `%5C` stay data (§2.2): one
 * spelling never names another resource. A target already canonical is routed;
 * any other spelling is redirected to the canonical one, never served under
 * it. A segment holding an escaped separator names nothing outside the API
 * (which answers it itself: a 400 naming `date`, or a JSON 404): it is absent,
 * before Astro could decode it into a path of its own. An absolute-form target
 * (RFC 9112 §3.2.2) is its path, its authority taking the place of Host.
 */
export function canonicalTarget(req: IncomingMessage): Target {
  let raw = req.url ?? '/';
  const absolute = raw.startsWith('/') ? null : ABSOLUTE_FORM.exec(raw);
  if (absolute) {
    req.headers.host = absolute[1]!;
    raw = absolute[2] || '/';
    req.url = raw;
  }
  const query = raw.indexOf('?');
  const path = query < 0 ? raw : raw.slice(0, query);
  const search = query < 0 || query === raw.length - 1 ? '' : raw.slice(query);
  if (!path.startsWith('/')) return { kind: 'invalid', message: 'The request target must be a path starting with /.' };
  if (PATH_CHARS.test(path) && !path.includes('//') && !DOT_SEGMENT.test(path)) return { kind: 'route', path, search };
  const canonical = canonicalPath(path);
  // The API's own routes answer a broken escape in a path segment (a 400 naming `date`, or a JSON 404);
  // nothing of Astro's sees it.
  if (canonical === undefined && path.startsWith('/api/')) return { kind: 'route', path, search };
  if (canonical === undefined)
    return { kind: 'invalid', message: 'The request path is not valid percent-encoded UTF-8.' };
  if (canonical !== path) return { kind: 'redirect', location: `${canonical}${search}` };
  if (ENCODED_SEPARATOR.test(path) && !path.startsWith('/api/')) return { kind: 'absent' };
  return { kind: 'route', path, search };
}

/** The canonical form of a path (see canonicalTarget); undefined when its escapes are broken. */
function canonicalPath(path: string): string | undefined {
  let spelled = '';
  for (let i = 0; i < path.length; i++) {
    const char = path[i]!;
    if (char === '%') {
      const hex = path.slice(i + 1, i + 3);
      if (!/^[0-9A-Fa-f]{2}$/.test(hex)) return undefined;
      const decoded = String.fromCharCode(Number.parseInt(hex, 16));
      spelled += DECODED.test(decoded) ? decoded : `%${hex.toUpperCase()}`;
      i += 2;
    } else if (PATH_CHARS.test(char) || char === '\\') {
      spelled += char;
    } else {
      // Outside the path alphabet (quotes, brackets, bytes above 0x7E): escaped, byte for byte.
      spelled += `%${char.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`;
    }
  }
  try {
    decodeURIComponent(spelled);
  } catch {
    return undefined;
  }
  const segments: string[] = [];
  const parts = spelled.replaceAll('\\', '/').split(/\/+/).slice(1);
  parts.forEach((segment, index) => {
    const last = index === parts.length - 1;
    if (segment === '.' || segment === '..') {
      if (segment === '..') segments.pop();
      // `/a/.` and `/a/b/..` are the folder `/a/`.
      if (last) segments.push('');
      return;
    }
    segments.push(segment);
  });
  return `/${segments.join('/')}`;
}

/**
 * The Host header, checked before anything builds a URL from it: Astro makes
 * the page's URL from Host, and `a\b`, `a/b`, `a?b` or `a@b` there would
 * change the path it renders or make the URL invalid. A name or IP literal
 * with an optional port, nothing else; an empty or missing Host (HTTP/1.0)
 * is the site's own.
 */
export function checkedHost(req: IncomingMessage, siteHost: string): boolean {
  const host = req.headers.host;
  if (host === undefined || host === '') {
    req.headers.host = siteHost;
    return true;
  }
  // Clients send the same few Host values: the last one found good is not checked again.
  if (host === lastGoodHost) return true;
  const match = HOST_FORM.exec(host);
  const good = match !== null && (match[1] === undefined || Number(match[1]) <= 65_535);
  if (good) lastGoodHost = host;
  return good;
}

/** A host name or IP literal, and an optional port. */
const HOST_FORM = /^(?:\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9.-]+)(?::(\d{1,5}))?$/;
let lastGoodHost: string | undefined;

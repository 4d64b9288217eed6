/**
 * Pages rendered on request (a review's page, a filtered list), kept by URL
 * once rendered. Inside one process the dataset does not change, and nothing
 * a page shows depends on anything but its URL (no cookie, request header or
 * clock), so a URL renders to the same bytes every time: a kept page is
 * answered like a static file (its content-hash ETag, 304s, br or gzip made
 * once) without rendering it again, and on the Node server without entering
 * Astro at all.
 *
 * Kept is only what a shared cache may keep (RFC 9111 §3): a 200 to a GET
 * whose Cache-Control says public, with no Set-Cookie and no Vary but on
 * Accept-Encoding. Bounded by bytes: a client asking for endless distinct
 * query strings evicts pages, and each of its pages costs the rendering it
 * would cost anyway.
 */
import { LRUCache } from 'lru-cache';
import { strongEtag } from './etag.ts';
import { compressWhileWaiting, fileAnswers, MIN_PRECOMPRESS_BYTES, type Encoding } from './representation.ts';
import { securityHeadersFor } from './security-headers.ts';

type RequestHeaders = { get(name: string): string | null };

export interface PageAnswer {
  status: 200 | 304;
  /** Every header of the answer, Content-Length included. */
  headers: Readonly<Record<string, string>>;
  /** The bytes of a 200 (the caller sends none to HEAD); null for a 304. */
  body: Uint8Array | null;
}

/** A rendered page's representations: its bytes, and its answers per encoding and status, made once. */
interface RenderedPage {
  answer(requestHeaders: RequestHeaders): PageAnswer;
}

export interface KeptPages {
  /** The page kept at this URL (path and query as the server routes them), if any. */
  find(url: string): RenderedPage | undefined;
  /**
   * A page Astro rendered at `url`: kept when a shared cache could keep it
   * (the page kept at `url` is returned when it has the same bytes), made
   * for this request alone when not.
   */
  rendered(
    url: string,
    pathname: string,
    response: { status: number; headers: Headers },
    body: Uint8Array,
    method: string,
  ): RenderedPage;
}

/** A kept page's entry, key, ETag and header objects besides its bytes. */
const PAGE_OVERHEAD_BYTES = 2048;

/** Astro's headers that the representation makes itself, or that belong to one connection. */
const MADE_HERE = new Set([
  'content-type',
  'cache-control',
  'last-modified',
  'link',
  'etag',
  'vary',
  'content-length',
  'content-encoding',
  'transfer-encoding',
  'connection',
  'date',
]);

interface Page extends RenderedPage {
  body: Uint8Array;
  /** The bytes it holds: the body and the compressed forms made so far. */
  bytes(): number;
}

export function createKeptPages(maxBytes: number): KeptPages {
  const kept = new LRUCache<string, Page>({
    maxSize: maxBytes,
    sizeCalculation: (page, url) => PAGE_OVERHEAD_BYTES + url.length * 2 + page.bytes(),
  });
  return {
    find: (url) => kept.get(url),
    rendered(url, pathname, response, body, method) {
      const shareable = method === 'GET' && isShareable(response);
      const known = shareable ? kept.get(url) : undefined;
      if (known && sameBytes(known.body, body)) return known;
      // Counted again when it grows by a compressed form (lru-cache sizes an entry when it is set).
      const page: Page = makePage(pathname, response.headers, body, () => {
        if (kept.peek(url) === page) kept.set(url, page);
      });
      if (shareable) kept.set(url, page);
      return page;
    },
  };
}

/** Whether a shared cache may keep this answer for every client (RFC 9111 §3, §4.1). */
function isShareable(response: { status: number; headers: Headers }): boolean {
  const { headers } = response;
  if (response.status !== 200 || headers.has('set-cookie') || headers.has('content-encoding')) return false;
  const vary = headers.get('vary');
  if (vary && vary.split(',').some((name) => name.trim().toLowerCase() !== 'accept-encoding')) return false;
  const directives = (headers.get('cache-control') ?? '').toLowerCase();
  return /(?:^|,)\s*public\s*(?:,|$)/.test(directives) && !/\b(?:private|no-store|no-cache)\b/.test(directives);
}

function makePage(pathname: string, pageHeaders: Headers, body: Uint8Array, grew: () => void): Page {
  const own: Record<string, string> = { ...securityHeadersFor(pathname) };
  for (const [name, value] of pageHeaders) if (!MADE_HERE.has(name)) own[name] = value;
  const lastModified = pageHeaders.get('last-modified');
  const link = pageHeaders.get('link');
  const answers = fileAnswers(
    {
      contentType: pageHeaders.get('content-type') ?? 'text/html',
      etag: strongEtag(body),
      cacheControl: pageHeaders.get('cache-control') ?? 'no-cache',
      ...(lastModified ? { lastModified } : {}),
      ...(link ? { link } : {}),
      encodings: body.byteLength >= MIN_PRECOMPRESS_BYTES ? ['br', 'gzip'] : [],
    },
    own,
  );
  const bodies: Partial<Record<Encoding, Uint8Array>> = { identity: body };
  const sent = new Map<object, PageAnswer>();
  return {
    body,
    bytes: () => body.byteLength + (bodies.br?.byteLength ?? 0) + (bodies.gzip?.byteLength ?? 0),
    answer(requestHeaders) {
      const file = answers.answer(requestHeaders);
      let answer = sent.get(file);
      if (answer) return answer;
      if (file.status === 304) {
        answer = { status: 304, headers: file.headers, body: null };
      } else {
        let bytes = bodies[file.encoding];
        if (!bytes) {
          bytes = bodies[file.encoding] = compressWhileWaiting(body, file.encoding as Exclude<Encoding, 'identity'>);
          grew();
        }
        answer = { status: 200, headers: { ...file.headers, 'content-length': String(bytes.byteLength) }, body: bytes };
      }
      sent.set(file, answer);
      return answer;
    },
  };
}

const sameBytes = (a: Uint8Array, b: Uint8Array) =>
  a.byteLength === b.byteLength &&
  Buffer.from(a.buffer, a.byteOffset, a.byteLength).equals(Buffer.from(b.buffer, b.byteOffset, b.byteLength));

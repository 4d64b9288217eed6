/**
 * Answers kept by URL: pages rendered on request (a review's page, a filtered
 * list) once rendered, and the API's resources (a search or since answer) once
 * answered. Inside one process the dataset does not change, and nothing a page
 * shows depends on anything but its URL (no cookie, request header or clock),
 * so a URL renders to the same bytes every time: a kept page is answered like
 * a static file (its content-hash ETag, 304s, br or gzip made once) without
 * rendering it again, and on the Node server without entering Astro at all.
 * A kept API resource is the API's own kept body (src/lib/api/answer-cache.ts),
 * and a kept file the static files' (src/node/static-files.ts), held here by
 * reference, not copied: the Node server answers their URLs without routing
 * the request or parsing its query.
 *
 * Kept is only what a shared cache may keep (RFC 9111 §3): a 200 to a GET
 * whose Cache-Control says public, with no Set-Cookie and no Vary but on
 * Accept-Encoding. Bounded by bytes: a client asking for endless distinct
 * query strings evicts pages, and each of its pages costs the rendering it
 * would cost anyway.
 */
import { LRUCache } from 'lru-cache';
import { strongEtag } from './etag.ts';
import type { Resource } from './answer.ts';
import { compressWhileWaiting, fileAnswers, MIN_PRECOMPRESS_BYTES, type Encoding } from './representation.ts';
import { securityHeadersFor } from './security-headers.ts';

type RequestHeaders = { get(name: string): string | null };

export interface KeptAnswer {
  status: 200 | 304;
  /** Every header of the answer, Content-Length included. */
  headers: Readonly<Record<string, string>>;
  /** The bytes of a 200 (the caller sends none to HEAD); null for a 304. */
  body: Uint8Array | null;
}

/** A URL's representations: its answers per encoding and status, made once. */
export interface KeptUrl {
  answer(requestHeaders: RequestHeaders): KeptAnswer;
}

export interface KeptAnswers {
  /** What is kept at this URL (path and query as the server routes them), if anything. */
  find(url: string): KeptUrl | undefined;
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
  ): KeptUrl;
  /**
   * An API resource answered at `url` (a 200 to a GET), kept with `first`
   * (the security headers) in front of its own headers.
   */
  keep(url: string, resource: Resource, first: Readonly<Record<string, string>>): void;
  /** A file whose bytes are held elsewhere (the static files' own budget), answered at `url`. */
  keepFile(url: string, file: KeptUrl): void;
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

interface Kept extends KeptUrl {
  /** A page's rendered bytes (an API resource has none of its own here). */
  body?: Uint8Array;
  /** The bytes it holds: a page's body and the compressed forms made so far, a resource's most. */
  bytes(): number;
}

/** A rendered page: its own bytes. */
type Page = Kept & { body: Uint8Array };

export function createKeptAnswers(maxBytes: number): KeptAnswers {
  const kept = new LRUCache<string, Kept>({
    maxSize: maxBytes,
    sizeCalculation: (entry, url) => PAGE_OVERHEAD_BYTES + url.length * 2 + entry.bytes(),
  });
  return {
    find: (url) => kept.get(url),
    rendered(url, pathname, response, body, method) {
      const shareable = method === 'GET' && isShareable(response);
      const known = shareable ? kept.get(url) : undefined;
      if (known?.body && sameBytes(known.body, body)) return known;
      // Counted again when it grows by a compressed form (lru-cache sizes an entry when it is set).
      const page: Page = makePage(pathname, response.headers, body, () => {
        if (kept.peek(url) === page) kept.set(url, page);
      });
      if (shareable) kept.set(url, page);
      return page;
    },
    keep(url, resource, first) {
      if (!kept.has(url)) kept.set(url, keptResource(resource, first));
    },
    keepFile(url, file) {
      if (!kept.has(url)) kept.set(url, { answer: file.answer, bytes: () => 0 });
    },
  };
}

/** A resource's answers with `first` in front, one header object per answer the resource gives. */
function keptResource(resource: Resource, first: Readonly<Record<string, string>>): Kept {
  const sent = new WeakMap<object, KeptAnswer>();
  return {
    bytes: () => resource.maxBytes,
    answer(requestHeaders) {
      const answer = resource.answer(requestHeaders);
      let kept = sent.get(answer);
      if (!kept)
        sent.set(
          answer,
          (kept = { status: answer.status as 200 | 304, headers: { ...first, ...answer.headers }, body: answer.body }),
        );
      return kept;
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
  const sent = new Map<object, KeptAnswer>();
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

/**
 * HTTP representations: the one place that answers a body with 200 or 304 and
 * chooses among its encodings. Static files, files rendered from the dataset,
 * pages rendered on request and the API's search and since answers all come
 * through here; what they promise is in docs/contract.md (conditional GET).
 *
 * Each encoding is its own representation with its own strong ETag (RFC 9110
 * §8.8.3): the SHA-256 of the decoded bytes, suffixed `-br` or `-gz`. A tag of
 * any of them in If-None-Match means the client holds the same content. br is
 * preferred to gzip among what the client accepts (RFC 9110 §12.5.3).
 */
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import type { ApiAnswer } from './answer.ts';
import { httpDate, isNotModified, type Validators } from './conditional.ts';
import { CORS_HEADERS } from './cors.ts';
import { strongEtag } from './etag.ts';
import { JSON_TYPE } from './json.ts';

export type Encoding = 'br' | 'gzip' | 'identity';
type Compression = Exclude<Encoding, 'identity'>;
type RequestHeaders = { get(name: string): string | null };

/** Fingerprinted build assets never change under the same name. */
export const IMMUTABLE_CACHE = 'public, max-age=31536000, immutable';
/**
 * Everything else changes with content: browsers revalidate after a minute (a
 * 304 is cheap), CDNs keep it five minutes and may serve stale while refetching.
 */
export const CONTENT_CACHE = 'public, max-age=60, s-maxage=300, stale-while-revalidate=600';

/**
 * Below this a compressed copy saves a few hundred bytes at most (a review's
 * own JSON is about 600): not worth a file or the CPU.
 */
export const MIN_PRECOMPRESS_BYTES = 1024;

const SUFFIX: Record<Encoding, string> = { identity: '', br: '-br', gzip: '-gz' };
const ENCODING_SUFFIXES = ['-br', '-gz'];
const BOTH: readonly Compression[] = ['br', 'gzip'];

function representationEtag(etag: string, encoding: Encoding): string {
  return SUFFIX[encoding] ? `${etag.slice(0, -1)}${SUFFIX[encoding]}"` : etag;
}

/** Picks br, then gzip, among what the client accepts with q > 0. */
function negotiateEncoding(header: string | null, available: readonly Compression[]): Encoding {
  if (!header || available.length === 0) return 'identity';
  const q = new Map<string, number>();
  for (const part of header.toLowerCase().split(',')) {
    const [name, ...params] = part.trim().split(';');
    if (!name) continue;
    const qParam = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    const value = qParam ? Number(qParam.slice(2)) : 1;
    q.set(name.trim(), Number.isFinite(value) ? value : 0);
  }
  const accepts = (name: string) => (q.get(name) ?? q.get('*') ?? 0) > 0;
  for (const encoding of available) if (accepts(encoding)) return encoding;
  return 'identity';
}

/** Whether a body is worth compressing at all (a content type that compresses is the caller's to know). */
const compressible = (body: Uint8Array) => body.byteLength >= MIN_PRECOMPRESS_BYTES;

/**
 * Brotli at quality 5 and gzip at 6, for answers made while a client waits
 * (search, since, pages rendered on request): the build's quality 11 would
 * take tens of milliseconds for a few percent.
 */
function compressWhileWaiting(body: Uint8Array, encoding: Compression): Buffer {
  if (encoding === 'gzip') return gzipSync(body, { level: 6 });
  return brotliCompressSync(body, {
    params: { [constants.BROTLI_PARAM_QUALITY]: 5, [constants.BROTLI_PARAM_SIZE_HINT]: body.byteLength },
  });
}

/** A file described by the build's manifest, or made on request and described the same way. */
export interface FileRepresentation {
  contentType: string;
  /** The identity bytes' strong ETag. */
  etag: string;
  cacheControl: string;
  /** An HTTP date, for datasets, feeds and one review's JSON; pages and assets have none. */
  lastModified?: string;
  /** WebSub discovery on the hub's topics. */
  link?: string;
  /** The compressed variants the server has (precompressed by the build, or compressed once and kept). */
  encodings: readonly Compression[];
}

export interface FileAnswer {
  status: 200 | 304;
  /** The variant to send with a 200: where its bytes come from is the server's to know. */
  encoding: Encoding;
  /** Everything but Content-Length, which the bytes sent give. */
  headers: Record<string, string>;
}

/** A file's 200 (in the encoding to send) or 304. */
export function answerFile(file: FileRepresentation, requestHeaders: RequestHeaders): FileAnswer {
  const encoding = negotiateEncoding(requestHeaders.get('accept-encoding'), file.encodings);
  const headers: Record<string, string> = {
    'content-type': file.contentType,
    etag: representationEtag(file.etag, encoding),
    'cache-control': file.cacheControl,
    ...CORS_HEADERS,
  };
  if (file.lastModified) headers['last-modified'] = file.lastModified;
  if (file.link) headers.link = file.link;
  if (file.encodings.length > 0) headers.vary = 'Accept-Encoding';
  if (isNotModified(requestHeaders, { etag: file.etag, lastModified: file.lastModified }, ENCODING_SUFFIXES)) {
    return { status: 304, encoding, headers };
  }
  if (encoding !== 'identity') headers['content-encoding'] = encoding;
  return { status: 200, encoding, headers };
}

export interface PageAnswer {
  status: 200 | 304;
  /** Headers to set on top of the page's own. */
  headers: Record<string, string>;
  body: Uint8Array | null;
}

/**
 * An HTML page rendered on request (a review's page): the treatment a static
 * page gets from the build's manifest, made from the rendered bytes, with its
 * Last-Modified as the page set it. Compressed for this request only.
 */
export function answerPage(
  body: Uint8Array,
  lastModified: string | undefined,
  requestHeaders: RequestHeaders,
): PageAnswer {
  const etag = strongEtag(body);
  const encoding = compressible(body) ? negotiateEncoding(requestHeaders.get('accept-encoding'), BOTH) : 'identity';
  const headers: Record<string, string> = { etag: representationEtag(etag, encoding) };
  if (compressible(body)) headers.vary = 'Accept-Encoding';
  if (isNotModified(requestHeaders, { etag, lastModified }, ENCODING_SUFFIXES))
    return { status: 304, headers, body: null };
  const sent = encoding === 'identity' ? body : compressWhileWaiting(body, encoding);
  if (encoding !== 'identity') headers['content-encoding'] = encoding;
  headers['content-length'] = String(sent.byteLength);
  return { status: 200, headers, body: sent };
}

/** A JSON answer kept by the API (search, since): validators and headers made once. */
export interface CachedBody extends Validators {
  body: Uint8Array;
  /**
   * Its br and gzip forms, each made the first time a client accepts it and
   * kept with the body: a cached answer is compressed once, not per request.
   */
  variants: Partial<Record<Compression, Uint8Array>>;
  lastModified: string;
  /** The headers of the 200 and of the 304, made once: a hit copies nothing. */
  ok: Record<string, string>;
  notModified: Record<string, string>;
  /** What holding it costs: the body, its validators and an estimate for its header objects. */
  bytes: number;
}

/** A JSON body already serialised, with its validators and headers. */
export function cachedBody(body: Uint8Array, lastModifiedInstant: string): CachedBody {
  const etag = strongEtag(body);
  const lastModified = httpDate(lastModifiedInstant);
  const notModified: Record<string, string> = {
    'content-type': JSON_TYPE,
    etag,
    'last-modified': lastModified,
    'cache-control': CONTENT_CACHE,
    ...CORS_HEADERS,
  };
  // Also on answers too small to compress: what a cache keys on is the same for every answer of the endpoint.
  notModified.vary = 'Accept-Encoding';
  const bytes = body.byteLength + etag.length + lastModified.length;
  return {
    body,
    variants: {},
    etag,
    lastModified,
    notModified,
    ok: { ...notModified, 'content-length': String(body.byteLength) },
    bytes,
  };
}

/**
 * A kept answer's 200 in the encoding the client prefers, or 304 when it
 * holds any of them. `onCompressed` is told when a variant was made, so a
 * cache can count it.
 */
export function answerCached(requestHeaders: RequestHeaders, cached: CachedBody, onCompressed?: () => void): ApiAnswer {
  const encoding = compressible(cached.body)
    ? negotiateEncoding(requestHeaders.get('accept-encoding'), BOTH)
    : 'identity';
  if (encoding === 'identity') {
    if (isNotModified(requestHeaders, cached, ENCODING_SUFFIXES))
      return { status: 304, headers: cached.notModified, body: null };
    return { status: 200, headers: cached.ok, body: cached.body };
  }
  const etag = representationEtag(cached.etag, encoding);
  if (isNotModified(requestHeaders, cached, ENCODING_SUFFIXES))
    return { status: 304, headers: { ...cached.notModified, etag }, body: null };
  let variant = cached.variants[encoding];
  if (!variant) {
    variant = cached.variants[encoding] = compressWhileWaiting(cached.body, encoding);
    onCompressed?.();
  }
  const headers = {
    ...cached.notModified,
    etag,
    'content-encoding': encoding,
    'content-length': String(variant.byteLength),
  };
  return { status: 200, headers, body: variant };
}

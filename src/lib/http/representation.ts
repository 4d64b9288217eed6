/**
 * HTTP representations: the one place that answers a body with 200 or 304 and
 * chooses among its encodings. Static files, files rendered from the dataset,
 * pages rendered on request and the API's search and since answers all come
 * through here (answers kept by URL: src/lib/http/kept-answers.ts); what they promise is in docs/contract.md (conditional GET).
 *
 * Each encoding is its own representation with its own strong ETag (RFC 9110
 * §8.8.3): the SHA-256 of the decoded bytes, suffixed `-br` or `-gz`. A tag of
 * any of them in If-None-Match means the client holds the same content. br is
 * preferred to gzip among what the client accepts (RFC 9110 §12.5.3).
 */
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import type { ApiAnswer, Resource } from './answer.ts';
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

/** What one Accept-Encoding value accepts among the compressions we make. */
type Accepted = Readonly<Record<Compression, boolean>>;

/**
 * Accept-Encoding values parsed, by their text: clients send a handful of
 * distinct values, so a request finds its answer in a map instead of parsing.
 * Bounded in count and length, so what a client sends cannot make it hold more.
 */
const acceptedByHeader = new Map<string, Accepted>();
const ACCEPTED_KEPT = 256;
const ACCEPTED_KEPT_LENGTH = 256;

function parseAccepted(header: string): Accepted {
  const q = new Map<string, number>();
  for (const part of header.toLowerCase().split(',')) {
    const [name, ...params] = part.trim().split(';');
    if (!name) continue;
    const qParam = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    const value = qParam ? Number(qParam.slice(2)) : 1;
    q.set(name.trim(), Number.isFinite(value) ? value : 0);
  }
  const accepts = (name: string) => (q.get(name) ?? q.get('*') ?? 0) > 0;
  return { br: accepts('br'), gzip: accepts('gzip') };
}

function acceptedOf(header: string): Accepted {
  let accepted = acceptedByHeader.get(header);
  if (accepted) return accepted;
  accepted = parseAccepted(header);
  if (header.length <= ACCEPTED_KEPT_LENGTH) {
    if (acceptedByHeader.size >= ACCEPTED_KEPT) acceptedByHeader.clear();
    acceptedByHeader.set(header, accepted);
  }
  return accepted;
}

/** Picks br, then gzip, among what the client accepts with q > 0. */
function negotiateEncoding(header: string | null, available: readonly Compression[]): Encoding {
  if (!header || available.length === 0) return 'identity';
  const accepted = acceptedOf(header);
  for (const encoding of available) if (accepted[encoding]) return encoding;
  return 'identity';
}

/** Whether a body is worth compressing at all (a content type that compresses is the caller's to know). */
const compressible = (body: Uint8Array) => body.byteLength >= MIN_PRECOMPRESS_BYTES;

/**
 * Brotli at quality 5 and gzip at 6, for answers made while a client waits
 * (search, since, pages rendered on request): the build's quality 11 would
 * take tens of milliseconds for a few percent.
 */
export function compressWhileWaiting(body: Uint8Array, encoding: Compression): Buffer {
  if (encoding === 'gzip') return ownBytes(gzipSync(body, { level: 6 }));
  return ownBytes(
    brotliCompressSync(body, {
      params: { [constants.BROTLI_PARAM_QUALITY]: 5, [constants.BROTLI_PARAM_SIZE_HINT]: body.byteLength },
    }),
  );
}

/**
 * A compressed body to keep, in memory of its own size: zlib's sync calls
 * return a view of their 64 KiB output buffer, and a kept 2 KB answer would
 * hold all of it.
 */
export function ownBytes(bytes: Buffer): Buffer {
  if (bytes.byteLength === bytes.buffer.byteLength) return bytes;
  const own = Buffer.allocUnsafeSlow(bytes.byteLength);
  bytes.copy(own);
  return own;
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
  return fileAnswers(file).answer(requestHeaders);
}

/** A file answered many times: its answers' header objects are made once per encoding and status. */
export interface FileAnswers {
  answer(requestHeaders: RequestHeaders): FileAnswer;
}

/**
 * `first`: headers that come before the file's own in every answer (the Node
 * server's security headers), so a server writes one object as it is.
 */
export function fileAnswers(file: FileRepresentation, first: Readonly<Record<string, string>> = {}): FileAnswers {
  const made: Record<Encoding, { 200?: FileAnswer; 304?: FileAnswer }> = { identity: {}, br: {}, gzip: {} };
  const validators = { etag: file.etag, lastModified: file.lastModified };
  const make = (status: 200 | 304, encoding: Encoding): FileAnswer => {
    const headers: Record<string, string> = {
      ...first,
      'content-type': file.contentType,
      etag: representationEtag(file.etag, encoding),
      'cache-control': file.cacheControl,
      ...CORS_HEADERS,
    };
    if (file.lastModified) headers['last-modified'] = file.lastModified;
    if (file.link) headers.link = file.link;
    if (file.encodings.length > 0) headers.vary = 'Accept-Encoding';
    if (status === 200 && encoding !== 'identity') headers['content-encoding'] = encoding;
    return { status, encoding, headers };
  };
  return {
    answer(requestHeaders) {
      const encoding = negotiateEncoding(requestHeaders.get('accept-encoding'), file.encodings);
      const status = isNotModified(requestHeaders, validators, ENCODING_SUFFIXES) ? 304 : 200;
      return (made[encoding][status] ??= make(status, encoding));
    },
  };
}

/** A JSON answer kept by the API (search, since): validators and answers made once. */
export interface CachedBody extends Validators {
  body: Uint8Array;
  lastModified: string;
  /**
   * The 200 and the 304 in each encoding, made once: a hit allocates nothing.
   * The identity answers are made with the body; br and gzip the first time a
   * client accepts them, with the compressed bytes: a cached answer is
   * compressed once, not per request.
   */
  answers: Partial<Record<Encoding, EncodedAnswers>>;
  /** What holding it costs: the body, its validators and an estimate for its header objects. */
  bytes: number;
  /** Told when a compressed form was made, so a cache holding it can count it. */
  onCompressed?: () => void;
  /** Itself as a resource, on each of its 200s: answered again by URL without the endpoint. */
  resource: Resource;
}

interface EncodedAnswers {
  ok: ApiAnswer;
  notModified: ApiAnswer;
}

/** A JSON body already serialised, with its validators and headers; `onCompressed` as answerCached tells it. */
export function cachedBody(body: Uint8Array, lastModifiedInstant: string, onCompressed?: () => void): CachedBody {
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
  const cached: CachedBody = {
    body,
    etag,
    lastModified,
    answers: {},
    bytes,
    ...(onCompressed ? { onCompressed } : {}),
    resource: {
      answer: (requestHeaders) => answerCached(requestHeaders, cached),
      maxBytes: bytes + (compressible(body) ? 2 * body.byteLength : 0),
    },
  };
  cached.answers.identity = {
    ok: {
      status: 200,
      headers: { ...notModified, 'content-length': String(body.byteLength) },
      body,
      resource: cached.resource,
    },
    notModified: { status: 304, headers: notModified, body: null },
  };
  return cached;
}

/** The headers of a kept answer's 304 in `encoding`: its own ETag. */
function notModifiedHeaders(cached: CachedBody, encoding: Encoding): Record<string, string> {
  return { ...cached.answers.identity!.notModified.headers, etag: representationEtag(cached.etag, encoding) };
}

/**
 * A kept answer's 200 in the encoding the client prefers, or 304 when it
 * holds any of them. Its `onCompressed` is told when a variant was made, so a
 * cache can count it.
 */
export function answerCached(requestHeaders: RequestHeaders, cached: CachedBody): ApiAnswer {
  const encoding = compressible(cached.body)
    ? negotiateEncoding(requestHeaders.get('accept-encoding'), BOTH)
    : 'identity';
  let answers = cached.answers[encoding];
  if (isNotModified(requestHeaders, cached, ENCODING_SUFFIXES))
    return answers?.notModified ?? { status: 304, headers: notModifiedHeaders(cached, encoding), body: null };
  if (!answers) {
    const variant = compressWhileWaiting(cached.body, encoding as Compression);
    const headers = notModifiedHeaders(cached, encoding);
    answers = cached.answers[encoding] = {
      ok: {
        status: 200,
        headers: { ...headers, 'content-encoding': encoding, 'content-length': String(variant.byteLength) },
        body: variant,
        resource: cached.resource,
      },
      notModified: { status: 304, headers, body: null },
    };
    cached.onCompressed?.();
  }
  return answers.ok;
}

/**
 * Validators and compression for an HTML page rendered on request (a review's
 * page): the same treatment a static page gets from the build's manifest, made
 * from the rendered bytes. A strong ETag from the bytes (one per encoding),
 * Last-Modified as the page set it, 304 for a client that holds it, and br or
 * gzip when the client accepts it.
 */
import { compressWhileWaiting, MIN_PRECOMPRESS_BYTES } from './compress.ts';
import { ENCODING_SUFFIXES, negotiateEncoding, representationEtag } from './respond.ts';
import { isNotModified } from '../http/conditional.ts';
import { strongEtag } from '../http/etag.ts';

export interface PageAnswer {
  status: 200 | 304;
  /** Headers to set on top of the page's own. */
  headers: Record<string, string>;
  body: Uint8Array | null;
}

export function answerPage(
  body: Uint8Array,
  lastModified: string | undefined,
  requestHeaders: { get(name: string): string | null },
): PageAnswer {
  const etag = strongEtag(body);
  const compressible = body.byteLength >= MIN_PRECOMPRESS_BYTES;
  const encoding = compressible ? negotiateEncoding(requestHeaders.get('accept-encoding'), ['br', 'gzip']) : 'identity';
  const headers: Record<string, string> = { etag: representationEtag(etag, encoding) };
  if (compressible) headers.vary = 'Accept-Encoding';
  if (isNotModified(requestHeaders, { etag, lastModified }, ENCODING_SUFFIXES))
    return { status: 304, headers, body: null };
  const sent = encoding === 'identity' ? body : compressWhileWaiting(body, encoding);
  if (encoding !== 'identity') headers['content-encoding'] = encoding;
  headers['content-length'] = String(sent.byteLength);
  return { status: 200, headers, body: sent };
}

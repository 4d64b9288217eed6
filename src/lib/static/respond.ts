/**
 * How a static file is answered: validators, 304, content negotiation between
 * the precompressed variants. Pure: the server decides only where bytes come from.
 */
import { CORS_HEADERS } from '../http/cors.ts';
import { isNotModified } from '../http/conditional.ts';
import type { StaticEntry } from './manifest.ts';

export type Encoding = 'br' | 'gzip' | 'identity';

export interface StaticAnswer {
  status: 200 | 304;
  encoding: Encoding;
  headers: Record<string, string>;
}

export function answerStatic(entry: StaticEntry, requestHeaders: { get(name: string): string | null }): StaticAnswer {
  const encoding = negotiateEncoding(requestHeaders.get('accept-encoding'), entry.encodings);
  const headers: Record<string, string> = {
    'content-type': entry.contentType,
    etag: representationEtag(entry.etag, encoding),
    'cache-control': entry.cacheControl,
    ...CORS_HEADERS,
  };
  if (entry.lastModified) headers['last-modified'] = entry.lastModified;
  if (entry.link) headers.link = entry.link;
  if (entry.encodings.length > 0) headers.vary = 'Accept-Encoding';
  if (isNotModified(requestHeaders, { etag: entry.etag, lastModified: entry.lastModified }, ENCODING_SUFFIXES)) {
    return { status: 304, encoding, headers };
  }
  if (encoding !== 'identity') headers['content-encoding'] = encoding;
  return { status: 200, encoding, headers };
}

/**
 * Each encoding is its own representation and gets its own strong ETag (RFC 9110
 * §8.8.3): the SHA-256 of the decoded bytes, suffixed for br and gzip. Any of
 * them in If-None-Match means the client holds the same content.
 */
const SUFFIX: Record<Encoding, string> = { identity: '', br: '-br', gzip: '-gz' };
export const ENCODING_SUFFIXES = ['-br', '-gz'];

export function representationEtag(etag: string, encoding: Encoding): string {
  return SUFFIX[encoding] ? `${etag.slice(0, -1)}${SUFFIX[encoding]}"` : etag;
}

/** Picks br, then gzip, among what the client accepts with q > 0 (RFC 9110 §12.5.3). */
export function negotiateEncoding(header: string | null, available: readonly ('br' | 'gzip')[]): Encoding {
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

/**
 * A JSON answer with validators: a strong ETag from the SHA-256 of the body,
 * Last-Modified from the content, CDN cache headers, and 304 for a matching
 * If-None-Match (which wins) or If-Modified-Since. The dataset never changes
 * inside a process, so serialised bodies are kept in a small LRU: a repeated
 * query costs a map lookup, not a search and a hash.
 */
import { createHash } from 'node:crypto';
import { textBytes, type ApiAnswer, type ApiRequest } from '../http/answer.ts';
import { httpDate, isNotModified } from '../http/conditional.ts';
import { CORS_HEADERS } from '../http/cors.ts';
import { JSON_TYPE } from '../http/json.ts';
import { CONTENT_CACHE } from '../static/manifest.ts';

export interface CachedBody {
  body: Uint8Array;
  etag: string;
  lastModified: string;
  /** The headers of the 200 and of the 304, made once: a hit copies nothing. */
  ok: Record<string, string>;
  notModified: Record<string, string>;
}

/** A bounded map in recency order: Map keeps insertion order, so the first key is the least recent. */
export class BodyCache {
  readonly #entries = new Map<string, CachedBody>();
  #bytes = 0;
  readonly maxEntries: number;
  readonly maxBytes: number;

  constructor(maxEntries = 1000, maxBytes = 32 * 1024 * 1024) {
    this.maxEntries = maxEntries;
    this.maxBytes = maxBytes;
  }

  get(key: string): CachedBody | undefined {
    const hit = this.#entries.get(key);
    if (hit) {
      this.#entries.delete(key);
      this.#entries.set(key, hit);
    }
    return hit;
  }

  set(key: string, value: CachedBody): void {
    // A body bigger than a quarter of the budget (a since of everything at 100k reviews) is not kept.
    if (value.body.byteLength > this.maxBytes / 4) return;
    this.#entries.set(key, value);
    this.#bytes += value.body.byteLength;
    for (const [oldest, entry] of this.#entries) {
      if (this.#entries.size <= this.maxEntries && this.#bytes <= this.maxBytes) break;
      this.#entries.delete(oldest);
      this.#bytes -= entry.body.byteLength;
    }
  }
}

export function jsonBody(value: unknown, lastModifiedInstant: string): CachedBody {
  const body = textBytes(`${JSON.stringify(value)}\n`);
  const etag = `"${createHash('sha256').update(body).digest('base64url')}"`;
  const lastModified = httpDate(lastModifiedInstant);
  const notModified: Record<string, string> = {
    'content-type': JSON_TYPE,
    etag,
    'last-modified': lastModified,
    'cache-control': CONTENT_CACHE,
    ...CORS_HEADERS,
  };
  return { body, etag, lastModified, notModified, ok: { ...notModified, 'content-length': String(body.byteLength) } };
}

export function conditionalJsonAnswer(request: ApiRequest, cached: CachedBody): ApiAnswer {
  if (isNotModified(request.headers, cached)) return { status: 304, headers: cached.notModified, body: null };
  return { status: 200, headers: cached.ok, body: cached.body };
}

/**
 * A JSON answer with validators: a strong ETag from the SHA-256 of the body,
 * Last-Modified from the content, CDN cache headers, and 304 for a matching
 * If-None-Match (which wins) or If-Modified-Since. The dataset never changes
 * inside a process, so serialised bodies are kept in a small LRU: a repeated
 * query costs a map lookup, not a search and a hash.
 */
import { textBytes, type ApiAnswer, type ApiRequest } from '../http/answer.ts';
import { httpDate, isNotModified } from '../http/conditional.ts';
import { CORS_HEADERS } from '../http/cors.ts';
import { JSON_TYPE, toJsonBody } from '../http/json.ts';
import { strongEtag } from '../http/etag.ts';
import { CONTENT_CACHE } from '../static/manifest.ts';

export interface CachedBody {
  body: Uint8Array;
  etag: string;
  lastModified: string;
  /** The headers of the 200 and of the 304, made once: a hit copies nothing. */
  ok: Record<string, string>;
  notModified: Record<string, string>;
}

/**
 * A bounded map in recency order (Map keeps insertion order, so the first key
 * is the least recent), with a bounded table of aliases: other spellings of a
 * key (a raw query string) that point to it without holding the body twice.
 */
export class BodyCache {
  readonly #entries = new Map<string, CachedBody>();
  readonly #aliases = new Map<string, string>();
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

  /** The body under `alias` (another spelling of a key), if that key is still cached. */
  getByAlias(alias: string): CachedBody | undefined {
    const key = this.#aliases.get(alias);
    return key === undefined ? undefined : this.get(key);
  }

  alias(alias: string, key: string): void {
    this.#aliases.delete(alias);
    this.#aliases.set(alias, key);
    if (this.#aliases.size > this.maxEntries * 4) this.#aliases.delete(this.#aliases.keys().next().value as string);
  }

  set(key: string, value: CachedBody): void {
    // A body bigger than a quarter of the budget (a since of everything at 100k reviews) is not kept.
    if (value.body.byteLength > this.maxBytes / 4) return;
    const previous = this.#entries.get(key);
    if (previous) {
      this.#entries.delete(key);
      this.#bytes -= previous.body.byteLength;
    }
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
  return cachedBody(textBytes(toJsonBody(value)), lastModifiedInstant);
}

/** A body already serialised (see review-json.ts), with its validators and headers. */
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
  return { body, etag, lastModified, notModified, ok: { ...notModified, 'content-length': String(body.byteLength) } };
}

export function conditionalJsonAnswer(request: ApiRequest, cached: CachedBody): ApiAnswer {
  if (isNotModified(request.headers, cached)) return { status: 304, headers: cached.notModified, body: null };
  return { status: 200, headers: cached.ok, body: cached.body };
}

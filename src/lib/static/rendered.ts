/**
 * Files made on request from the dataset instead of written by the build (one
 * JSON per review: 100k files at 100k reviews). Each is described by the same
 * manifest entry the build would have written for its bytes, so it is answered
 * exactly like a static file: the SHA-256 strong ETag, the content cache
 * policy, CORS, its Last-Modified, and br/gzip variants where they pay.
 */
import type { ApiAnswer } from '../http/answer.ts';
import { strongEtag } from '../http/etag.ts';
import { pays } from './compress.ts';
import { answerFile, CONTENT_CACHE } from '../http/representation.ts';
import type { StaticEntry } from './manifest.ts';

export interface RenderedFile {
  entry: StaticEntry;
  /** The identity bytes. */
  body: Buffer;
}

/** Where rendered files come from: one per path, or none for a path it does not know. */
export interface RenderedFiles {
  /** Whether the path is this source's to answer (a 404 of its own when `render` finds nothing). */
  owns(pathname: string): boolean;
  render(pathname: string): RenderedFile | undefined;
}

/**
 * `precompress`: whether variants are offered (the Node server compresses them
 * once and keeps them; a CDN host compresses by itself).
 */
export function renderedFile(
  path: string,
  body: Buffer,
  options: { contentType: string; lastModified?: string; precompress: boolean },
): RenderedFile {
  const entry: StaticEntry = {
    file: path.slice(1),
    contentType: options.contentType,
    etag: strongEtag(body),
    size: body.length,
    cacheControl: CONTENT_CACHE,
    encodings: options.precompress && pays(options.contentType, body.length) ? ['br', 'gzip'] : [],
    ...(options.lastModified ? { lastModified: options.lastModified } : {}),
  };
  return { entry, body };
}

/** The identity answer (a CDN host compresses by itself): 200 with the bytes, or 304. */
export function answerRendered(file: RenderedFile, requestHeaders: { get(name: string): string | null }): ApiAnswer {
  const answer = answerFile(file.entry, requestHeaders);
  return { status: answer.status, headers: answer.headers, body: answer.status === 304 ? null : file.body };
}

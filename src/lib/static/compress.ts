/**
 * Which files get compressed variants and how: the same rule at build time
 * (written beside the file for the Node server) and at request time (files
 * rendered on demand), so a representation's bytes do not depend on where
 * it was made.
 */
import { promisify } from 'node:util';
import { brotliCompress, brotliCompressSync, constants, gzip as gzipCallback, gzipSync } from 'node:zlib';
import { MIN_PRECOMPRESS_BYTES, ownBytes } from '../http/representation.ts';
import { isCompressible } from './content-types.ts';

/** The datasets and feeds carry the dataset's `updated` as Last-Modified, and get brotli's best. */
export const DATA_PATHS = [
  '/reviews.json',
  '/insights.json',
  '/moderation.json',
  '/widget.json',
  '/api/feed.json',
  '/feed.xml',
];

export function pays(contentType: string, size: number): boolean {
  return isCompressible(contentType) && size >= MIN_PRECOMPRESS_BYTES;
}

/**
 * Brotli's best (11) where it pays: small files, where it is cheap, and the
 * datasets and feeds, the most requested bytes. Elsewhere 5: measured on a
 * 29 KB listing page, quality 11 takes 51 ms for 4.7 KB, quality 5 0.9 ms for
 * 5.3 KB; on the 5.2 MB CMS bundle quality 5 takes 2.3 s for 1.30 MB, quality
 * 9 8–13 s for 1.24 MB.
 */
function brotliQuality(path: string, size: number): number {
  if (size <= 16 * 1024) return 11;
  return DATA_PATHS.includes(path) && size <= 1_000_000 ? 11 : 5;
}

const brotliOptions = (path: string, bytes: Uint8Array) => ({
  params: {
    [constants.BROTLI_PARAM_QUALITY]: brotliQuality(path, bytes.length),
    [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
  },
});
const GZIP_OPTIONS = { level: 9 };

/** Made while a client waits (the Node server's compress-on-request files) and kept. */
export function brotli(path: string, bytes: Uint8Array): Buffer {
  return ownBytes(brotliCompressSync(bytes, brotliOptions(path, bytes)));
}

export function gzip(bytes: Uint8Array): Buffer {
  return ownBytes(gzipSync(bytes, GZIP_OPTIONS));
}

const brotliInPool = promisify(brotliCompress);
const gzipInPool = promisify(gzipCallback);

/** The same bytes as brotli() and gzip(), made on libuv's thread pool: the build compresses several files at once. */
export function compressInPool(path: string, bytes: Uint8Array): Promise<[br: Buffer, gz: Buffer]> {
  return Promise.all([brotliInPool(bytes, brotliOptions(path, bytes)), gzipInPool(bytes, GZIP_OPTIONS)]);
}

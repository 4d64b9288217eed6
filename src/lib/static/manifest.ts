/**
 * The build's manifest of static files: for each URL path, the content type, a
 * strong ETag from the SHA-256 of the bytes, the cache policy and which
 * precompressed variants (.br, .gz) sit beside the file. Written once after
 * the build so the server never hashes or compresses at request time.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { strongEtag } from '../http/etag.ts';
import { contentTypeFor, isCompressible } from './content-types.ts';

export const MANIFEST_FILE = 'static-manifest.json';

export interface StaticEntry {
  /** Path of the file below the client folder, `/` separated. */
  file: string;
  contentType: string;
  etag: string;
  size: number;
  cacheControl: string;
  encodings: Array<'br' | 'gzip'>;
  /** HTTP date of the newest content in a dataset or feed; pages and assets have none. */
  lastModified?: string;
}

/** The datasets and feeds carry the dataset's `updated` as Last-Modified. */
export const DATA_PATHS = ['/reviews.json', '/insights.json', '/api/feed.json', '/feed.xml'];

export type StaticManifest = Record<string, StaticEntry>;

/** Fingerprinted build assets never change under the same name. */
export const IMMUTABLE_CACHE = 'public, max-age=31536000, immutable';
/**
 * Everything else changes with content: browsers revalidate after a minute (a
 * 304 is cheap), CDNs keep it five minutes and may serve stale while refetching.
 */
export const CONTENT_CACHE = 'public, max-age=60, s-maxage=300, stale-while-revalidate=600';


export function writeStaticManifest(clientDir: string): StaticManifest {
  const manifest: StaticManifest = {};
  const reviewsUpdated = ownUpdated(readFileSync(join(clientDir, 'reviews.json')));
  for (const absolute of listFiles(clientDir)) {
    const file = relative(clientDir, absolute).split(sep).join('/');
    if (file === MANIFEST_FILE || file.endsWith('.br') || file.endsWith('.gz')) continue;
    const bytes = readFileSync(absolute);
    const contentType = contentTypeFor(`/${file}`);
    const encodings: StaticEntry['encodings'] = [];
    if (isCompressible(contentType) && bytes.length >= 256) {
      writeFileSync(`${absolute}.br`, brotliCompressSync(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: brotliQuality(bytes.length), [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length } }));
      writeFileSync(`${absolute}.gz`, gzipSync(bytes, { level: 9 }));
      encodings.push('br', 'gzip');
    }
    const entry: StaticEntry = {
      file,
      contentType,
      etag: strongEtag(bytes),
      size: bytes.length,
      cacheControl: file.startsWith('_astro/') ? IMMUTABLE_CACHE : CONTENT_CACHE,
      encodings,
      ...(DATA_PATHS.includes(`/${file}`) ? lastModifiedOf(bytes, reviewsUpdated) : {}),
    };
    for (const path of urlPathsFor(file)) manifest[path] = entry;
  }
  writeFileSync(join(clientDir, MANIFEST_FILE), `${JSON.stringify(manifest, null, 1)}\n`);
  return manifest;
}

/**
 * A data file's own newest change when it states one (reviews.json, and
 * insights.json, whose editorial FAQ and summary change on their own); the
 * feeds carry the reviews' date, the content they are made of.
 */
function lastModifiedOf(bytes: Buffer, reviewsUpdated: string | undefined): { lastModified?: string } {
  const updated = ownUpdated(bytes) ?? reviewsUpdated;
  return updated ? { lastModified: new Date(updated).toUTCString() } : {};
}

function ownUpdated(bytes: Buffer): string | undefined {
  try {
    const { updated } = JSON.parse(bytes.toString('utf8')) as { updated?: unknown };
    return typeof updated === 'string' && !Number.isNaN(Date.parse(updated)) ? updated : undefined;
  } catch {
    return undefined;
  }
}

/** Maximum brotli for ordinary files; a little less for the huge datasets of scale builds, where 11 costs minutes. */
function brotliQuality(size: number): number {
  return size > 1_000_000 ? 9 : 11;
}

/** `index.html` files answer for their folder too: `/page/2/index.html` is `/page/2/` and `/page/2`. */
function urlPathsFor(file: string): string[] {
  const path = `/${file}`;
  if (path === '/index.html') return ['/', path];
  if (path.endsWith('/index.html')) {
    const folder = path.slice(0, -'index.html'.length);
    return [folder, folder.slice(0, -1), path];
  }
  return [path];
}

function listFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...listFiles(path));
    else if (entry.isFile()) out.push(path);
  }
  return out.sort();
}

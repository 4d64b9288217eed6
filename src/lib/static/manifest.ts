/**
 * The build's manifest of static files: for each URL path, the content type, a
 * strong ETag from the SHA-256 of the bytes, the cache policy and which
 * compressed variants it has (.br, .gz beside the file, or made by the server
 * on first request for small files). Written once after
 * the build so the server never hashes or compresses at request time.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join, relative, sep } from 'node:path';
import { strongEtag } from '../http/etag.ts';
import { CONTENT_CACHE, IMMUTABLE_CACHE } from '../http/representation.ts';
import { compressInPool, DATA_PATHS, pays } from './compress.ts';
import { contentTypeFor } from './content-types.ts';
import { topicRegistry } from '../websub/topic-registry.ts';

export const MANIFEST_FILE = 'static-manifest.json';

export interface StaticEntry {
  /** Path of the file below the client folder, `/` separated. */
  file: string;
  contentType: string;
  etag: string;
  size: number;
  cacheControl: string;
  encodings: Array<'br' | 'gzip'>;
  /**
   * The variants are not on disk: the Node server compresses the file on its first
   * request for them (the same bytes, src/lib/static/compress.ts) and keeps them.
   */
  compressOnRequest?: true;
  /** HTTP date of the newest content in a dataset or feed; pages and assets have none. */
  lastModified?: string;
  /** WebSub discovery (§4) on the hub's topics: `<hub>; rel="hub", <topic>; rel="self"`. */
  link?: string;
}

/**
 * Compressible files up to this size get their variants from the Node server on
 * their first request (a few ms each, kept in memory afterwards), not from the
 * build: at 100k reviews the build compressed 4,000 listing pages two ways,
 * most of which are never asked for. Larger files (the datasets, sitemaps,
 * bundles) would cost a request too long, so the build compresses those.
 */
const COMPRESS_ON_REQUEST_MAX_BYTES = 64 * 1024;

export type StaticManifest = Record<string, StaticEntry>;

/**
 * The Link header of each WebSub topic (src/lib/websub/topic-registry.ts), by path:
 * the feeds, reviews.json and moderation.json. Every host sends it from
 * the manifest, so subscribers discover the hub from the file itself.
 */
function discoveryLinks(site: string): Record<string, string> {
  const topics = topicRegistry(site);
  const out: Record<string, string> = {};
  for (const topic of topics.all) out[topic.path] = `<${topics.hub}>; rel="hub", <${topic.url}>; rel="self"`;
  return out;
}

export interface ManifestOptions {
  /** The public base URL, for the topics' Link headers (none without it). */
  site?: string;
  /**
   * Write .br and .gz beside each compressible file (the Node server sends them). A CDN
   * host compresses by itself and would publish those files, so its build skips them.
   */
  precompress?: boolean;
  /** Filled with the paths whose variants were made during the prerender (compressEarly). */
  compressedEarly?: string[];
}

export async function writeStaticManifest(
  clientDir: string,
  { site, precompress = true, compressedEarly }: ManifestOptions = {},
): Promise<StaticManifest> {
  const manifest: StaticManifest = {};
  const links = site ? discoveryLinks(site) : {};
  const reviewsUpdated = ownUpdated(readFileSync(join(clientDir, 'reviews.json')));
  // The large files' variants, made a few at a time on the thread pool (reviews.json alone is
  // 56 MB at 100k reviews: seconds of gzip 9), while the loop hashes the other files.
  const compressions = createPool(availableParallelism());
  for (const absolute of listFiles(clientDir)) {
    const file = relative(clientDir, absolute).split(sep).join('/');
    if (file === MANIFEST_FILE || file.endsWith('.br') || file.endsWith('.gz')) continue;
    const bytes = readFileSync(absolute);
    const contentType = contentTypeFor(`/${file}`);
    const encodings: StaticEntry['encodings'] = [];
    const compress = precompress && pays(contentType, bytes.length);
    const onRequest = compress && bytes.length <= COMPRESS_ON_REQUEST_MAX_BYTES;
    if (compress) encodings.push('br', 'gzip');
    if (compress && !onRequest) {
      const early = takeEarly(`/${file}`, bytes);
      if (early) compressedEarly?.push(`/${file}`);
      await compressions.add(async () => {
        const [br, gz] = await (early ?? compressInPool(`/${file}`, bytes));
        writeFileSync(`${absolute}.br`, br);
        writeFileSync(`${absolute}.gz`, gz);
      });
    }
    const entry: StaticEntry = {
      file,
      contentType,
      etag: strongEtag(bytes),
      size: bytes.length,
      cacheControl: file.startsWith('_astro/') ? IMMUTABLE_CACHE : CONTENT_CACHE,
      encodings,
      ...(onRequest ? { compressOnRequest: true as const } : {}),
      // reviews.json's was read above already.
      ...(DATA_PATHS.includes(`/${file}`)
        ? lastModifiedOf(file === 'reviews.json' ? reviewsUpdated : ownUpdated(bytes), reviewsUpdated)
        : {}),
      ...(links[`/${file}`] ? { link: links[`/${file}`] } : {}),
    };
    for (const path of urlPathsFor(file)) manifest[path] = entry;
  }
  await compressions.done();
  (globalThis as EarlyGlobal)[EARLY] = undefined;
  writeFileSync(join(clientDir, MANIFEST_FILE), `${JSON.stringify(manifest, null, 1)}\n`);
  return manifest;
}

/**
 * Compression started early: an endpoint that makes one of the largest files (reviews.json is
 * 56 MB at 100k reviews, seconds of brotli and gzip) hands its bytes over as it returns them,
 * and they are compressed on libuv's thread pool while the prerender goes on (one core renders
 * pages; the other was idle). The manifest then takes those variants for a file of exactly
 * these bytes, or compresses as ever. Only a build that precompresses accepts them
 * (acceptEarlyCompressions, from the integration): elsewhere compressEarly does nothing.
 * Kept on globalThis: the integration and the prerendered routes are different module graphs.
 */
const EARLY = Symbol.for('roofing-reviews:early-compressions');
type EarlyGlobal = typeof globalThis & {
  [EARLY]?: Map<string, { bytes: Uint8Array; variants: Promise<[br: Buffer, gz: Buffer]> }>;
};
const early = () => (globalThis as EarlyGlobal)[EARLY];

export function acceptEarlyCompressions(): void {
  (globalThis as EarlyGlobal)[EARLY] = new Map();
}

/** A built file's bytes, by URL path, compressed now when the manifest will want its variants. */
export function compressEarly(path: string, bytes: Uint8Array): void {
  const started = early();
  if (!started || bytes.length <= COMPRESS_ON_REQUEST_MAX_BYTES || !pays(contentTypeFor(path), bytes.length)) return;
  const variants = compressInPool(path, bytes);
  // A failure is reported when the manifest takes the variants (unhandled until then).
  variants.catch(() => undefined);
  started.set(path, { bytes, variants });
}

/** The variants started for this path, if from these very bytes. */
function takeEarly(path: string, bytes: Buffer): Promise<[br: Buffer, gz: Buffer]> | undefined {
  const started = early()?.get(path);
  early()?.delete(path);
  return started && bytes.equals(started.bytes) ? started.variants : undefined;
}

/** At most `size` jobs at once: `add` waits for a free place, `done` for every job; the first failure is thrown. */
function createPool(size: number) {
  const running = new Set<Promise<void>>();
  let failure: { error: unknown } | undefined;
  const check = () => {
    if (failure) throw failure.error;
  };
  return {
    async add(job: () => Promise<void>): Promise<void> {
      while (running.size >= size) await Promise.race(running);
      check();
      const run: Promise<void> = job()
        .catch((error: unknown) => void (failure ??= { error }))
        .finally(() => running.delete(run));
      running.add(run);
    },
    async done(): Promise<void> {
      await Promise.all(running);
      check();
    },
  };
}

/**
 * A data file's own newest change when it states one (reviews.json, and
 * insights.json, whose editorial FAQ and summary change on their own); the
 * feeds carry the reviews' date, the content they are made of.
 */
function lastModifiedOf(own: string | undefined, reviewsUpdated: string | undefined): { lastModified?: string } {
  const updated = own ?? reviewsUpdated;
  return updated ? { lastModified: new Date(updated).toUTCString() } : {};
}

/**
 * The root object's `updated` as the file's last member (`…,"updated":"…"}`, how our data
 * files are written): a match at the very end of valid JSON can only be the root's own member.
 * Read from the tail, so reviews.json (56 MB at 100k reviews) is not parsed for one field.
 */
const TRAILING_UPDATED = /"updated":"([^"\\]*)"\}\s*$/;

function ownUpdated(bytes: Buffer): string | undefined {
  const tail = TRAILING_UPDATED.exec(bytes.subarray(Math.max(0, bytes.length - 256)).toString('utf8'))?.[1];
  if (tail !== undefined) return Number.isNaN(Date.parse(tail)) ? undefined : tail;
  try {
    const { updated } = JSON.parse(bytes.toString('utf8')) as { updated?: unknown };
    return typeof updated === 'string' && !Number.isNaN(Date.parse(updated)) ? updated : undefined;
  } catch {
    return undefined;
  }
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

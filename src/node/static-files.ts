/**
 * The build's static files, and the files rendered on request from the dataset
 * (src/lib/static/rendered.ts), served with content-hash ETags and their
 * compressed variants. @astrojs/node would stream files from disk with weak
 * mtime ETags; this answers from the manifest, so a 304 costs no disk read.
 *
 * Bodies are read when first asked for and kept in one LRU with a byte budget:
 * at 100k reviews the build holds a 56 MB reviews.json, its variants and sitemap
 * parts, and holding every file with its br and gzip copies would be most of the
 * server's memory. Files above HELD_MAX_BYTES are streamed from disk each time.
 *
 * What a path answers (its headers per encoding and status, where its bytes
 * are, a rendered file's bytes) is worked out on its first request and kept
 * for the paths asked for most recently, so a request to a file asked for
 * before is a lookup and one write.
 */
import { closeSync, fstatSync, openSync, readFileSync, statSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { join } from 'node:path';
import { LRUCache } from 'lru-cache';
import { preflightAnswer } from '../lib/http/cors.ts';
import { methodNotAllowed, notFound } from '../lib/http/json.ts';
import type { KeptAnswer, KeptUrl } from '../lib/http/kept-answers.ts';
import { fileAnswers, type Encoding, type FileAnswer, type FileAnswers } from '../lib/http/representation.ts';
import { securityHeadersFor } from '../lib/http/security-headers.ts';
import { brotli, gzip } from '../lib/static/compress.ts';
import { MANIFEST_FILE, type StaticEntry, type StaticManifest } from '../lib/static/manifest.ts';
import type { RenderedFile, RenderedFiles } from '../lib/static/rendered.ts';
import { nodeHeaderReader } from './request.ts';
import { sendFile } from './send-file.ts';
import { sendAnswer } from './web-bridge.ts';

export interface StaticFiles {
  /**
   * Answers the request if its canonical path (src/node/request.ts) is a static or rendered
   * file or a build artefact (404); false when it is not ours.
   */
  serve(req: IncomingMessage, res: ServerResponse, pathname: string): boolean;
  /**
   * A file as served (identity encoding): its content type, the hex SHA-256 of its bytes when the
   * manifest has it (its ETag), and its bytes, read when `body` is first used: the hub hashes its
   * topics at every start, and reviews.json is 57 MB at 100k reviews.
   */
  read(pathname: string): { body: Buffer; contentType: string; sha256?: string } | undefined;
  /** The site's 404 page (a JSON 404 when the build has none), for a path that names nothing; `security` first. */
  notFound(res: ServerResponse, security: Readonly<Record<string, string>>): void;
  /**
   * The build's file at this canonical path as an answer kept by URL (src/lib/http/kept-answers.ts),
   * when its bytes are sent from memory (held, or read again into memory); undefined for any other path.
   */
  keptUrl(pathname: string): KeptUrl | undefined;
  /** Adds files rendered on request (after the build's files, which win on the same path). */
  mount(source: RenderedFiles): void;
  /** The site URL the build was made for, as its feed's discovery Link names it (undefined without one). */
  builtSite: string | undefined;
}

/** Bodies sent up to this size are kept in memory once read (reviews.json in brotli at 100k reviews is 3.8 MB); larger ones are streamed from disk. */
const HELD_MAX_BYTES = 4 * 1024 * 1024;
/** The memory all kept bodies (static files, their variants and rendered files' variants) may take together. */
const BODY_BUDGET_BYTES = 48 * 1024 * 1024;

/** Paths whose answers are kept worked out (a few KB each: headers, and a rendered file's bytes). */
const SERVED_KEPT = 1024;

const STATIC_METHODS = ['GET', 'HEAD'];
const VARIANT_SUFFIX: Record<Encoding, string> = { identity: '', br: '.br', gzip: '.gz' };

/** A body to send: bytes, or a file on disk too large to keep. */
type Body = Buffer | { path: string };

/** One path's file: its answers (with the security headers of its path first) and where its bytes are. */
interface Found {
  entry: StaticEntry;
  answers: FileAnswers;
  body(encoding: Encoding): Body;
  /** The 200's headers with the Content-Length of the bytes sent, per encoding, made on its first send. */
  sent: Partial<Record<Encoding, { length: number; headers: Record<string, string> }>>;
}

export function loadStaticFiles(clientDir: string): StaticFiles {
  const manifest = JSON.parse(readFileSync(join(clientDir, MANIFEST_FILE), 'utf8')) as StaticManifest;
  const byPath = new Map(Object.entries(manifest));
  const bodies = new LRUCache<string, Buffer>({
    maxSize: BODY_BUDGET_BYTES,
    sizeCalculation: (body) => Math.max(1, body.length),
  });
  const sources: RenderedFiles[] = [];

  const kept = (key: string, make: () => Buffer): Buffer => {
    let body = bodies.get(key);
    if (!body) {
      body = make();
      bodies.set(key, body);
    }
    return body;
  };
  /** A variant made here from the identity bytes (what the build would have written). */
  const compressed = (key: string, pathname: string, encoding: 'br' | 'gzip', identity: () => Buffer): Buffer =>
    kept(`${key}${VARIANT_SUFFIX[encoding]}`, () =>
      encoding === 'br' ? brotli(pathname, identity()) : gzip(identity()),
    );
  const found = (pathname: string, entry: StaticEntry, body: Found['body']): Found => ({
    entry,
    answers: fileAnswers(entry, securityHeadersFor(pathname)),
    body,
    sent: {},
  });
  const fromDisk = (pathname: string, entry: StaticEntry): Found => {
    const path = join(clientDir, entry.file);
    const identity = () => kept(path, () => readFileSync(path));
    // Held or streamed by the size of what is sent: reviews.json's br body is a tenth of the file.
    const held: Partial<Record<Encoding, boolean>> = {};
    const isHeld = (encoding: Encoding, variant: string) =>
      (held[encoding] ??=
        (encoding === 'identity' || entry.compressOnRequest ? entry.size : statSync(variant).size) <= HELD_MAX_BYTES);
    return found(pathname, entry, (encoding) => {
      const variant = `${path}${VARIANT_SUFFIX[encoding]}`;
      if (!isHeld(encoding, variant)) return { path: variant };
      if (encoding === 'identity') return identity();
      return entry.compressOnRequest
        ? compressed(path, `/${entry.file}`, encoding, identity)
        : kept(variant, () => readFileSync(variant));
    });
  };
  const fromRendered = (pathname: string, file: RenderedFile): Found =>
    found(pathname, file.entry, (encoding) =>
      encoding === 'identity' ? file.body : compressed(`rendered:${pathname}`, pathname, encoding, () => file.body),
    );
  const served = new LRUCache<string, Found>({ max: SERVED_KEPT });
  /** The file at exactly this path; `null` when a rendered source owns the path but has no file there. */
  const find = (pathname: string): Found | null | undefined => {
    const known = served.get(pathname);
    if (known) return known;
    let file: Found;
    const entry = byPath.get(pathname);
    if (entry) {
      file = fromDisk(pathname, entry);
    } else {
      const source = sources.find((s) => s.owns(pathname));
      if (!source) return undefined;
      const rendered = source.render(pathname);
      if (!rendered) return null;
      file = fromRendered(pathname, rendered);
    }
    served.set(pathname, file);
    return file;
  };
  /** The 200's headers for these bytes, made once per encoding (again only if the bytes read differ in length). */
  const okHeaders = (file: Found, answer: FileAnswer, length: number): Record<string, string> => {
    const sent = file.sent[answer.encoding];
    if (sent?.length === length) return sent.headers;
    const headers = { ...answer.headers, 'content-length': String(length) };
    file.sent[answer.encoding] = { length, headers };
    return headers;
  };
  const identity = (found: Found): Buffer => {
    const body = found.body('identity');
    return Buffer.isBuffer(body) ? body : readFileSync(body.path);
  };

  // What the build leaves in the folder for this server only: the manifest and the
  // precompressed bodies, never served as files of their own.
  const artefacts = new Set([`/${MANIFEST_FILE}`]);
  // (Also where the variants are made on request: the same paths stay closed, whichever way a file is compressed.)
  for (const entry of byPath.values()) {
    if (entry.encodings.includes('br')) artefacts.add(`/${entry.file}.br`);
    if (entry.encodings.includes('gzip')) artefacts.add(`/${entry.file}.gz`);
  }
  const notFoundPage = byPath.get('/404.html');
  const sendNotFound = (res: ServerResponse, security: Readonly<Record<string, string>>) => {
    if (!notFoundPage) return sendAnswer(notFound(), res, security);
    const body = identity(fromDisk('/404.html', notFoundPage));
    res.writeHead(404, {
      ...security,
      'content-type': notFoundPage.contentType,
      'cache-control': 'no-store',
      'content-length': String(body.length),
    });
    res.end(body);
  };

  return {
    serve(req, res, pathname) {
      const file = find(pathname);
      if (!file) {
        // Paths are canonical here (src/node/request.ts): an artefact has this one spelling.
        if (artefacts.has(pathname)) {
          sendNotFound(res, securityHeadersFor(pathname));
          return true;
        }
        // A rendered source's path with nothing there (an unknown review id): a JSON 404, never cached.
        if (file === null) {
          sendAnswer(notFound(), res, securityHeadersFor(pathname));
          return true;
        }
        return false;
      }
      const method = req.method ?? 'GET';
      if (method === 'OPTIONS') {
        sendAnswer(preflightAnswer(nodeHeaderReader(req), STATIC_METHODS), res, securityHeadersFor(pathname));
        return true;
      }
      if (!STATIC_METHODS.includes(method)) {
        sendAnswer(methodNotAllowed([...STATIC_METHODS, 'OPTIONS']), res, securityHeadersFor(pathname));
        return true;
      }
      const answer = file.answers.answer(nodeHeaderReader(req));
      if (answer.status === 304) {
        res.writeHead(304, answer.headers);
        res.end();
        return true;
      }
      const body = file.body(answer.encoding);
      if (Buffer.isBuffer(body)) {
        res.writeHead(200, okHeaders(file, answer, body.length));
        res.end(method === 'HEAD' ? undefined : body);
      } else {
        stream(res, body.path, answer.headers, method === 'HEAD');
      }
      return true;
    },
    keptUrl(pathname) {
      // The build's files only, a few hundred: the files rendered from the dataset are one per review.
      const file = byPath.has(pathname) ? find(pathname) : undefined;
      // Half the limit: a compressed form of incompressible bytes can come out a little larger.
      if (!file || file.entry.size > HELD_MAX_BYTES / 2) return undefined;
      const notModified: Partial<Record<Encoding, KeptAnswer>> = {};
      return {
        answer(requestHeaders) {
          const answer = file.answers.answer(requestHeaders);
          if (answer.status === 304)
            return (notModified[answer.encoding] ??= { status: 304, headers: answer.headers, body: null });
          const body = file.body(answer.encoding) as Buffer;
          return { status: 200, headers: okHeaders(file, answer, body.length), body };
        },
      };
    },
    read(pathname) {
      const file = find(pathname);
      if (!file) return undefined;
      let body: Buffer | undefined;
      return {
        get body() {
          return (body ??= identity(file));
        },
        contentType: file.entry.contentType,
        sha256: byPath.get(pathname) === file.entry ? sha256OfEtag(file.entry.etag) : undefined,
      };
    },
    mount(source) {
      sources.push(source);
    },
    notFound: sendNotFound,
    builtSite: siteOfLink(byPath.get('/feed.xml')?.link),
  };
}

/** Sends a file too large to keep, its length from the open file itself. */
function stream(res: ServerResponse, path: string, headers: Record<string, string>, headOnly: boolean): void {
  const fd = openSync(path, 'r');
  const size = fstatSync(fd).size;
  res.writeHead(200, { ...headers, 'content-length': String(size) });
  if (headOnly) {
    closeSync(fd);
    res.end();
    return;
  }
  sendFile(res, fd, size);
}

/** The build's ETags are the base64url SHA-256 of the bytes, quoted (src/lib/static/manifest.ts): that hash in hex. */
function sha256OfEtag(etag: string): string | undefined {
  const match = /^"([A-Za-z0-9_-]{43})"$/.exec(etag);
  return match ? Buffer.from(match[1]!, 'base64url').toString('hex') : undefined;
}

/** The origin of the rel="self" URL in a discovery Link header. */
function siteOfLink(link: string | undefined): string | undefined {
  const self = link && /<([^>]+)>;\s*rel="self"/.exec(link)?.[1];
  return self ? URL.parse(self)?.origin : undefined;
}

/**
 * The build's static files held in memory with their precompressed variants,
 * served with the manifest's content-hash ETags. @astrojs/node would stream
 * them from disk with weak mtime ETags; this answers from memory, and a 304
 * costs no disk read.
 */
import { readFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { join } from 'node:path';
import { preflightAnswer } from '../lib/http/cors.ts';
import { methodNotAllowed, notFound } from '../lib/http/json.ts';
import { MANIFEST_FILE, type StaticEntry, type StaticManifest } from '../lib/static/manifest.ts';
import { answerStatic, type Encoding } from '../lib/static/respond.ts';
import { nodeHeaderReader } from './request.ts';
import { sendAnswer } from './web-bridge.ts';

interface LoadedFile {
  entry: StaticEntry;
  bodies: Partial<Record<Encoding, Buffer>>;
}

export interface StaticFiles {
  /**
   * Answers the request if its path is a static file, another spelling of one
   * (a 301 to the canonical path) or a build artefact (404); false when it is not ours.
   */
  serve(req: IncomingMessage, res: ServerResponse, pathname: string, search?: string): boolean;
  /** The bytes and content type of a file as served (identity encoding). */
  read(pathname: string): { body: Buffer; contentType: string } | undefined;
}

const STATIC_METHODS = ['GET', 'HEAD'];

export function loadStaticFiles(clientDir: string): StaticFiles {
  const manifest = JSON.parse(readFileSync(join(clientDir, MANIFEST_FILE), 'utf8')) as StaticManifest;
  const byFile = new Map<string, LoadedFile>();
  const byPath = new Map<string, LoadedFile>();
  for (const [path, entry] of Object.entries(manifest)) {
    let loaded = byFile.get(entry.file);
    if (!loaded) {
      const absolute = join(clientDir, entry.file);
      loaded = { entry, bodies: { identity: readFileSync(absolute) } };
      if (entry.encodings.includes('br')) loaded.bodies.br = readFileSync(`${absolute}.br`);
      if (entry.encodings.includes('gzip')) loaded.bodies.gzip = readFileSync(`${absolute}.gz`);
      byFile.set(entry.file, loaded);
    }
    byPath.set(path, loaded);
  }
  // What the build leaves in the folder for this server only: the manifest and the
  // precompressed bodies. Astro's own static handler would serve them as pages.
  const artefacts = new Set([`/${MANIFEST_FILE}`]);
  for (const { entry } of byFile.values()) {
    if (entry.encodings.includes('br')) artefacts.add(`/${entry.file}.br`);
    if (entry.encodings.includes('gzip')) artefacts.add(`/${entry.file}.gz`);
  }
  const notFoundPage = byPath.get('/404.html');

  return {
    serve(req, res, pathname, search = '') {
      const file = byPath.get(pathname);
      if (!file) {
        // `/reviews%2ejson`, `/%72eviews.json`: one canonical path, so one set of validators and headers.
        const canonical = decodedPath(pathname);
        // Artefacts under any spelling: Astro's static handler would decode `/static-manifest%2Ejson` and serve it.
        if (artefacts.has(pathname) || artefacts.has(canonical)) {
          sendNotFound(res, notFoundPage);
          return true;
        }
        if (canonical === pathname || !byPath.has(canonical)) return false;
        res.writeHead(301, { location: `${canonical}${search}`, 'cache-control': 'public, max-age=3600', 'content-length': '0' });
        res.end();
        return true;
      }
      const method = req.method ?? 'GET';
      if (method === 'OPTIONS') {
        sendAnswer(preflightAnswer(nodeHeaderReader(req), STATIC_METHODS), res);
        return true;
      }
      if (!STATIC_METHODS.includes(method)) {
        sendAnswer(methodNotAllowed([...STATIC_METHODS, 'OPTIONS']), res);
        return true;
      }
      const answer = answerStatic(file.entry, nodeHeaderReader(req));
      const body = file.bodies[answer.encoding] as Buffer;
      if (answer.status === 304) {
        res.writeHead(304, answer.headers);
        res.end();
        return true;
      }
      res.writeHead(200, { ...answer.headers, 'content-length': String(body.length) });
      res.end(method === 'HEAD' ? undefined : body);
      return true;
    },
    read(pathname) {
      const file = byPath.get(pathname);
      return file && { body: file.bodies.identity as Buffer, contentType: file.entry.contentType };
    },
  };
}

function decodedPath(pathname: string): string {
  if (!pathname.includes('%')) return pathname;
  try {
    return decodeURIComponent(pathname);
  } catch {
    return pathname;
  }
}

/** The site's 404 page (or a JSON 404 when the build has none), never cached. */
function sendNotFound(res: ServerResponse, page: LoadedFile | undefined): void {
  if (!page) {
    sendAnswer(notFound(), res);
    return;
  }
  const body = page.bodies.identity as Buffer;
  res.writeHead(404, { 'content-type': page.entry.contentType, 'cache-control': 'no-store', 'content-length': String(body.length) });
  res.end(body);
}

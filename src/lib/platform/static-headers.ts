/**
 * The headers a CDN must add to each static file so that it answers what the
 * Node server answers (src/lib/static/respond.ts): the same Content-Type with
 * its charset, Cache-Control, CORS, Last-Modified, the WebSub Link header and
 * the security headers (src/lib/http/security-headers.ts),
 * all from the build's manifest. Left to the host: ETag and 304s (each host
 * makes its own validators), Content-Encoding and Vary (each compresses on
 * its own), and `/_astro/*` (the adapters already mark it immutable).
 *
 * Rules never overlap, so it does not matter whether a host merges or
 * overrides headers of several matching rules: pages under a folder that holds
 * nothing else get one `/folder/*` rule (a build of 100k reviews would
 * otherwise list 300k paths); every other file gets its own exact rule.
 */
import { CORS_HEADERS } from '../http/cors.ts';
import { securityHeadersFor } from '../http/security-headers.ts';
import type { StaticEntry, StaticManifest } from '../static/manifest.ts';

export interface HeaderRule {
  /** An exact path, or `/folder/*` for everything below a folder. */
  path: string;
  headers: Record<string, string>;
}

const HTML = /^text\/html\b/;

/** What a CDN must add to the answer of the file at `path` (lower-case names). */
export function headersFor(entry: StaticEntry, path: string): Record<string, string> {
  const headers: Record<string, string> = { 'content-type': entry.contentType, 'cache-control': entry.cacheControl, ...CORS_HEADERS, ...securityHeadersFor(path) };
  if (entry.lastModified) headers['last-modified'] = entry.lastModified;
  if (entry.link) headers.link = entry.link;
  return headers;
}

/**
 * `dynamicPrefixes`: paths answered by functions (`/api/`, `/mcp`); no folder
 * rule may cover them, since a CDN rule would also reach those answers.
 */
export function staticHeaderRules(manifest: StaticManifest, dynamicPrefixes: readonly string[]): HeaderRule[] {
  const paths = Object.keys(manifest)
    .filter((path) => !path.startsWith('/_astro/'))
    .sort();
  const folders = new Map<string, string[]>();
  for (const path of paths) {
    const folder = topFolder(path);
    if (folder) folders.set(folder, [...(folders.get(folder) ?? []), path]);
  }
  const rules: HeaderRule[] = [];
  const covered = new Set<string>();
  for (const [folder, inside] of folders) {
    if (dynamicPrefixes.some((prefix) => prefix.startsWith(folder) || folder.startsWith(prefix))) continue;
    const sets = new Set(inside.map((path) => JSON.stringify(headersFor(manifest[path]!, path))));
    if (sets.size !== 1 || !inside.every((path) => HTML.test(manifest[path]!.contentType))) continue;
    rules.push({ path: `${folder}*`, headers: headersFor(manifest[inside[0]!]!, inside[0]!) });
    for (const path of inside) covered.add(path);
  }
  for (const path of paths) if (!covered.has(path)) rules.push({ path, headers: headersFor(manifest[path]!, path) });
  return rules.sort((a, b) => a.path.localeCompare(b.path));
}

/** `/reviews/a/` → `/reviews/`; a file at the root has none. */
function topFolder(path: string): string | undefined {
  const second = path.indexOf('/', 1);
  return second < 0 ? undefined : path.slice(0, second + 1);
}

/** Whether `path` falls under `rule` (what both hosts do with these two forms). */
export function ruleMatches(rule: HeaderRule, path: string): boolean {
  return rule.path.endsWith('*') ? path.startsWith(rule.path.slice(0, -1)) : path === rule.path;
}

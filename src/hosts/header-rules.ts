/**
 * The headers a CDN must add to each static file so that it answers what the
 * Node server answers (src/lib/http/representation.ts): the same Content-Type with
 * its charset, Cache-Control, CORS, Last-Modified, the WebSub Link header and
 * the security headers (src/lib/http/security-headers.ts),
 * all from the build's manifest. Left to the host: ETag and 304s (each host
 * makes its own validators), Content-Encoding and Vary (each compresses on
 * its own), and `/_astro/*` (the adapters already mark it immutable).
 *
 * Rules never overlap, so it does not matter whether a host merges or
 * overrides headers of several matching rules, and their number does not grow
 * with the reviews: the files of a prerendered route with parameters
 * (`/reviews/page/[page]`, thousands of list pages at 100k reviews) share one
 * `/reviews/page/:page` rule when their headers are the same, pages under a
 * folder that holds nothing else get one `/folder/*` rule, and every other
 * file gets its own exact rule. A pattern is used only where no route a
 * function answers can match, and only for HTML, since it also reaches the
 * CDN's 404 page for a path below it that has no file.
 *
 * The path syntax is Netlify's (`_headers`): `:name` is one path segment, a
 * trailing `*` anything below, a trailing slash optional, case ignored.
 * Vercel's routes get the same regular expression (ruleRegExp).
 */
import { CORS_HEADERS } from '../lib/http/cors.ts';
import { securityHeadersFor } from '../lib/http/security-headers.ts';
import type { StaticEntry, StaticManifest } from '../lib/static/manifest.ts';

export interface HeaderRule {
  /** An exact path, `/folder/*` for everything below a folder, or a path with `:name` segments. */
  path: string;
  headers: Record<string, string>;
}

const HTML = /^text\/html\b/;

/** What a CDN must add to the answer of the file at `path` (lower-case names). */
function headersFor(entry: StaticEntry, path: string): Record<string, string> {
  const headers: Record<string, string> = {
    'content-type': entry.contentType,
    'cache-control': entry.cacheControl,
    ...CORS_HEADERS,
    ...securityHeadersFor(path),
  };
  if (entry.lastModified) headers['last-modified'] = entry.lastModified;
  if (entry.link) headers.link = entry.link;
  return headers;
}

/**
 * `dynamicRoutes`: the patterns of the routes functions answer (`/reviews/[id]`,
 * `/api/[...path]`, `/mcp`); no pattern rule may reach them, since a CDN rule
 * would also add its headers to those answers. `prerenderedRoutes`: the
 * patterns of prerendered routes with parameters, whose files may share a rule.
 */
export function staticHeaderRules(
  manifest: StaticManifest,
  dynamicRoutes: readonly string[],
  prerenderedRoutes: readonly string[] = [],
): HeaderRule[] {
  const paths = Object.keys(manifest)
    .filter((path) => !path.startsWith('/_astro/'))
    .sort();
  const rules: HeaderRule[] = [];
  const covered = new Set<string>();
  const candidates = [...prerenderedRoutes.flatMap(patternRules), ...folderRules(paths)];
  for (const candidate of [...new Set(candidates)]) {
    if (dynamicRoutes.some((route) => mayOverlap(candidate, route))) continue;
    const test = ruleRegExp(candidate);
    const inside = paths.filter((path) => test.test(path));
    if (
      inside.length === 0 ||
      inside.some((path) => covered.has(path)) ||
      !inside.every((path) => HTML.test(manifest[path]!.contentType))
    )
      continue;
    const sets = new Set(inside.map((path) => JSON.stringify(headersFor(manifest[path]!, path))));
    if (sets.size !== 1) continue;
    rules.push({ path: candidate, headers: headersFor(manifest[inside[0]!]!, inside[0]!) });
    for (const path of inside) covered.add(path);
  }
  // `/page/` and `/page` are one rule: a host's rule matches with or without the trailing slash.
  const exact = new Map<string, string>();
  for (const path of paths) if (!covered.has(path)) exact.set(withoutTrailingSlash(path), path);
  for (const [rule, path] of exact) rules.push({ path: rule, headers: headersFor(manifest[path]!, path) });
  return rules.sort((a, b) => a.path.localeCompare(b.path));
}

/** `/reviews/page/[page]` → `/reviews/page/:page` and its `…/index.html`; none where a parameter is part of a segment. */
function patternRules(route: string): string[] {
  const segments = route.split('/').filter(Boolean);
  if (!segments.some((segment) => segment.includes('['))) return [];
  const parts: string[] = [];
  for (const segment of segments) {
    const whole = /^\[(\w+)\]$/.exec(segment);
    if (whole) parts.push(`:${whole[1]}`);
    else if (segment.includes('[')) return [];
    else parts.push(segment);
  }
  const path = `/${parts.join('/')}`;
  return [path, `${path}/index.html`];
}

/** `/reviews/a/` → `/reviews/*`, for each top-level folder. */
function folderRules(paths: readonly string[]): string[] {
  const folders = new Set<string>();
  for (const path of paths) {
    const second = path.indexOf('/', 1);
    if (second > 0 && second < path.length - 1) folders.add(`${path.slice(0, second + 1)}*`);
  }
  return [...folders];
}

function withoutTrailingSlash(path: string): string {
  return path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path;
}

/**
 * The expression a host matches a rule's path with, as Netlify builds it
 * (@netlify/headers-parser getForRegExp): each `:name` one segment, a `*`
 * segment anything (or nothing) below, an optional trailing slash, any case.
 */
export function ruleRegExp(path: string): RegExp {
  return new RegExp(`^${ruleSource(path)}$`, 'i');
}

/** The body of ruleRegExp, without anchors or flags. */
export function ruleSource(path: string): string {
  const parts = path
    .split('/')
    .filter(Boolean)
    .map((part) => {
      if (part.startsWith(':')) return '([^/]+)';
      if (part === '*') return '?(.*)';
      return escapeRegExp(part);
    });
  return `/${parts.join('/')}/?`;
}

/**
 * Whether some URL could match both a rule and a route's pattern (Astro's
 * syntax: `[id]` within a segment, `[...rest]` any number of them). Segment
 * by segment: a literal against the other side's expression; a parameter
 * against anything. Errs towards yes.
 */
function mayOverlap(rule: string, route: string): boolean {
  const ruleSegments = rule.split('/').filter(Boolean);
  const routeSegments = route.split('/').filter(Boolean);
  for (let i = 0; ; i++) {
    const a = ruleSegments[i];
    const b = routeSegments[i];
    if (a === '*' || (b !== undefined && b.includes('[...'))) return true;
    if (a === undefined || b === undefined) return a === b;
    if (a.startsWith(':')) continue;
    const source = b
      .split(/(\[\w+\])/)
      .map((piece) => (/^\[\w+\]$/.test(piece) ? '[^/]+' : escapeRegExp(piece)))
      .join('');
    if (!new RegExp(`^${source}$`, 'i').test(a)) return false;
  }
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

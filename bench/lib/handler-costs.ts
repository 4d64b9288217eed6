/**
 * In-process costs of the API handlers over a build's reviews.json, without
 * HTTP: what the LRU of serialised bodies hides under load.
 *
 * - uncached: the index query plus JSON serialisation and SHA-256 ETag, i.e.
 *   what the first request for a URL costs (median of repeated runs).
 * - query: the index query alone; for since also a linear filter over every
 *   review, the O(n) alternative, to show what O(log n + k) saves.
 * - cached: a whole answerApi call when the body is in the LRU (request
 *   parsing and validation, LRU lookup, headers), i.e. the steady state.
 * - parse: fromSearchParams alone (zod validation of the query).
 *
 * `node bench/lib/handler-costs.ts DIST_DIR '<paths JSON>'` prints HandlerCosts
 * as JSON. Run in a child so the dataset's memory stays out of the runner.
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { jsonBody } from '../../src/lib/api/cached-json.ts';
import type { ApiContext } from '../../src/lib/api/context.ts';
import { answerApi } from '../../src/lib/api/routes.ts';
import { getReviewIndex } from '../../src/lib/reviews/index.ts';
import { fromSearchParams } from '../../src/lib/reviews/query.ts';
import type { ReviewsDataset } from '../../src/lib/reviews/schema.ts';
import { searchReviews } from '../../src/lib/reviews/search.ts';
import { reviewsSince } from '../../src/lib/reviews/since.ts';

export interface PathCost {
  path: string;
  /** Microseconds: index query + JSON + ETag. */
  uncachedUs: number;
  /** Microseconds: the index query alone (searchReviews / reviewsSince), no JSON. */
  queryUs: number;
  /** Since only: microseconds of the O(n) alternative, a filter over every review (for scale). */
  linearScanUs: number | null;
  /** Microseconds per answerApi call with the body in the LRU. */
  cachedUs: number;
  /** Microseconds per fromSearchParams call (search only; null for since). */
  parseUs: number | null;
  /** Reviews in the body, and matches in all. */
  count: number;
  total: number;
  bodyBytes: number;
}

export interface HandlerCosts {
  reviews: number;
  parseDatasetMs: number;
  buildIndexMs: number;
  paths: PathCost[];
}

const SINCE_PREFIX = '/api/reviews/since/';

export function measureHandlerCosts(distDir: string, paths: string[]): HandlerCosts {
  const text = readFileSync(resolve(distDir, 'client/reviews.json'), 'utf8');
  let started = performance.now();
  const dataset = JSON.parse(text) as ReviewsDataset;
  const parseDatasetMs = performance.now() - started;
  started = performance.now();
  const index = getReviewIndex(dataset);
  const buildIndexMs = performance.now() - started;
  const context: ApiContext = { site: 'http://localhost:4321', dataset };
  const noHeaders = { get: () => null };

  const results = paths.map((path): PathCost => {
    const url = new URL(path, 'http://localhost:4321');
    const since = url.pathname.startsWith(SINCE_PREFIX) ? decodeURIComponent(url.pathname.slice(SINCE_PREFIX.length)) : null;
    let query: ReturnType<typeof fromSearchParams> | undefined;
    if (since === null) {
      query = fromSearchParams(url.searchParams);
      if (!query.ok) throw new Error(`${path}: ${JSON.stringify(query.issues)}`);
    }
    const uncached = () => {
      const result = since === null ? searchReviews(index, (query as { value: Parameters<typeof searchReviews>[1] }).value) : reviewsSince(index, since);
      const body = jsonBody(result, dataset.updated);
      return { body, count: result.count, total: 'total' in result ? result.total : result.count };
    };
    const query_ = () => (since === null ? searchReviews(index, (query as { value: Parameters<typeof searchReviews>[1] }).value) : reviewsSince(index, since));
    const once = uncached();
    const queryUs = perCall(query_, 200) * 1000;
    const linearScanUs = since === null ? null : perCall(() => dataset.reviews.filter((review) => review.date >= since), 200) * 1000;
    const uncachedUs = median(repeat(uncached, 300)) * 1000;
    answerApi({ method: 'GET', path: url.pathname, search: url.search, headers: noHeaders }, context); // fill the LRU
    const cachedUs = perCall(() => answerApi({ method: 'GET', path: url.pathname, search: url.search, headers: noHeaders }, context), 300) * 1000;
    const parseUs = since === null ? perCall(() => fromSearchParams(url.searchParams), 200) * 1000 : null;
    return { path, uncachedUs, queryUs, linearScanUs, cachedUs, parseUs, count: once.count, total: once.total, bodyBytes: once.body.body.byteLength };
  });
  return { reviews: dataset.reviews.length, parseDatasetMs, buildIndexMs, paths: results };
}

/** Timings in ms of `fn`, repeated for about `budgetMs` (at least 5 runs). */
function repeat(fn: () => unknown, budgetMs: number): number[] {
  const times: number[] = [];
  const end = performance.now() + budgetMs;
  while (times.length < 5 || (performance.now() < end && times.length < 10_000)) {
    const t = performance.now();
    fn();
    times.push(performance.now() - t);
  }
  return times;
}

/** Mean ms per call over batches for about `budgetMs`, for calls too short to time one by one. */
function perCall(fn: () => unknown, budgetMs: number): number {
  const warmEnd = performance.now() + budgetMs / 4;
  for (let i = 0; i < 1000 && performance.now() < warmEnd; i++) fn(); // warm-up
  let calls = 0;
  const start = performance.now();
  while (performance.now() - start < budgetMs || calls < 5) {
    fn();
    calls += 1;
  }
  return (performance.now() - start) / calls;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] as number;
}

export function measureHandlerCostsInChild(distDir: string, paths: string[]): Promise<HandlerCosts> {
  return new Promise((resolveCosts, reject) => {
    const child = spawn(process.execPath, [import.meta.filename, distDir, JSON.stringify(paths)], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (chunk) => (out += chunk));
    child.once('error', reject);
    child.once('exit', (code) => (code === 0 ? resolveCosts(JSON.parse(out) as HandlerCosts) : reject(new Error(`handler costs exited with ${code}`))));
  });
}

if (import.meta.main) {
  const [distDir, paths] = process.argv.slice(2) as [string, string];
  process.stdout.write(`${JSON.stringify(measureHandlerCosts(distDir, JSON.parse(paths) as string[]))}\n`);
}

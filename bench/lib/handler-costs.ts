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
 * - text: per kind of text query (bench/lib/text-queries.ts), each distinct
 *   query run once, percentiles: searchPositions alone, and the endpoint's
 *   whole uncached work (answerApi on a URL not answered before: the records'
 *   bytes spliced, as the server does); and the text index's build.
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
import { getReviewIndex } from '../../src/lib/reviews/review-index.ts';
import { fromSearchParams } from '../../src/lib/reviews/query.ts';
import type { ReviewsDataset } from '../../src/lib/reviews/schema.ts';
import { searchPositions, searchReviews } from '../../src/lib/reviews/search.ts';
import { reviewsSince } from '../../src/lib/reviews/since.ts';
import { TEXT_QUERY_KINDS, textQueries, type TextQueryKind } from './text-queries.ts';

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
  /** The text index's build, paid by the first text query of a process (null: the code has none). */
  textIndexMs: number | null;
  /** Per kind of text query (bench/lib/text-queries.ts), each query run once: nothing is cached. */
  text: TextCost[];
}

export interface TextCost {
  kind: TextQueryKind;
  queries: number;
  /** Microseconds of searchPositions alone (the index query, no JSON): median, 90th, 99th percentile, max. */
  query: { p50: number; p90: number; p99: number; max: number };
  /** Microseconds of answerApi for a URL not answered before (parse, query, body, ETag), i.e. an uncached request's handler work: median and 99th percentile. */
  uncached: { p50: number; p99: number };
  /** Median matches (total) of the kind's queries. */
  medianTotal: number;
}

const SINCE_PREFIX = '/api/reviews/since/';

export function measureHandlerCosts(distDir: string, paths: string[], textPerKind = 400): HandlerCosts {
  const text = readFileSync(resolve(distDir, 'client/reviews.json'), 'utf8');
  let started = performance.now();
  const dataset = JSON.parse(text) as ReviewsDataset;
  const parseDatasetMs = performance.now() - started;
  started = performance.now();
  const index = getReviewIndex(dataset);
  const buildIndexMs = performance.now() - started;
  // The texts are folded by the first text query (query=leak below): time it alone, first.
  const withText = index as { texts?: () => unknown };
  let textIndexMs: number | null = null;
  if (typeof withText.texts === 'function') {
    started = performance.now();
    withText.texts();
    textIndexMs = performance.now() - started;
  }
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
  return { reviews: dataset.reviews.length, parseDatasetMs, buildIndexMs, paths: results, textIndexMs, text: measureTextCosts(dataset, context, index, textPerKind) };
}

function measureTextCosts(dataset: ReviewsDataset, context: ApiContext, index: ReturnType<typeof getReviewIndex>, perKind: number): TextCost[] {
  const all = textQueries(dataset.reviews, perKind * TEXT_QUERY_KINDS.length);
  const noHeaders = { get: () => null };
  return TEXT_QUERY_KINDS.map((kind): TextCost => {
    const queries = all.filter((q) => q.kind === kind).map((q) => {
      const url = new URL(q.path, 'http://localhost');
      const parsed = fromSearchParams(url.searchParams);
      if (!parsed.ok) throw new Error(`${q.path}: ${JSON.stringify(parsed.issues)}`);
      return { query: parsed.value, request: { method: 'GET', path: url.pathname, search: url.search, headers: noHeaders } };
    });
    // Warm the code paths on the first few (their answers are then in the LRU: not timed), then time each query once.
    for (const { query } of queries.slice(0, 20)) searchPositions(index, query);
    const queryUs: number[] = [];
    const uncachedUs: number[] = [];
    const totals: number[] = [];
    for (const { query, request } of queries) {
      let started = performance.now();
      const hits = searchPositions(index, query);
      queryUs.push((performance.now() - started) * 1000);
      totals.push(hits.total);
      // The endpoint's whole work for a URL it has not answered before: parse, query, the records'
      // bytes spliced into the body, SHA-256 ETag, headers, into the LRU.
      started = performance.now();
      answerApi(request, context);
      uncachedUs.push((performance.now() - started) * 1000);
    }
    const q = sorted(queryUs);
    const u = sorted(uncachedUs);
    return {
      kind,
      queries: queries.length,
      query: { p50: pct(q, 50), p90: pct(q, 90), p99: pct(q, 99), max: q.at(-1) ?? NaN },
      uncached: { p50: pct(u, 50), p99: pct(u, 99) },
      medianTotal: pct(sorted(totals), 50),
    };
  });
}

function sorted(values: number[]): number[] {
  return [...values].sort((a, b) => a - b);
}

function pct(sortedValues: number[], p: number): number {
  return sortedValues[Math.min(sortedValues.length - 1, Math.floor((sortedValues.length * p) / 100))] ?? NaN;
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

export function measureHandlerCostsInChild(distDir: string, paths: string[], textPerKind = 400): Promise<HandlerCosts> {
  return new Promise((resolveCosts, reject) => {
    const child = spawn(process.execPath, [import.meta.filename, distDir, JSON.stringify(paths), String(textPerKind)], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (chunk) => (out += chunk));
    child.once('error', reject);
    child.once('exit', (code) => (code === 0 ? resolveCosts(JSON.parse(out) as HandlerCosts) : reject(new Error(`handler costs exited with ${code}`))));
  });
}

if (import.meta.main) {
  const [distDir, paths, textPerKind] = process.argv.slice(2) as [string, string, string | undefined];
  process.stdout.write(`${JSON.stringify(measureHandlerCosts(distDir, JSON.parse(paths) as string[], textPerKind ? Number(textPerKind) : undefined))}\n`);
}

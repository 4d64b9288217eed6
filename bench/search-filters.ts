/**
 * searchPositions in process (the index query behind GET /api/reviews/search,
 * no JSON), for the text queries of bench/lib/text-queries.ts alone and with
 * the other filters (rating, min_rating, a technician or service, dates), and
 * with --before the same queries over another checkout's src/lib/reviews in
 * the same process, each answer compared with this tree's: the run fails on
 * the first difference. CPU µs per query (process.cpuUsage), p50 / p90 / p99.
 *
 *   node bench/search-filters.ts /tmp/bench-builds/100000/dist/client/reviews.json [--before DIR] [--per-kind 200]
 *
 * Both text indexes are built before any query is timed.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { isDeepStrictEqual, parseArgs } from 'node:util';
import { seededRandom, TEXT_QUERY_KINDS, textQueries } from './lib/text-queries.ts';

const { values: args, positionals } = parseArgs({
  allowPositionals: true,
  options: { before: { type: 'string' }, 'per-kind': { type: 'string', default: '200' } },
});
const file = positionals[0];
if (!file) throw new Error('usage: node bench/search-filters.ts REVIEWS_JSON [--before DIR] [--per-kind N]');
const perKind = Number(args['per-kind']);

interface Dataset {
  reviews: Array<{ title?: string; text: string; date: string; services: string[] }>;
  business: { technicians: Array<{ id: string; name: string }> };
}
type Query = Record<string, string | number>;
type Search = (query: Query) => { total: number; positions: number[] };

const dataset = JSON.parse(readFileSync(file, 'utf8')) as Dataset;

// Deterministic filters to add to the text queries.
const random = seededRandom(11);
const pick = <T>(values: readonly T[]): T => values[Math.floor(random() * values.length)]!;
const services = [...new Set(dataset.reviews.slice(0, 1000).flatMap((review) => review.services))];
const technicians = dataset.business.technicians.map((t) => t.name);
const dates = dataset.reviews.map((review) => review.date);
const FILTERS: Record<string, () => Query> = {
  'text alone': () => ({}),
  '+ rating': () => ({ rating: 1 + Math.floor(random() * 5) }),
  '+ min_rating': () => ({ min_rating: pick([2, 3, 3.5, 4, 5]) }),
  '+ technician': () => ({ mentions_technician: pick(technicians) }),
  '+ service + min_rating': () => ({ mentions_service: pick(services), min_rating: 4 }),
  '+ since': () => ({ since: pick(dates) }),
};

const texts = textQueries(dataset.reviews, perKind * TEXT_QUERY_KINDS.length);
const cases = Object.entries(FILTERS).flatMap(([filter, make]) =>
  TEXT_QUERY_KINDS.map((kind) => ({
    label: `${kind} ${filter}`,
    queries: texts.filter((q) => q.kind === kind).map((q): Query => ({ query: q.query, limit: 1 + Math.floor(random() * 100), ...make() })),
  })),
);

async function searchOver(root: string): Promise<Search> {
  const lib = (path: string) => import(pathToFileURL(resolve(root, 'src/lib/reviews', path)).href);
  const { getReviewIndex } = (await lib('review-index.ts')) as { getReviewIndex: (d: unknown) => { texts(): unknown } };
  const { searchPositions } = (await lib('search.ts')) as { searchPositions: (index: unknown, query: Query) => { total: number; positions: number[] } };
  const index = getReviewIndex(structuredClone(dataset));
  index.texts();
  return (query) => searchPositions(index, query);
}

const trees: Array<[string, Search]> = [['this tree', await searchOver(resolve(import.meta.dirname, '..'))]];
if (args.before) trees.push([`before (${args.before})`, await searchOver(resolve(args.before))]);

const percentiles = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return [50, 90, 99].map((q) => sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * q) / 100))]!.toFixed(0)).join(' / ');
};
console.log(`| query | queries | ${trees.map(([label]) => `${label}: CPU µs p50 / p90 / p99`).join(' | ')} |`);
console.log(`| --- | ---: | ${trees.map(() => '---:').join(' | ')} |`);
for (const { label, queries } of cases) {
  for (const [, search] of trees) for (const query of queries.slice(0, 10)) search(query); // warm the code paths
  const times = trees.map(() => [] as number[]);
  for (const [q, query] of queries.entries()) {
    // Each tree goes first every other query: the second one finds the caches warmed by the first.
    const order = q % 2 === 0 ? trees.map((_, t) => t) : trees.map((_, t) => trees.length - 1 - t);
    const answers = order.map((t) => {
      const search = trees[t]![1];
      const cpu = process.cpuUsage();
      const answer = search(query);
      const used = process.cpuUsage(cpu);
      times[t]!.push(used.user + used.system);
      return answer;
    });
    if (answers.length > 1 && !isDeepStrictEqual(answers[0], answers[1])) throw new Error(`answers differ for ${JSON.stringify(query)}`);
  }
  console.log(`| ${label} | ${queries.length} | ${times.map(percentiles).join(' | ')} |`);
}
if (trees.length > 1) console.log('\nEvery answer (total and positions) was the same in both trees.');

/**
 * Search: every filter combines with AND. Dates narrow the newest-first order
 * to one contiguous range by binary search; `query` becomes the bitset of the
 * reviews containing it (text-index.ts, no text scanned). With a technician
 * or a service, the smaller of their posting lists drives the scan, the other
 * tests O(1) or O(log) per candidate. Otherwise the text and the ratings are
 * bitsets ANDed a word (32 positions) at a time and `total` is a population
 * count: the cost follows n / 32, never the number of matches (a 1-character
 * `query` matches nearly every review). The answer is positions: the
 * REST endpoint splices the records' bytes, MCP parses them (searchReviews).
 */
import { fold, type ReviewIndex } from './index.ts';
import { countBits, emptyBits, forEachBit, has, popcount, type Bits } from './postings.ts';
import type { SearchQuery } from './query.ts';
import type { SearchResponse } from './responses.ts';

/** A search's answer before its reviews are read: `total` matches, the newest-first positions of the first `limit`. */
export interface SearchHits {
  total: number;
  limit: number;
  positions: number[];
}

export function searchReviews(index: ReviewIndex, query: SearchQuery): SearchResponse {
  const hits = searchPositions(index, query);
  return { total: hits.total, count: hits.positions.length, limit: hits.limit, reviews: hits.positions.map((position) => index.records.review(position)) };
}

export function searchPositions(index: ReviewIndex, query: SearchQuery): SearchHits {
  const start = query.until === undefined ? 0 : index.firstOnOrBefore(query.until);
  const end = query.since === undefined ? index.length : index.endOnOrAfter(query.since);
  const positions: number[] = [];
  const hits = (total: number): SearchHits => ({ total, limit: query.limit, positions });
  // An empty date range: nothing to match, and no text index to build.
  if (start >= end) return hits(0);

  // Technician and service lists, when given, drive: the smallest one's positions in the range,
  // each tested against the rest in O(1) or O(log) (the text, the ratings, the other list).
  const lists: ArrayLike<number>[] = [];
  if (query.mentions_technician !== undefined) lists.push(index.technician(query.mentions_technician));
  if (query.mentions_service !== undefined) lists.push(index.service(query.mentions_service));
  const text: Bits | undefined = query.query === undefined ? undefined : index.text().match(fold(query.query));
  if (lists.length > 0) {
    lists.sort((a, b) => a.length - b.length);
    return hits(scanList(lists[0]!, lists[1], { start, end, text, ratings: index.records.ratings, query, positions }));
  }

  // Otherwise the text and the ratings are bitsets, ANDed 32 positions at a time over the range:
  // the cost follows n / 32, never the number of matches (`query=e&min_rating=2` counts ~98,000
  // matches at 100k in a few thousand word operations).
  if (text === undefined && query.rating === undefined && query.min_rating === undefined) {
    // No filter but dates: the range is the answer.
    for (let position = start; position < Math.min(end, start + query.limit); position++) positions.push(position);
    return hits(end - start);
  }
  if (query.rating === undefined && query.min_rating === undefined) {
    // The text alone: a population count of the range, and its first `limit` bits.
    forEachBit(text!, start, end, (position) => positions.push(position) < query.limit);
    return hits(countBits(text!, start, end));
  }
  const atLeast = ratingBits(index);
  const exactly = query.rating;
  // Ratings are whole stars: rating >= 3.5 is rating >= 4.
  const least = query.min_rating === undefined ? undefined : Math.ceil(query.min_rating);
  let total = 0;
  const last = (end - 1) >>> 5;
  for (let i = start >>> 5; i <= last; i++) {
    let word = text === undefined ? ~0 : text[i]!;
    if (word === 0) continue;
    if (exactly !== undefined) word &= atLeast[exactly]![i]! & ~atLeast[exactly + 1]![i]!;
    if (least !== undefined) word &= atLeast[least]![i]!;
    if (i === start >>> 5) word &= ~0 << (start & 31);
    if (i === last && (end & 31) !== 0) word &= ~0 >>> (32 - (end & 31));
    if (word === 0) continue;
    total += popcount(word);
    while (word !== 0 && positions.length < query.limit) {
      const low = word & -word;
      positions.push((i << 5) + (31 - Math.clz32(low)));
      word ^= low;
    }
  }
  return hits(total);
}

/** The matches among `driver`'s positions in [start, end): their number, the first `limit` pushed to `positions`. */
function scanList(
  driver: ArrayLike<number>,
  other: ArrayLike<number> | undefined,
  { start, end, text, ratings, query, positions }: { start: number; end: number; text: Bits | undefined; ratings: Uint8Array; query: SearchQuery; positions: number[] },
): number {
  let total = 0;
  for (let i = lowerBoundIn(driver, start); i < driver.length && (driver[i] as number) < end; i++) {
    const position = driver[i] as number;
    if (query.rating !== undefined && ratings[position] !== query.rating) continue;
    if (query.min_rating !== undefined && ratings[position]! < query.min_rating) continue;
    if (text !== undefined && !has(text, position)) continue;
    if (other !== undefined && !includesSorted(other, position)) continue;
    total += 1;
    if (positions.length < query.limit) positions.push(position);
  }
  return total;
}

/**
 * Per review index, the positions rated at least r stars as a bitset, for r
 * from 1 to 6 (6: none, for rating = 5): 6 × n / 8 bytes, 75 KB at 100k reviews. Made on
 * the first search that filters by rating.
 */
const ratingBitsOf = new WeakMap<ReviewIndex, Bits[]>();

function ratingBits(index: ReviewIndex): Bits[] {
  let atLeast = ratingBitsOf.get(index);
  if (!atLeast) {
    const n = index.length;
    const ratings = index.records.ratings;
    atLeast = Array.from({ length: 7 }, (_, stars) => (stars === 0 ? new Uint32Array(0) : emptyBits(n)));
    for (let position = 0; position < n; position++) {
      for (let stars = Math.min(6, ratings[position]!); stars >= 1; stars--) atLeast[stars]![position >>> 5]! |= 1 << (position & 31);
    }
    ratingBitsOf.set(index, atLeast);
  }
  return atLeast;
}

function includesSorted(sorted: ArrayLike<number>, value: number): boolean {
  const at = lowerBoundIn(sorted, value);
  return at < sorted.length && sorted[at] === value;
}

function lowerBoundIn(sorted: ArrayLike<number>, value: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((sorted[mid] as number) < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * The review index, built once per dataset (once per process) over its compact
 * records (records.ts): the oldest-first order for the since feed, binary
 * search on the date column, posting lists by technician, service and rating,
 * an id table, and the texts folded for `query` (made once, when first
 * needed: search scans them). Positions refer to the newest-first order of
 * reviews.json; nothing here holds a review object.
 */
import { dayNumber, dayString, recordsFromDataset, type ReviewRecords } from './records.ts';
import { reviewById } from './published-dataset.ts';
import type { Review, ReviewsDataset } from './schema.ts';

/** What the index can be made from: a dataset object (Astro routes, tests) or records already compact (the Node server). */
export type DatasetSource = ReviewsDataset | ReviewRecords;

export interface ReviewIndex {
  readonly records: ReviewRecords;
  /** How many reviews. */
  readonly length: number;
  /** Oldest first (date asc, id asc): the newest-first position of each review in the order of the since feed. */
  readonly oldest: Int32Array;
  /**
   * Folded `title + text` per newest-first position (see fold), made on the
   * first call and kept: what a `query` is looked for in.
   */
  texts(): readonly string[];
  /** The newest-first position of the review with this id. */
  byId(id: string): number | undefined;
  /** Positions (ascending) of the reviews naming a technician, by lower-cased full name or id. */
  technician(nameOrId: string): ArrayLike<number>;
  service(id: string): ArrayLike<number>;
  /** YYYY-MM-DD of the review at a newest-first position. */
  dateAt(position: number): string;
  /** First newest-first position whose date is <= `date` (the start of an `until` range). */
  firstOnOrBefore(date: string): number;
  /** One past the last newest-first position whose date is >= `date` (the end of a `since` range). */
  endOnOrAfter(date: string): number;
  /** First oldest-first position whose date is >= `date`. */
  oldestFrom(date: string): number;
  /** First oldest-first position whose date is > `date` (the end of that day). */
  oldestAfter(date: string): number;
  /** The newest `updated` among oldest-first positions >= `position`, or null past the end. */
  newestUpdatedFrom(position: number): string | null;
}

/** NFKC, then lower case: what `query` matching compares. */
export function fold(text: string): string {
  return text.normalize('NFKC').toLowerCase();
}

const recordsCache = new WeakMap<ReviewsDataset, ReviewRecords>();
/**
 * The index is kept on its records under a global symbol, not in a module's map: the Node entry and
 * Astro's bundle (the review pages) are separate module instances in one process, and must share
 * one index over the one set of records.
 */
const INDEX = Symbol.for('roofing-reviews.review-index');

/** The compact records of a source: a dataset object is serialised once (per object) and read from those bytes. */
export function recordsOf(source: DatasetSource): ReviewRecords {
  if (!('reviews' in source)) return source;
  let records = recordsCache.get(source);
  if (!records) recordsCache.set(source, (records = recordsFromDataset(source)));
  return records;
}

/** One review by id: from a dataset object's id map, or parsed from the records (no index of objects is made for it). */
export function findReview(source: DatasetSource, id: string): Review | undefined {
  if ('reviews' in source) return reviewById(source, id);
  const position = getReviewIndex(source).byId(id);
  return position === undefined ? undefined : source.review(position);
}

export function getReviewIndex(source: DatasetSource): ReviewIndex {
  const records = recordsOf(source) as ReviewRecords & { [INDEX]?: ReviewIndex };
  // A dataset object's reviews are already objects, in the records' order: folded from them, no record is parsed.
  return (records[INDEX] ??= buildIndex(records, 'reviews' in source ? source.reviews : undefined));
}

function buildIndex(records: ReviewRecords, reviews?: readonly Review[]): ReviewIndex {
  const n = records.length;
  const { dates, updates } = records;
  const ids = records.takeIds();
  const oldest = new Int32Array(n);
  for (let i = 0; i < n; i++) oldest[i] = i;
  oldest.sort((a, b) => dates[a]! - dates[b]! || (ids[a]! < ids[b]! ? -1 : ids[a]! > ids[b]! ? 1 : 0));
  const byId = idTable(ids, (position) => records.review(position).id);

  const technicianKeys = new Map<string, string>();
  for (const t of records.business.technicians) {
    technicianKeys.set(t.name.toLowerCase(), t.name);
    technicianKeys.set(t.id.toLowerCase(), t.name);
  }
  const none = new Int32Array(0);
  // newestUpdatedFrom in O(1): the position holding the running maximum of `updated` from the end of the oldest-first order.
  const newestFrom = new Int32Array(n);
  for (let i = n - 1, newest = -1; i >= 0; i--) {
    const position = oldest[i]!;
    if (newest < 0 || updates[position]! > updates[newest]!) newest = position;
    newestFrom[i] = newest;
  }

  let folded: string[] | undefined;
  /** The first position where `reached(dates[at(i)], day)` holds, `day` the date's number. */
  const bound = (date: string, length: number, reached: (i: number, day: number) => boolean) => {
    const day = dayNumber(date);
    return lowerBound(length, (i) => reached(i, day));
  };

  return {
    records,
    length: n,
    oldest,
    texts: () => (folded ??= reviews ? reviews.map(foldedText) : foldedTexts(records)),
    byId,
    technician(nameOrId) {
      const name = technicianKeys.get(nameOrId.trim().toLowerCase());
      return (name && records.technicians.get(name)) || none;
    },
    service: (id) => records.services.get(id) ?? none,
    dateAt: (position) => dayString(dates[position]!),
    firstOnOrBefore: (date) => bound(date, n, (i, day) => dates[i]! <= day),
    endOnOrAfter: (date) => bound(date, n, (i, day) => dates[i]! < day),
    oldestFrom: (date) => bound(date, n, (i, day) => dates[oldest[i]!]! >= day),
    oldestAfter: (date) => bound(date, n, (i, day) => dates[oldest[i]!]! > day),
    newestUpdatedFrom: (position) => (position < n ? updates[newestFrom[position]!]! : null),
  };
}

/** Folded `title + text` per newest-first position: each record parsed once, only the folded text kept. */
function foldedTexts(records: ReviewRecords): string[] {
  const folded: string[] = new Array(records.length);
  records.forEach((review, position) => {
    folded[position] = foldedText(review);
  });
  return folded;
}

function foldedText(review: Review): string {
  return fold(review.title ? `${review.title}\n${review.text}` : review.text);
}

/**
 * Ids to positions without keeping the ids: an open-addressing table of
 * positions by a 32-bit hash of the id (8 bytes a slot, two slots a review),
 * each hit confirmed by the record's own id. A Map of 100k id strings held
 * about 9 MB; this holds 2 MB at 100k.
 */
function idTable(ids: readonly string[], idAt: (position: number) => string): (id: string) => number | undefined {
  let size = 16;
  while (size < ids.length * 2) size *= 2;
  const mask = size - 1;
  const positions = new Int32Array(size).fill(-1);
  const hashes = new Int32Array(size);
  ids.forEach((id, position) => {
    const hash = hashOf(id);
    let slot = hash & mask;
    while (positions[slot] !== -1) slot = (slot + 1) & mask;
    positions[slot] = position;
    hashes[slot] = hash;
  });
  return (id) => {
    const hash = hashOf(id);
    for (let slot = hash & mask; positions[slot] !== -1; slot = (slot + 1) & mask) {
      if (hashes[slot] === hash && idAt(positions[slot]!) === id) return positions[slot]!;
    }
    return undefined;
  };
}

/** FNV-1a over UTF-16 code units. */
function hashOf(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  return hash | 0;
}

/** The first i in [0, n) where `reached(i)` holds, for a predicate that stays true once true. */
function lowerBound(n: number, reached: (i: number) => boolean): number {
  let lo = 0;
  let hi = n;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (reached(mid)) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

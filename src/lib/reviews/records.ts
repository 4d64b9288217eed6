/**
 * The reviews of a dataset held compactly (the server's memory floor at
 * 100k reviews). A review is kept as where its record lies in the dataset's
 * JSON (reviews.json): those bytes are exactly `JSON.stringify(review)`, what
 * every answer splices in, so an answer needs no object and no serialisation.
 * The fields the index filters and sorts on are read once, at load, into
 * typed-array columns and posting lists; a record is parsed only when an
 * object is asked for (MCP results, the folding of the texts search scans).
 *
 * Where the bytes live is a RecordSource: the dataset's bytes in memory (the
 * Astro routes, tests), or reviews.json on disk, read by offset (the Node
 * server, src/node/dataset-file.ts: it already serves the build's large files
 * from disk, and the records are 56 MB at 100k reviews).
 *
 * Positions are newest-first: the order of reviews.json.
 */
import { textBytes } from '../http/answer.ts';
import type { AggregateRating, Business, Review, ReviewsDataset } from './schema.ts';

/** The bytes of a dataset's JSON, by byte offset. */
export interface RecordSource {
  /** Bytes [start, end); may be a view into memory the source keeps, never to be written to. */
  read(start: number, end: number): Uint8Array;
  /**
   * Bytes [start, end) copied into `target` from `at`, without a buffer of their own: a
   * source on disk (the Node server) reads straight there. Without it, `read` and a copy.
   */
  readInto?(start: number, end: number, target: Uint8Array, at: number): void;
  readonly size: number;
}

export interface ReviewRecords {
  readonly business: Business;
  readonly aggregate_rating: AggregateRating;
  readonly updated: string;
  /** How many reviews. */
  readonly length: number;
  /** The record at a position as bytes: `JSON.stringify(review)`. */
  json(position: number): Uint8Array;
  /** The bytes of the records at these positions joined by commas (what a JSON array of them holds between its brackets). */
  joinedLength(positions: ArrayLike<number>): number;
  /**
   * Writes the records at these positions, joined by commas, into `target` from `at`: each
   * run of positions next to each other in the file read at once, straight into `target`, or,
   * when they lie close together (a since page: whole days), one span through a buffer the
   * records keep. An answer made of records costs its own bytes and no others.
   */
  copyJoined(positions: ArrayLike<number>, target: Uint8Array, at: number): void;
  /** The review object at a position (parsed from its bytes). */
  review(position: number): Review;
  /** Every review, newest first, parsed a span at a time: `visit` gets each in turn. */
  forEach(visit: (review: Review, position: number) => void): void;
  /** The whole dataset's JSON text (without the final newline), as reviews.json holds it. */
  datasetJson(): string;
  /** Each review's date as YYYYMMDD (dayNumber), by position. */
  readonly dates: Int32Array;
  /** Each review's stars, by position. */
  readonly ratings: Uint8Array;
  /** Each review's `updated` instant, by position (Last-Modified of the answers that hold it). */
  readonly updates: readonly string[];
  /**
   * Review ids in newest-first order (the oldest-first sort's tie-break, the id table), handed over
   * and dropped by the records: a later call reads them again from the records.
   */
  takeIds(): readonly string[];
  /** Positions (ascending) of the reviews naming each technician, by name as listed; each position once. */
  readonly technicians: ReadonlyMap<string, Int32Array>;
  /** Positions (ascending) of the reviews of each service id; each position once. */
  readonly services: ReadonlyMap<string, Int32Array>;
}

/** YYYY-MM-DD as the integer YYYYMMDD: the same order as the strings, 4 bytes a review. */
export function dayNumber(date: string): number {
  return Number(date.slice(0, 4)) * 10000 + Number(date.slice(5, 7)) * 100 + Number(date.slice(8, 10));
}

export function dayString(day: number): string {
  const year = Math.floor(day / 10000);
  const month = Math.floor(day / 100) % 100;
  return `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(day % 100).padStart(2, '0')}`;
}

/** The records of a dataset's JSON bytes held in memory. */
export function recordsFromBytes(bytes: Uint8Array): ReviewRecords {
  return recordsFromSource({ read: (start, end) => bytes.subarray(start, end), size: bytes.byteLength });
}

/** The records of a dataset object: its JSON serialised once (the Astro routes, tests). */
export function recordsFromDataset(dataset: ReviewsDataset): ReviewRecords {
  return recordsFromBytes(textBytes(JSON.stringify(dataset)));
}

const QUOTE = 0x22;
const COMMA = 0x2c;
const BACKSLASH = 0x5c;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const REVIEWS_KEY = textBytes('"reviews"');
const decoder = new TextDecoder();

/** Reads spans of at most this many bytes when every record is visited (folding, the full dataset). */
const SPAN_BYTES = 4 * 1024 * 1024;
/** Records apart by at most this much besides themselves are read together. */
const SPAN_SLACK_BYTES = 64 * 1024;

/**
 * Spans of a source, one at a time, each valid until the next: from a source in memory, views
 * of it; from a file, read into one buffer that grows to the largest span and is reused. A
 * new buffer per span (4 MiB each while loading, a since page's span per answer) was freed
 * native memory the process kept (docs/performance.md).
 */
function spanReader(source: RecordSource): (start: number, end: number) => Uint8Array {
  let buffer: Uint8Array | undefined;
  return (start, end) => {
    if (!source.readInto) return source.read(start, end);
    if (!buffer || buffer.length < end - start)
      buffer = new Uint8Array(Math.max(end - start, (buffer?.length ?? 0) * 2, 64 * 1024));
    source.readInto(start, end, buffer, 0);
    return buffer.subarray(0, end - start);
  };
}

function readInto(source: RecordSource, start: number, end: number, target: Uint8Array, at: number): void {
  if (source.readInto) source.readInto(start, end, target, at);
  else target.set(source.read(start, end), at);
}

/** The columns filled while loading, one entry per record in file order, and where each record starts. */
interface LoadingColumns {
  starts: number[];
  dateList: number[];
  ratingList: number[];
  updates: string[];
  ids: string[];
  technicians: Map<string, number[]>;
  services: Map<string, number[]>;
}

function loadingColumns(): LoadingColumns {
  return {
    starts: [],
    dateList: [],
    ratingList: [],
    updates: [],
    ids: [],
    technicians: new Map(),
    services: new Map(),
  };
}

/** Notes one record, parsed from the file at `start`, in the columns. */
function addRecord(columns: LoadingColumns, review: Review, start: number): void {
  const push = (map: Map<string, number[]>, key: string, position: number) => {
    const list = map.get(key);
    if (list) list.push(position);
    else map.set(key, [position]);
  };
  const p = columns.starts.length;
  columns.starts.push(start);
  columns.dateList.push(dayNumber(review.date));
  columns.ratingList.push(review.rating);
  columns.updates.push(review.updated);
  columns.ids.push(review.id);
  // A name listed twice in one review is one posting.
  for (const name of new Set(review.technicians)) push(columns.technicians, name, p);
  for (const service of new Set(review.services)) push(columns.services, service, p);
}

/** The head (business, aggregate rating) comes before the reviews: read until the array opens. */
function readHead(
  source: RecordSource,
  loading: (start: number, end: number) => Uint8Array,
): { reviewsFrom: number; headText: string } {
  let head = loading(0, Math.min(source.size, SPAN_BYTES));
  let reviewsFrom = reviewsArrayAt(head);
  while (reviewsFrom < 0 && head.length < source.size) {
    head = loading(0, Math.min(source.size, head.length * 2));
    reviewsFrom = reviewsArrayAt(head);
  }
  if (reviewsFrom < 0) throw new Error('the dataset has no reviews array');
  return { reviewsFrom, headText: decoder.decode(head.subarray(0, reviewsFrom)) };
}

/**
 * Every record of the reviews array that opens at `reviewsFrom`, each parsed alone into the
 * columns; returns where the array closes and where its last record ends.
 */
function scanRecords(
  source: RecordSource,
  loading: (start: number, end: number) => Uint8Array,
  reviewsFrom: number,
  columns: LoadingColumns,
): { reviewsTo: number; lastEnd: number } {
  let reviewsTo = -1;
  let lastEnd = reviewsFrom + 1;
  let spanBytes = SPAN_BYTES;
  // A span is used up to its last whole record; the next span starts there.
  for (let at = reviewsFrom + 1; reviewsTo < 0;) {
    if (at >= source.size) throw new Error('the dataset ends inside its reviews array');
    const span = loading(at, Math.min(source.size, at + spanBytes));
    let used = 0;
    for (let i = 0; i < span.length; i++) {
      const byte = span[i]!;
      if (byte === OPEN_OBJECT) {
        const end = valueEnd(span, i);
        if (end < 0) break;
        // Offsets hold starts only: a record ends one byte (a comma) before the next begins.
        if (columns.starts.length > 0 && at + i !== lastEnd + 1)
          throw new Error('the reviews must be compact JSON, one comma between records');
        addRecord(columns, JSON.parse(decoder.decode(span.subarray(i, end))) as Review, at + i);
        lastEnd = at + end;
        i = end - 1;
        used = end;
      } else if (byte === CLOSE_ARRAY) {
        reviewsTo = at + i + 1;
        break;
      } else used = i + 1; // a comma or white space between records
    }
    // One record larger than a span: a larger span.
    if (used === 0 && reviewsTo < 0) spanBytes *= 2;
    at += used;
  }
  return { reviewsTo, lastEnd };
}

/**
 * The records of `source`: finds each record of the top-level `reviews` array,
 * a span of the JSON at a time (never the whole file at once), and fills the
 * columns from each record parsed alone.
 */
export function recordsFromSource(source: RecordSource): ReviewRecords {
  // One buffer for every span read while loading, dropped once loaded.
  const loading = spanReader(source);
  const { reviewsFrom, headText } = readHead(source, loading);
  const columns = loadingColumns();
  const { reviewsTo, lastEnd } = scanRecords(source, loading, reviewsFrom, columns);
  const tail = decoder.decode(source.read(reviewsTo, source.size));
  // Everything but the records, parsed: business, aggregate_rating, updated.
  const dataset = JSON.parse(`${headText}[]${tail}`) as Omit<ReviewsDataset, 'reviews'>;
  return recordsOver(source, columns, lastEnd, dataset);
}

/** The records found in `source`, served from it: columns in memory, each record's JSON read when asked for. */
function recordsOver(
  source: RecordSource,
  { starts, dateList, ratingList, updates, ids: loadedIds, technicians, services }: LoadingColumns,
  lastEnd: number,
  dataset: Omit<ReviewsDataset, 'reviews'>,
): ReviewRecords {
  let ids: string[] | undefined = loadedIds;
  const n = starts.length;
  const offsets = Float64Array.from([...starts, lastEnd + 1]);
  const dates = Int32Array.from(dateList);
  const ratings = Uint8Array.from(ratingList);
  const endOf = (p: number) => offsets[p + 1]! - 1;
  const frozen = (map: Map<string, number[]>) => new Map([...map].map(([key, list]) => [key, Int32Array.from(list)]));
  // The spans of answers (copyJoined), read into one buffer kept with the records.
  const answerSpan = spanReader(source);

  const records: ReviewRecords = {
    business: dataset.business,
    aggregate_rating: dataset.aggregate_rating,
    updated: dataset.updated,
    length: n,
    dates,
    ratings,
    updates,
    technicians: frozen(technicians),
    services: frozen(services),
    takeIds() {
      let taken = ids;
      if (!taken) {
        const again: string[] = new Array(n);
        records.forEach((review, p) => (again[p] = review.id));
        taken = again;
      }
      ids = undefined;
      return taken;
    },
    json: (p) => source.read(offsets[p]!, endOf(p)),
    joinedLength(positions) {
      let total = Math.max(0, positions.length - 1);
      for (let i = 0; i < positions.length; i++) total += endOf(positions[i]!) - offsets[positions[i]!]!;
      return total;
    },
    copyJoined: (positions, target, at) => copyJoined(source, offsets, answerSpan, positions, target, at),
    review: (p) => JSON.parse(decoder.decode(source.read(offsets[p]!, endOf(p)))) as Review,
    forEach(visit) {
      const spans = spanReader(source);
      for (let from = 0; from < n;) {
        let to = from + 1;
        while (to < n && offsets[to + 1]! - offsets[from]! <= SPAN_BYTES) to++;
        const span = spans(offsets[from]!, endOf(to - 1));
        const base = offsets[from]!;
        for (let p = from; p < to; p++)
          visit(JSON.parse(decoder.decode(span.subarray(offsets[p]! - base, endOf(p) - base))) as Review, p);
        from = to;
      }
    },
    datasetJson() {
      const all = source.read(0, source.size);
      // reviews.json ends with a newline (toJsonBody); the document is what precedes it.
      return decoder.decode(all[all.length - 1] === 0x0a ? all.subarray(0, all.length - 1) : all);
    },
  };
  return records;
}

/**
 * The JSON of the records at `positions`, joined by commas, copied into `target` from `at`: read from
 * `source` in as few reads as their places in the file allow.
 */
function copyJoined(
  source: RecordSource,
  offsets: Float64Array,
  answerSpan: (start: number, end: number) => Uint8Array,
  positions: ArrayLike<number>,
  target: Uint8Array,
  at: number,
): void {
  const endOf = (p: number) => offsets[p + 1]! - 1;
  let low = Infinity;
  let high = -1;
  let total = 0;
  for (let i = 0; i < positions.length; i++) {
    const p = positions[i]!;
    if (p < low) low = p;
    if (p > high) high = p;
    total += endOf(p) - offsets[p]!;
  }
  if (high < 0) return;
  const spanBytes = offsets[high + 1]! - offsets[low]!;
  // Positions close together (a since page: whole days, newest-first within the span): one read, then in order.
  if (spanBytes <= 2 * total + SPAN_SLACK_BYTES && spanBytes <= SPAN_BYTES) {
    const span = answerSpan(offsets[low]!, endOf(high));
    const base = offsets[low]!;
    for (let i = 0; i < positions.length; i++) {
      if (i > 0) target[at++] = COMMA;
      const p = positions[i]!;
      target.set(span.subarray(offsets[p]! - base, endOf(p) - base), at);
      at += endOf(p) - offsets[p]!;
    }
    return;
  }
  for (let i = 0; i < positions.length;) {
    // A run of consecutive ascending positions is consecutive in the file, one comma apart: one read.
    let j = i + 1;
    while (j < positions.length && positions[j]! === positions[j - 1]! + 1) j++;
    if (i > 0) target[at++] = COMMA;
    const first = positions[i]!;
    readInto(source, offsets[first]!, endOf(positions[j - 1]!), target, at);
    // What lies between two records of the run (a comma, as loading checked its length).
    for (let k = i; k < j - 1; k++) target[at + endOf(positions[k]!) - offsets[first]!] = COMMA;
    at += endOf(positions[j - 1]!) - offsets[first]!;
    i = j;
  }
}

/** Where the top-level `reviews` array opens in the JSON's first bytes, or -1 if not within them. */
function reviewsArrayAt(bytes: Uint8Array): number {
  let depth = 0;
  let keyStart = -1;
  for (let i = 0; i < bytes.length; i++) {
    const byte = bytes[i]!;
    if (byte === QUOTE) {
      const end = stringEnd(bytes, i);
      if (end < 0) return -1;
      if (depth === 1) keyStart = i;
      i = end - 1;
    } else if (byte === OPEN_OBJECT || byte === OPEN_ARRAY) {
      depth++;
      if (depth === 2 && byte === OPEN_ARRAY && keyStart >= 0 && equalAt(bytes, keyStart, REVIEWS_KEY)) return i;
    } else if (byte === CLOSE_OBJECT || byte === CLOSE_ARRAY) depth--;
  }
  return -1;
}

/** One past the closing quote of the string opening at `from`, or -1 if `bytes` ends first. */
function stringEnd(bytes: Uint8Array, from: number): number {
  for (let i = from + 1; i < bytes.length; i++) {
    if (bytes[i] === BACKSLASH) i++;
    else if (bytes[i] === QUOTE) return i + 1;
  }
  return -1;
}

/** One past the end of the object or array opening at `from`, or -1 if `bytes` ends first. */
function valueEnd(bytes: Uint8Array, from: number): number {
  let depth = 0;
  for (let i = from; i < bytes.length; i++) {
    const byte = bytes[i]!;
    if (byte === QUOTE) {
      const end = stringEnd(bytes, i);
      if (end < 0) return -1;
      i = end - 1;
    } else if (byte === OPEN_OBJECT || byte === OPEN_ARRAY) depth++;
    else if (byte === CLOSE_OBJECT || byte === CLOSE_ARRAY) {
      depth--;
      if (depth === 0) return i + 1;
    }
  }
  return -1;
}

function equalAt(bytes: Uint8Array, at: number, expected: Uint8Array): boolean {
  for (let i = 0; i < expected.length; i++) if (bytes[at + i] !== expected[i]) return false;
  return true;
}

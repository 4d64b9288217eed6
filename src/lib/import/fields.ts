/** Reading one record's fields, each problem named by the export's own field. */
import { describe, ValueError } from './values.ts';
import type { FormatId, ImportedReview, ImportProblem, ParsedExport } from './types.ts';

export class RecordReader {
  readonly problems: ImportProblem[] = [];
  private readonly file: string;
  readonly at: string;

  constructor(file: string, at: string) {
    this.file = file;
    this.at = at;
  }

  /** `convert(value)`, or undefined with the problem noted when it throws a ValueError. */
  read<T>(field: string, value: unknown, convert: (value: unknown) => T): T | undefined {
    try {
      return convert(value);
    } catch (error) {
      if (!(error instanceof ValueError)) throw error;
      this.problem(field, error.message);
      return undefined;
    }
  }

  problem(field: string, message: string): void {
    this.problems.push({ file: this.file, at: this.at, field, message });
  }
}

/** An optional string field: absent, null and blank are undefined; anything but a string is an error. */
export function optionalString(value: unknown): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') throw new ValueError(`expected text, got ${describe(value)}`);
  return value.trim() === '' ? undefined : value.trim();
}

/**
 * A reviewer's name as the site shows it: HTML tags some platforms leave in a display name
 * (`Jo <i>Smith</i>`) removed, spaces collapsed; blank is no name. A name is a label, never
 * markup, so its tags are not the customer's words.
 */
export function personName(value: unknown): string | undefined {
  const name = optionalString(value);
  if (name === undefined) return undefined;
  return optionalString(name.replace(/<\/?[a-z][^<>]*>/gi, ' ').replace(/\s+/g, ' '));
}

/** A string field every record has: `missing` is the message when it is absent or blank. */
export const requiredString =
  (missing: string) =>
  (value: unknown): string => {
    const text = optionalString(value);
    if (!text) throw new ValueError(missing);
    return text;
  };

/** The first review object of a JSON export (the list alone, or `{ reviews }`), to tell its format. */
export function firstRecord(json: unknown): Record<string, unknown> | undefined {
  const reviews = isObject(json) ? json.reviews : json;
  return Array.isArray(reviews) ? reviews.find(isObject) : undefined;
}

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export const NO_TEXT = 'a star rating without text: there is nothing to publish';

/**
 * The records of a JSON export's review list, each read by `read`: a record, a reason to skip
 * it, or undefined when it has a problem (noted on the reader).
 */
export function parseRecords(
  file: string,
  format: FormatId,
  fields: ParsedExport['fields'],
  list: unknown,
  read: (reader: RecordReader, item: Record<string, unknown>) => ImportedReview | string | undefined,
): ParsedExport {
  const out: ParsedExport = { format, records: [], fields, problems: [], skipped: [] };
  if (!Array.isArray(list)) {
    out.problems.push({ file, at: '(file)', field: 'reviews', message: 'expected a list of reviews' });
    return out;
  }
  list.forEach((item, index) => {
    const reader = new RecordReader(file, `record ${index + 1}`);
    const record = isObject(item) ? read(reader, item) : reader.problem('(record)', 'expected a review object');
    out.problems.push(...reader.problems);
    if (typeof record === 'string') out.skipped.push({ file, at: reader.at, reason: record });
    else if (record) out.records.push(record);
  });
  return out;
}

/**
 * What every export format is read into: one platform review, in the terms of
 * a review file, plus where it was in the export (for messages) and which
 * export field each value came from (so a problem names the export's field).
 */
import type { ReviewFrontmatter } from '../content/editor-schema.ts';
import type { ContentProblem } from '../content/problems.ts';

export type FormatId = 'google' | 'trustpilot-json' | 'trustpilot-csv' | 'csv';

/** `date` is YYYY-MM-DD (UTC); `updated` is undefined when the export gives no time of change. */
export type ImportedReview = Pick<
  ReviewFrontmatter,
  'source' | 'source_url' | 'date' | 'updated' | 'rating' | 'title'
> & {
  /** The platform's id; made from author, date and text when the export has none (see values.ts). */
  source_id: string;
  text: string;
  author: string;
  /** The business's reply; null when the export says there is none, undefined when it cannot say (no reply column). */
  response: ReviewFrontmatter['response'];
  /** Where in the export: "record 3", "row 5". */
  at: string;
};

/**
 * A problem with one export, named as the office can find it: the file, the record or row, the
 * export's field; `known` when an earlier run reported the same problem of the same record.
 */
export type ImportProblem = ContentProblem & { at: string; known?: boolean };

/** A record left out on purpose, with the reason (not an error: nothing is wrong with the export). */
export interface Skipped {
  file: string;
  at: string;
  reason: string;
  /** A record left out for its problems (`--skip-invalid`, or problems an earlier run reported): new or known. */
  problem?: 'new' | 'known';
}

/** The Google location an export is of: `locations/<id>`, and its title where the export has one. */
export interface ExportLocation {
  id: string;
  title?: string;
}

/** One export read: its records, what was wrong, what was left out. */
export interface ParsedExport {
  format: FormatId;
  records: ImportedReview[];
  /** Export field names by review-file field (`rating` → `starRating`), for messages about a record's values. */
  fields: Readonly<Record<string, string>>;
  problems: ImportProblem[];
  skipped: Skipped[];
  /** Each record's identity by where it is ("record 3": its platform id, or a digest), for what the import remembers. */
  keys?: Readonly<Record<string, string>>;
  location?: ExportLocation;
  /** The export says it is one page of a longer list (a reviews.list page with a nextPageToken): it speaks for its records only. */
  partial?: boolean;
}

/** Options of the CSV formats. */
export interface CsvOptions {
  /** Review-file field → the CSV column that holds it (`--map rating=Stars`). */
  map?: Readonly<Record<string, string>>;
  /** Where the reviews of a generic CSV were written, when it has no source column (`--source yelp`). */
  source?: string;
}

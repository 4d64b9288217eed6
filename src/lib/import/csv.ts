/**
 * CSV exports: Trustpilot's business export and a generic CSV any other
 * platform's reviews can be put into (Yelp, Facebook, a spreadsheet of emails).
 * Columns are found by their header, case and surrounding spaces ignored; each
 * review-file field has default column names (below, and docs/editing.md),
 * and `--map field=Column` names another.
 */
import { CsvError, parse } from 'csv-parse/sync';
import { NO_TEXT, optionalString, personName, RecordReader } from './fields.ts';
import { recordIdentity } from './memory.ts';
import { trustpilotReviewUrl } from './trustpilot.ts';
import type { CsvOptions, ImportedReview, ParsedExport } from './types.ts';
import {
  calendarDate,
  derivedSourceId,
  latestInstant,
  plainText,
  slashDateOrder,
  starRating,
  utcInstant,
  type DateReading,
} from './values.ts';

/** The fields a CSV can hold, by the names `--map` takes. */
export const CSV_FIELDS = [
  'date',
  'updated',
  'rating',
  'title',
  'text',
  'author',
  'response',
  'response_date',
  'source',
  'source_id',
  'source_url',
] as const;
export type CsvField = (typeof CSV_FIELDS)[number];

/** Trustpilot's export columns, with the spellings its exports have used (a generic CSV's are the field names). */
const TRUSTPILOT_COLUMNS: Readonly<Record<CsvField, readonly string[]>> = {
  date: ['Review Created (UTC)', 'Review Created', 'Created At', 'Date'],
  updated: ['Review Updated (UTC)', 'Review Updated', 'Updated At'],
  rating: ['Review Stars', 'Stars'],
  title: ['Review Title', 'Title'],
  text: ['Review Content', 'Review Text', 'Content', 'Text'],
  author: ['Reviewer Name', 'Consumer Name', 'Name'],
  response: ['Reply', 'Reply Content', 'Company Reply'],
  response_date: ['Reply Date (UTC)', 'Reply Date', 'Replied At'],
  source: [],
  source_id: ['Review ID', 'Review Id', 'ReviewId', 'Id'],
  source_url: ['Review URL', 'Review Link', 'Link'],
};

const REQUIRED: readonly CsvField[] = ['date', 'rating', 'text'];

/** Words in a header that suggest a required field, for the "did you mean" of a missing column. */
const LIKELY: Readonly<Record<string, RegExp>> = {
  date: /date|created|posted|time|when/i,
  rating: /star|rating|score|grade/i,
  text: /text|review|comment|content|body|message/i,
};

const DELIMITERS = [',', ';', '\t'] as const;

/**
 * The separator of a CSV: the comma, or the semicolon (what Excel writes where the comma is the
 * decimal mark) or the tab when the header row has more of those outside quotes.
 */
function csvDelimiter(text: string): (typeof DELIMITERS)[number] {
  const counts = new Map<string, number>(DELIMITERS.map((d) => [d, 0]));
  let quoted = false;
  for (const char of text) {
    if (char === '"') quoted = !quoted;
    else if (!quoted && (char === '\n' || char === '\r')) break;
    else if (!quoted && counts.has(char)) counts.set(char, counts.get(char)! + 1);
  }
  return DELIMITERS.reduce((best, d) => (counts.get(d)! > counts.get(best)! ? d : best));
}

/** A CSV with Trustpilot's own column names in its header row, not a generic CSV. */
export function isTrustpilotCsv(text: string): boolean {
  let header: string[];
  try {
    header =
      (parse(text, { to_line: 1, relax_column_count: true, delimiter: csvDelimiter(text) }) as string[][])[0] ?? [];
  } catch {
    return false;
  }
  const names = new Set(header.map((h) => h.trim().toLowerCase()));
  return (
    ['review stars', 'review created (utc)', 'review content', 'review id'].filter((name) => names.has(name)).length >=
    2
  );
}

export function parseCsv(
  file: string,
  text: string,
  format: 'csv' | 'trustpilot-csv',
  options: CsvOptions = {},
): ParsedExport {
  const out: ParsedExport = { format, records: [], fields: {}, problems: [], skipped: [] };
  let rows: string[][];
  try {
    rows = parse(text, { skip_empty_lines: true, delimiter: csvDelimiter(text) }) as string[][];
  } catch (error) {
    const line = error instanceof CsvError && 'lines' in error ? ` (line ${String(error.lines)})` : '';
    out.problems.push({
      file,
      at: '(file)',
      field: '(csv)',
      message: `not a readable CSV file${line}: ${(error as Error).message.replace(/^Invalid Record Length: /, '')}`,
    });
    return out;
  }
  const [header, ...body] = rows;
  if (!header) {
    out.problems.push({
      file,
      at: '(file)',
      field: '(csv)',
      message: 'the file is empty: expected a header row and one row per review',
    });
    return out;
  }
  const position = new Map(header.map((name, index) => [name.trim().toLowerCase(), index] as const));
  const index: Partial<Record<CsvField, number>> = {};
  const fields: Record<string, string> = {};
  for (const field of CSV_FIELDS) {
    const mapped = options.map?.[field];
    const names = mapped !== undefined ? [mapped] : format === 'csv' ? [field] : TRUSTPILOT_COLUMNS[field];
    const found = names.find((name) => position.has(name.trim().toLowerCase()));
    if (found !== undefined) {
      index[field] = position.get(found.trim().toLowerCase());
      fields[field] = header[index[field]!]!.trim();
    } else if (mapped !== undefined) {
      out.problems.push({
        file,
        at: '(header)',
        field: mapped,
        message: `--map ${field}=${mapped}: there is no column "${mapped}" (columns: ${header.join(', ')})`,
      });
    } else if (REQUIRED.includes(field)) {
      out.problems.push({
        file,
        at: '(header)',
        field,
        message: `no ${field} column: expected one named ${names.map((n) => `"${n}"`).join(' or ')}, or name it with --map ${field}=<column> (columns found: ${header.map((h) => `"${h.trim()}"`).join(', ')})${likelyColumn(field, header, fields)}`,
      });
    }
  }
  fields['response.text'] = fields.response ?? 'response';
  fields['response.date'] = fields.response_date ?? 'response_date';
  out.fields = fields;
  const defaultSource = format === 'trustpilot-csv' ? 'trustpilot' : options.source?.trim().toLowerCase();
  if (index.source === undefined && !defaultSource) {
    out.problems.push({
      file,
      at: '(header)',
      field: 'source',
      message: 'no source column: say where these reviews were written with --source (e.g. --source yelp)',
    });
  }
  if (out.problems.length > 0) return out;
  const reading = dateReading(file, body, index, fields, out);
  if (!reading) return out;

  const keys: Record<string, string> = {};
  out.keys = keys;
  body.forEach((row, i) => {
    // Row numbers as a spreadsheet shows them: the header is row 1.
    const reader = new RecordReader(file, `row ${i + 2}`);
    const cell = (field: CsvField) => (index[field] === undefined ? undefined : row[index[field]!]);
    keys[reader.at] = recordIdentity(optionalString(cell('source_id')), row);
    const column = (field: CsvField) => fields[field] ?? field;
    const date = reader.read(column('date'), cell('date'), (v) => calendarDate(v, reading));
    const rating = reader.read(column('rating'), cell('rating'), starRating);
    const updatedCell = optionalString(cell('updated'));
    const updated =
      updatedCell === undefined
        ? undefined
        : reader.read(column('updated'), updatedCell, (v) => utcInstant(v, reading));
    const title = reader.read(column('title'), cell('title'), (value) => optionalString(plainText(value)));
    const text = reader.read(column('text'), cell('text'), plainText);
    const author = personName(cell('author')) ?? 'Anonymous';
    const source = (optionalString(cell('source'))?.toLowerCase() ?? defaultSource)!;
    const url = optionalString(cell('source_url'));
    let response: ImportedReview['response'] = index.response === undefined ? undefined : null;
    const replyText = reader.read(column('response'), cell('response'), plainText);
    if (replyText) {
      const replyDate = reader.read(column('response_date'), cell('response_date'), (v) => calendarDate(v, reading));
      if (replyDate) response = { date: replyDate, text: replyText };
    }
    if (reader.problems.length > 0 || date === undefined || rating === undefined || text === undefined) {
      out.problems.push(...reader.problems);
      return;
    }
    if (text === '') {
      out.skipped.push({ file, at: reader.at, reason: NO_TEXT });
      return;
    }
    const id = optionalString(cell('source_id'));
    out.records.push({
      source,
      source_id: id ?? derivedSourceId(source, author, date, text),
      source_url: url ?? (format === 'trustpilot-csv' && id ? trustpilotReviewUrl(id) : undefined),
      date,
      updated: latestInstant(updated, response ? `${response.date}T00:00:00Z` : undefined),
      rating,
      title,
      text,
      author,
      response,
      at: reader.at,
    });
  });
  return out;
}

/**
 * How the file's date cells are read: spreadsheet dates like `11/21/2026` in the order the file's
 * own dates tell (all date columns together); undefined, with the problem noted, when they cannot tell.
 */
function dateReading(
  file: string,
  body: readonly string[][],
  index: Partial<Record<CsvField, number>>,
  fields: Record<string, string>,
  out: ParsedExport,
): DateReading | undefined {
  const columns = (['date', 'updated', 'response_date'] as const).filter((field) => index[field] !== undefined);
  const { order, problem } = slashDateOrder(columns.flatMap((field) => body.map((row) => row[index[field]!])));
  if (problem) {
    out.problems.push({ file, at: '(file)', field: columns.map((f) => fields[f]).join(', '), message: problem });
    return undefined;
  }
  return order ? { order } : {};
}

/** A column whose name suggests the field and that no other field has taken: "; "Stars" looks like it: --map rating=Stars". */
function likelyColumn(field: CsvField, header: readonly string[], taken: Record<string, string>): string {
  const used = new Set(Object.values(taken));
  const column = header.map((h) => h.trim()).find((h) => !used.has(h) && LIKELY[field]?.test(h));
  return column === undefined
    ? ''
    : `; "${column}" looks like it: --map ${field}=${/[\s"']/.test(column) ? `"${column}"` : column}`;
}

/**
 * The conversions every format shares: instants and dates to the content's
 * forms, text as plain text, and the id that stands in for a platform's when
 * an export has none.
 */
import { createHash } from 'node:crypto';
import { format } from 'date-fns/format';
import { isValid } from 'date-fns/isValid';
import { parse } from 'date-fns/parse';
import { isRealCalendarDate } from '../reviews/schema.ts';

/** Thrown by a conversion; the format adds the file, record and field. */
export class ValueError extends Error {}

// Our own: exports write instants zod's datetime refuses (a space for T, +0100, a lowercase z), and Date.parse reads one without a zone as local time.
const INSTANT = /^(\d{4}-\d{2}-\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?\s*(Z|[+-]\d{2}:?\d{2})?$/i;
const DATE = /^\d{4}-\d{2}-\d{2}$/;

/**
 * Which part of a spreadsheet's slash date (`11/21/2026`, `21/11/2026`) is the month: a CSV's
 * dates decide it (see `slashDateOrder`); undefined where slash dates are not read (JSON exports).
 */
export type SlashOrder = 'month/day' | 'day/month';

/** How a CSV's date cells are read: slash dates accepted, in this order once the file's dates tell it. */
export interface DateReading {
  order?: SlashOrder;
}

/** A slash date, optionally with a 24-hour or AM/PM time: `11/21/2026`, `11/21/2026 14:30`, `11/21/2026 2:30 PM`. */
const SLASH = /^(\d{1,2})\/(\d{1,2})\/(\d{4})(?:[ T]+(\d{1,2}:\d{2}(?::\d{2})?)(?:\s*([ap]m))?)?$/i;

const examples = (reading: DateReading | undefined, kind: 'date' | 'instant') =>
  kind === 'instant'
    ? `"2026-11-21T14:30:00Z"${reading ? ', "2026-11-21 14:30" (UTC) or "11/21/2026 14:30"' : ' or "2026-11-21 14:30" (UTC)'}`
    : `"2026-11-21", "2026-11-21T14:30:00Z"${reading ? ' or "11/21/2026"' : ''}`;

/**
 * An RFC 3339 instant (or `YYYY-MM-DD HH:MM[:SS]`, read as UTC) as the content writes it:
 * UTC, second precision (fractions dropped: `2024-03-01T17:22:05.123456Z` → `…05Z`). With a
 * `reading` (a CSV), a slash date and time too, read as UTC.
 */
export function utcInstant(value: unknown, reading?: DateReading): string {
  if (typeof value !== 'string') throw new ValueError(`expected a date and time, got ${describe(value)}`);
  const text = value.trim();
  const slash = reading ? slashDate(text, reading) : undefined;
  if (slash) return `${slash.date}T${slash.time ?? '00:00:00'}Z`;
  const match = INSTANT.exec(text);
  if (!match || !isRealCalendarDate(match[1]))
    throw new ValueError(`"${text}" is not a date and time: write it like ${examples(reading, 'instant')}`);
  const zone = match[5] ? match[5].toUpperCase().replace(/^([+-]\d{2})(\d{2})$/, '$1:$2') : 'Z';
  const ms = Date.parse(`${match[1]}T${match[2]}:${match[3]}:${match[4] ?? '00'}${zone}`);
  if (Number.isNaN(ms)) throw new ValueError(`"${text}" is not a real instant`);
  return `${new Date(ms).toISOString().slice(0, 19)}Z`;
}

/**
 * A calendar date: `YYYY-MM-DD` as is, or the UTC day of an instant; with a `reading` (a
 * CSV), a slash date too, in the order the file's dates tell.
 */
export function calendarDate(value: unknown, reading?: DateReading): string {
  const text = typeof value === 'string' ? value.trim() : undefined;
  if (text !== undefined && DATE.test(text)) {
    if (!isRealCalendarDate(text)) throw new ValueError(`"${text}" is not a real calendar date`);
    return text;
  }
  if (text !== undefined && /^\d{4}-\d{2}-\d{2}[T ]/.test(text)) return utcInstant(text).slice(0, 10);
  const slash = text !== undefined && reading ? slashDate(text, reading) : undefined;
  if (slash) return slash.date;
  throw new ValueError(`${describe(value)} is not a date: write it like ${examples(reading, 'date')}`);
}

/** A slash date's day and time (date-fns reads them); undefined when the text is no slash date. */
function slashDate(text: string, { order }: DateReading): { date: string; time?: string } | undefined {
  const match = SLASH.exec(text);
  if (!match) return undefined;
  // The file's dates decide the order before any row is read; a file they cannot decide is refused whole.
  if (!order) throw new ValueError(`"${text}": whether the month or the day comes first is not known`);
  const pattern = order === 'month/day' ? 'M/d/yyyy' : 'd/M/yyyy';
  const day = parse(`${match[1]}/${match[2]}/${match[3]}`, pattern, new Date(2000, 0, 1));
  if (!isValid(day))
    throw new ValueError(`"${text}" is not a real calendar date (read as ${order}/year, as this file's dates are)`);
  let time: string | undefined;
  if (match[4]) {
    const clock = parse(match[5] ? `${match[4]} ${match[5]}` : match[4], timePattern(match[4], match[5]), day);
    if (!isValid(clock)) throw new ValueError(`"${text}" has no real time of day`);
    time = format(clock, 'HH:mm:ss');
  }
  return { date: format(day, 'yyyy-MM-dd'), ...(time ? { time } : {}) };
}

function timePattern(clock: string, meridiem: string | undefined): string {
  const seconds = clock.split(':').length === 3 ? ':ss' : '';
  return meridiem ? `h:mm${seconds} a` : `H:mm${seconds}`;
}

/**
 * The order of a file's slash dates, from the values that tell: a first part above 12 is a day
 * (`21/11/2026`: day/month), a second part above 12 is a day (`11/21/2026`: month/day). Values
 * whose parts are equal read the same either way. Undefined when the file has no slash date;
 * a problem when none tells (all like `03/04/2026`) or when two tell different orders.
 */
export function slashDateOrder(values: Iterable<unknown>): { order?: SlashOrder; problem?: string } {
  let monthFirst: string | undefined;
  let dayFirst: string | undefined;
  let ambiguous: string | undefined;
  let any = false;
  for (const value of values) {
    const text = typeof value === 'string' ? value.trim() : '';
    const match = SLASH.exec(text);
    if (!match) continue;
    any = true;
    const [first, second] = [Number(match[1]), Number(match[2])];
    if (first > 12 && second <= 12) dayFirst ??= text;
    else if (second > 12 && first <= 12) monthFirst ??= text;
    else if (first !== second) ambiguous ??= text;
  }
  if (monthFirst && dayFirst)
    return {
      problem: `the dates disagree: "${monthFirst}" is month/day/year, "${dayFirst}" is day/month/year; write them all as year-month-day ("2026-11-21")`,
    };
  if (monthFirst) return { order: 'month/day' };
  if (dayFirst) return { order: 'day/month' };
  if (ambiguous)
    return {
      problem: `dates like "${ambiguous}" could be month/day or day/month, and none in the file tells which (no part above 12): write them as year-month-day ("2026-11-21"), or in a spreadsheet format the column as yyyy-mm-dd, save and import again`,
    };
  return any ? { order: 'month/day' } : {};
}

/**
 * Customer text as plain text: line breaks made `\n`, outer blank space trimmed. Nothing
 * else changes: markup stays characters, and whatever breaks the content rules (control
 * characters, length) is reported by the schema, not altered.
 */
export function plainText(value: unknown): string {
  if (value === undefined || value === null) return '';
  if (typeof value !== 'string') throw new ValueError(`expected text, got ${describe(value)}`);
  return value
    .replace(/\r\n?/g, '\n')
    .replace(/^\uFEFF/, '')
    .trim();
}

/** A star rating from a number or its text ("5", "5.0"); anything else, none included, is an error. */
export function starRating(value: unknown): number {
  if (value === undefined || value === null || value === '')
    throw new ValueError(
      'no star rating: a review without stars (a Facebook recommendation, STAR_RATING_UNSPECIFIED) cannot be published here',
    );
  const number =
    typeof value === 'number'
      ? value
      : typeof value === 'string' && /^\s*\d+(?:\.0+)?\s*$/.test(value)
        ? Number(value)
        : Number.NaN;
  if (!Number.isInteger(number) || number < 1 || number > 5)
    throw new ValueError(`${describe(value)} is not a star rating from 1 to 5`);
  return number;
}

/**
 * The id of a review whose export has none (a generic CSV without an id column): made from
 * where, by whom, when and what was written, so the same row gets the same id on every import.
 */
export function derivedSourceId(source: string, author: string, date: string, text: string): string {
  const hash = createHash('sha256').update(`${source}\n${author}\n${date}\n${text}`).digest('hex');
  return `derived-${hash.slice(0, 16)}`;
}

/** A value as a problem names it: short, and never failing, however large or deeply nested the value. */
export function describe(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (typeof value === 'string') return `"${value.length > 40 ? `${value.slice(0, 40)}…` : value}"`;
  let json: string | undefined;
  try {
    json = JSON.stringify(value);
  } catch {
    // Nested deeper than the stack (a hostile export), or a shape JSON cannot hold.
    return Array.isArray(value) ? 'a list nested too deeply to show' : 'a value too deeply nested to show';
  }
  if (json === undefined) return String(value);
  return json.length > 80 ? `${json.slice(0, 80)}…` : json;
}

/** The latest of some instants (RFC 3339 UTC strings sort by time); undefined when none is given. */
export function latestInstant(...instants: Array<string | undefined>): string | undefined {
  return instants
    .filter((t): t is string => t !== undefined)
    .sort()
    .at(-1);
}

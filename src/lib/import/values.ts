/**
 * The conversions every format shares: instants and dates to the content's
 * forms, text as plain text, and the id that stands in for a platform's when
 * an export has none.
 */
import { createHash } from 'node:crypto';
import { isRealCalendarDate } from '../reviews/schema.ts';

/** Thrown by a conversion; the format adds the file, record and field. */
export class ValueError extends Error {}

// Our own: exports write instants zod's datetime refuses (a space for T, +0100, a lowercase z), and Date.parse reads one without a zone as local time.
const INSTANT = /^(\d{4}-\d{2}-\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?\s*(Z|[+-]\d{2}:?\d{2})?$/i;
const DATE = /^\d{4}-\d{2}-\d{2}$/;

/**
 * An RFC 3339 instant (or `YYYY-MM-DD HH:MM[:SS]`, read as UTC) as the content writes it:
 * UTC, second precision (fractions dropped: `2024-03-01T17:22:05.123456Z` → `…05Z`).
 */
export function utcInstant(value: unknown): string {
  if (typeof value !== 'string') throw new ValueError(`expected a date and time, got ${describe(value)}`);
  const text = value.trim();
  const match = INSTANT.exec(text);
  if (!match || !isRealCalendarDate(match[1]))
    throw new ValueError(`"${text}" is not a date and time (RFC 3339, e.g. 2024-03-01T17:22:05Z)`);
  const zone = match[5] ? match[5].toUpperCase().replace(/^([+-]\d{2})(\d{2})$/, '$1:$2') : 'Z';
  const ms = Date.parse(`${match[1]}T${match[2]}:${match[3]}:${match[4] ?? '00'}${zone}`);
  if (Number.isNaN(ms)) throw new ValueError(`"${text}" is not a real instant`);
  return `${new Date(ms).toISOString().slice(0, 19)}Z`;
}

/** A calendar date: `YYYY-MM-DD` as is, or the UTC day of an instant. */
export function calendarDate(value: unknown): string {
  if (typeof value === 'string' && DATE.test(value.trim())) {
    if (!isRealCalendarDate(value.trim())) throw new ValueError(`"${value.trim()}" is not a real calendar date`);
    return value.trim();
  }
  if (typeof value === 'string' && /^\d{4}-\d{2}-\d{2}[T ]/.test(value.trim())) return utcInstant(value).slice(0, 10);
  throw new ValueError(`${describe(value)} is not a date: write it as YYYY-MM-DD or an RFC 3339 instant`);
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

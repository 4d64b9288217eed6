/**
 * Dates as people read them on the pages ("May 20, 2025"), from the ISO dates
 * the data carries. Parsed as calendar days, never through the local time
 * zone, so a build anywhere renders the same day.
 */
import { format, parseISO } from 'date-fns';

/**
 * Each day formatted once: the listing pages show every review's date (100k
 * cards at 100k reviews, over a few thousand distinct days), and date-fns
 * parses and formats in tens of microseconds. Bounded, for the server's sake.
 */
const formatted = new Map<string, string>();
const MAX_CACHED = 10_000;

export function displayDate(isoDay: string): string {
  let text = formatted.get(isoDay);
  if (text === undefined) {
    text = format(parseISO(isoDay), 'MMMM d, yyyy');
    if (formatted.size >= MAX_CACHED) formatted.clear();
    formatted.set(isoDay, text);
  }
  return text;
}

/**
 * Dates as people read them on the pages ("May 20, 2025"), from the ISO dates
 * the data carries. Parsed as calendar days, never through the local time
 * zone, so a build anywhere renders the same day.
 */
import { format, parseISO } from 'date-fns';

export function displayDate(isoDay: string): string {
  return format(parseISO(isoDay), 'MMMM d, yyyy');
}

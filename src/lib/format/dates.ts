/**
 * Dates as people read them on the pages ("May 20, 2025"), from the ISO days
 * the data carries. A date-only ISO string is UTC midnight, and it is
 * formatted in UTC, so a build in any time zone renders the same day.
 */
const dayFormat = new Intl.DateTimeFormat('en-US', { timeZone: 'UTC', month: 'long', day: 'numeric', year: 'numeric' });

export function displayDate(isoDay: string): string {
  return dayFormat.format(new Date(isoDay));
}

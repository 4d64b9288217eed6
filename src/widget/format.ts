/**
 * Figures and dates as the widget shows them, in English like the rest of the
 * site. Calendar days are formatted in UTC so every visitor sees the day the
 * customer wrote, whatever their time zone.
 */
const ratingFormat = new Intl.NumberFormat('en-US', { minimumFractionDigits: 1, maximumFractionDigits: 1 });
const countFormat = new Intl.NumberFormat('en-US');
const dayFormat = new Intl.DateTimeFormat('en-US', { timeZone: 'UTC', month: 'long', day: 'numeric', year: 'numeric' });

/** 4.67 → "4.7": the one-decimal form review badges use. */
export const formatRating = (value: number): string => ratingFormat.format(value);

const formatCount = (count: number): string => countFormat.format(count);

/** `2025-05-20` → "May 20, 2025" (what the site's pages show). */
export function formatDay(isoDay: string): string {
  const [year, month, day] = isoDay.split('-').map(Number);
  return dayFormat.format(new Date(Date.UTC(year!, month! - 1, day!)));
}

export const plural = (count: number, one: string, many: string): string =>
  `${formatCount(count)} ${count === 1 ? one : many}`;

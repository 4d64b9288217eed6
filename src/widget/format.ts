/**
 * Figures and dates through Intl in the widget's locale. Calendar days are
 * formatted in UTC so every visitor sees the day the customer wrote, whatever
 * their time zone.
 */
import { LABELS, type Locale } from './locales/index.ts';
import type { Labels } from './locales/labels.ts';

export interface Formats {
  labels: Labels;
  /** 4.67 → "4.7" ("4,7" in Spanish): the one-decimal form review badges use. */
  rating: (value: number) => string;
  count: (count: number) => string;
  /** `2025-05-20` → "May 20, 2025" ("20 may 2025"): short enough for a phone's row. */
  day: (isoDay: string) => string;
}

const cache = new Map<Locale, Formats>();

export function formatsFor(locale: Locale): Formats {
  let formats = cache.get(locale);
  if (!formats) {
    const rating = new Intl.NumberFormat(locale, { minimumFractionDigits: 1, maximumFractionDigits: 1 });
    const count = new Intl.NumberFormat(locale);
    const day = new Intl.DateTimeFormat(locale, { timeZone: 'UTC', month: 'short', day: 'numeric', year: 'numeric' });
    formats = {
      labels: LABELS[locale],
      rating: (value) => rating.format(value),
      count: (n) => count.format(n),
      day: (isoDay) => {
        const [year, month, date] = isoDay.split('-').map(Number);
        return day.format(new Date(Date.UTC(year!, month! - 1, date!)));
      },
    };
    cache.set(locale, formats);
  }
  return formats;
}

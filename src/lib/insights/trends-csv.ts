/**
 * The numbers behind each chart of /trends as CSV files (RFC 4180: comma
 * separated, CRLF line ends, a header row, fields quoted when they hold a
 * comma, quote or line break), served beside the page at /trends/<name>.
 * Dates are ISO 8601 (`YYYY-MM-DD`, months `YYYY-MM`, quarters `YYYY-Qn`),
 * numbers are plain (no grouping, a dot for decimals, shares 0..1), an empty
 * field is "none" (a quarter without replies has no reply time). Column names
 * are stable: docs/insights.md lists them.
 */
import { ASPECT_IDS } from './lexicon.ts';
import type { Trends } from './schema.ts';

type Field = string | number | null;

export interface TrendCsv {
  name: string;
  /** What the file holds, for the page's link. */
  title: string;
  columns: readonly string[];
  rows: Field[][];
}

/** A field as RFC 4180 writes it; text a spreadsheet would run as a formula is prefixed with a quote mark. */
function field(value: Field): string {
  if (value === null) return '';
  if (typeof value === 'number') return String(value);
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

export function csvText(csv: TrendCsv): string {
  return [csv.columns, ...csv.rows].map((row) => `${row.map(field).join(',')}\r\n`).join('');
}

/** Every CSV file of the trends, in the order the page links them. */
export function trendCsvs(trends: Trends): TrendCsv[] {
  const recent = trends.recent;
  return [
    {
      name: 'reviews-by-week.csv',
      title: 'Reviews per week, the last 12 weeks',
      columns: ['week_start', 'week_end', 'review_count'],
      rows: trends.weeks.map((w) => [w.week, w.to, w.review_count]),
    },
    {
      name: 'reviews-by-month.csv',
      title: 'Reviews and rating per month',
      columns: ['month', 'review_count', 'average_rating', 'stars_1', 'stars_2', 'stars_3', 'stars_4', 'stars_5'],
      rows: trends.months.map((m) => [
        m.month,
        m.review_count,
        m.average_rating,
        m.distribution['1'],
        m.distribution['2'],
        m.distribution['3'],
        m.distribution['4'],
        m.distribution['5'],
      ]),
    },
    {
      name: 'rating-by-quarter.csv',
      title: 'Average rating per quarter',
      columns: ['quarter', 'review_count', 'average_rating', 'stars_1', 'stars_2', 'stars_3', 'stars_4', 'stars_5'],
      rows: trends.quarters.map((q) => [
        q.quarter,
        q.review_count,
        q.average_rating,
        q.distribution['1'],
        q.distribution['2'],
        q.distribution['3'],
        q.distribution['4'],
        q.distribution['5'],
      ]),
    },
    {
      name: 'replies-by-quarter.csv',
      title: 'Replies per quarter: share answered and hours to reply',
      columns: [
        'quarter',
        'review_count',
        'reply_count',
        'reply_rate',
        'low_rated_count',
        'low_rated_reply_count',
        'low_rated_reply_rate',
        'other_reply_rate',
        'median_reply_hours',
        'p90_reply_hours',
      ],
      rows: trends.quarters.map((q) => [
        q.quarter,
        q.review_count,
        q.reply_count,
        q.reply_rate,
        q.low_rated_count,
        q.low_rated_reply_count,
        q.low_rated_reply_rate,
        q.other_reply_rate,
        q.median_reply_hours,
        q.p90_reply_hours,
      ]),
    },
    {
      name: 'aspects-by-quarter.csv',
      title: 'Sentences about each part of the job per quarter',
      columns: ['quarter', 'aspect', 'positive', 'neutral', 'negative'],
      rows: trends.quarters.flatMap((q) =>
        ASPECT_IDS.map((id) => [q.quarter, id, q.aspects[id].positive, q.aspects[id].neutral, q.aspects[id].negative]),
      ),
    },
    {
      name: 'last-90-days.csv',
      title: 'The last 90 days against the 90 before and a year earlier',
      columns: [
        'figure',
        'unit',
        'current',
        'previous',
        'year_ago',
        'change_vs_previous',
        'direction_vs_previous',
        'change_vs_year_ago',
        'direction_vs_year_ago',
        'current_from',
        'current_to',
        'previous_from',
        'previous_to',
        'year_ago_from',
        'year_ago_to',
      ],
      rows: (recent?.comparisons ?? []).map((c) => [
        c.id,
        c.unit,
        c.current,
        c.previous,
        c.year_ago,
        c.vs_previous.change,
        c.vs_previous.direction,
        c.vs_year_ago.change,
        c.vs_year_ago.direction,
        recent!.current.from,
        recent!.current.to,
        recent!.previous.from,
        recent!.previous.to,
        recent!.year_ago.from,
        recent!.year_ago.to,
      ]),
    },
    {
      name: 'unanswered-low-rated.csv',
      title: '1–2★ reviews without a reply, oldest first',
      columns: ['review_id', 'date', 'rating', 'waiting_days', 'path'],
      rows: trends.unanswered_low_rated.map((r) => [r.id, r.date, r.rating, r.waiting_days, r.path]),
    },
  ];
}

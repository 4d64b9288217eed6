/**
 * How the reviews move over time: per calendar month, quarter and (for the
 * last 12) week, and the last 90 days against the 90 before and the same 90
 * days a year earlier. A pure function of the reviews and their aspect
 * mentions, with no clock: every window ends on the anchor, the newest
 * review's date, so the same content builds to the same bytes whenever and
 * wherever it is built.
 *
 * Dates are calendar days (`YYYY-MM-DD`, the dataset's UTC dates). date-fns
 * does the calendar arithmetic on them as parsed by `parseISO` (midnight of
 * that day in the process's zone) and every result is read back as a calendar
 * day (`format`, `differenceInCalendar*`), so no zone offset or DST change can
 * move a day: the output is the UTC calendar's whatever TZ the build runs in.
 */
import { addDays } from 'date-fns/addDays';
import { addMonths } from 'date-fns/addMonths';
import { addQuarters } from 'date-fns/addQuarters';
import { addWeeks } from 'date-fns/addWeeks';
import { differenceInCalendarDays } from 'date-fns/differenceInCalendarDays';
import { differenceInCalendarISOWeeks } from 'date-fns/differenceInCalendarISOWeeks';
import { differenceInCalendarMonths } from 'date-fns/differenceInCalendarMonths';
import { differenceInCalendarQuarters } from 'date-fns/differenceInCalendarQuarters';
import { format } from 'date-fns/format';
import { parseISO } from 'date-fns/parseISO';
import { startOfISOWeek } from 'date-fns/startOfISOWeek';
import { startOfMonth } from 'date-fns/startOfMonth';
import { startOfQuarter } from 'date-fns/startOfQuarter';
import { subDays } from 'date-fns/subDays';
import { subWeeks } from 'date-fns/subWeeks';
import { subYears } from 'date-fns/subYears';
import { roundTo } from '../reviews/published-dataset.ts';
import { ASPECT_IDS, ASPECTS, type AspectId } from './lexicon.ts';
import type { Polarity } from './polarity.ts';
import { round3 } from './round.ts';
import type { AspectCounts, Comparison, RecentWindow, TrendPeriod, Trends, UnansweredReview } from './schema.ts';

/** What the trends read of one review. */
export interface TrendReview {
  id: string;
  date: string;
  rating: number;
  title?: string;
  author: string;
  response: { date: string } | null;
  /** Each sentence's mention of an aspect (one per aspect per sentence), as in aspects[]. */
  mentions: ReadonlyArray<{ aspect: AspectId; polarity: Polarity; score: number }>;
}

/** Length of each window of `recent`, in days. */
const RECENT_DAYS = 90;
/** Weeks in `weeks[]`, the newest (the anchor's) included. */
const VELOCITY_WEEKS = 12;
/**
 * The fewest reviews (replies for reply times, sentences for an aspect's share)
 * each side of a comparison needs before its direction is said: below it, a
 * single review swings a mean or a share by 20 points or more.
 */
const MIN_COUNT = 5;
/** Ratings counted as low: what the owner should answer first. */
const LOW_RATED_MAX = 2;

const HOURS_PER_DAY = 24;

const day = (iso: string) => parseISO(iso);
const iso = (date: Date) => format(date, 'yyyy-MM-dd');

/**
 * Hours from the review's day to its reply's day. Both are dates without a time,
 * so a reply is counted in whole days of 24 hours (a same-day reply is 0).
 */
function replyHours(review: Pick<TrendReview, 'date' | 'response'>): number | null {
  return review.response ? differenceInCalendarDays(day(review.response.date), day(review.date)) * HOURS_PER_DAY : null;
}

/** The middle value (the mean of the two middle ones for an even count); null for none. */
function median(values: readonly number[]): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** The nearest-rank percentile: the smallest value with at least p% of the values at or below it; null for none. */
function percentile(values: readonly number[], p: number): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.max(0, Math.ceil((p / 100) * sorted.length) - 1)];
}

const rate = (part: number, whole: number) => (whole === 0 ? null : round3(part / whole));

/** A bucket's running sums. */
class Bucket {
  count = 0;
  ratingSum = 0;
  readonly distribution = [0, 0, 0, 0, 0];
  replied = 0;
  low = 0;
  lowReplied = 0;
  readonly replyHours: number[] = [];
  readonly positive = new Array<number>(ASPECT_IDS.length).fill(0);
  readonly neutral = new Array<number>(ASPECT_IDS.length).fill(0);
  readonly negative = new Array<number>(ASPECT_IDS.length).fill(0);
  readonly scoreSum = new Array<number>(ASPECT_IDS.length).fill(0);

  add(review: TrendReview): void {
    this.count += 1;
    this.ratingSum += review.rating;
    this.distribution[review.rating - 1] += 1;
    const low = review.rating <= LOW_RATED_MAX;
    if (low) this.low += 1;
    const hours = replyHours(review);
    if (hours !== null) {
      this.replied += 1;
      if (low) this.lowReplied += 1;
      this.replyHours.push(hours);
    }
    for (const mention of review.mentions) {
      const i = ASPECT_INDEX.get(mention.aspect)!;
      this[mention.polarity][i] += 1;
      this.scoreSum[i] += mention.score;
    }
  }

  figures() {
    const medianHours = median(this.replyHours);
    return {
      review_count: this.count,
      average_rating: this.count === 0 ? null : roundTo(this.ratingSum / this.count, 2),
      reply_count: this.replied,
      reply_rate: rate(this.replied, this.count),
      median_reply_days: medianHours === null ? null : medianHours / HOURS_PER_DAY,
      median_reply_hours: medianHours,
      p90_reply_hours: percentile(this.replyHours, 90),
      low_rated_count: this.low,
      low_rated_reply_count: this.lowReplied,
      low_rated_reply_rate: rate(this.lowReplied, this.low),
      other_reply_rate: rate(this.replied - this.lowReplied, this.count - this.low),
    };
  }

  period(): TrendPeriod {
    return {
      ...this.figures(),
      distribution: {
        '1': this.distribution[0],
        '2': this.distribution[1],
        '3': this.distribution[2],
        '4': this.distribution[3],
        '5': this.distribution[4],
      },
      aspects: Object.fromEntries(
        ASPECT_IDS.map((id, i): [AspectId, AspectCounts] => [
          id,
          { positive: this.positive[i], neutral: this.neutral[i], negative: this.negative[i] },
        ]),
      ) as TrendPeriod['aspects'],
    };
  }

  window(from: Date, to: Date): RecentWindow {
    return {
      from: iso(from),
      to: iso(to),
      ...this.figures(),
      aspects: Object.fromEntries(
        ASPECT_IDS.map((id, i) => {
          const mentions = this.positive[i] + this.neutral[i] + this.negative[i];
          return [
            id,
            {
              mentions,
              positive: this.positive[i],
              neutral: this.neutral[i],
              negative: this.negative[i],
              positive_share: rate(this.positive[i], mentions),
              score: mentions === 0 ? null : round3(this.scoreSum[i] / mentions),
            },
          ];
        }),
      ) as RecentWindow['aspects'],
    };
  }
}

const ASPECT_INDEX = new Map<AspectId, number>(ASPECT_IDS.map((id, i) => [id, i]));

/** A difference of two figures, null unless both exist; rounded as the figures are. */
function change(now: number | null, then: number | null, round: (x: number) => number): number | null {
  return now === null || then === null ? null : round(now - then);
}

/** Whether a window is inside [from, to] (calendar days, both included). */
const within = (date: Date, from: Date, to: Date) => date >= from && date <= to;

/** One headline figure of the three windows, and how it moved, in numbers and in words. */
interface Headline {
  id: string;
  label: string;
  unit: Comparison['unit'];
  /** The figure of a window. */
  value: (w: RecentWindow) => number | null;
  /** What the figure is counted over in a window (reviews, replies, sentences), null when no minimum applies. */
  basis: ((w: RecentWindow) => number) | null;
  basisWord: string;
  round: (x: number) => number;
  show: (x: number) => string;
  /** The change in words: "0.12", "3 points", "12 hours". */
  showChange: (x: number) => string;
}

const signed = (x: number, show: (x: number) => string) => (x < 0 ? `−${show(-x)}` : x > 0 ? `+${show(x)}` : show(0));
const pct = (x: number) => `${Math.round(x * 100)}%`;
const points = (x: number) => {
  const n = Math.round(x * 100);
  return `${n} percentage point${n === 1 ? '' : 's'}`;
};
const hours = (x: number) => `${x.toLocaleString('en-US')} hour${x === 1 ? '' : 's'}`;

const HEADLINES: Headline[] = [
  {
    id: 'average_rating',
    label: 'Average rating',
    unit: 'stars',
    value: (w) => w.average_rating,
    basis: (w) => w.review_count,
    basisWord: 'review',
    round: (x) => roundTo(x, 2),
    show: (x) => x.toFixed(2),
    showChange: (x) => x.toFixed(2),
  },
  {
    id: 'review_count',
    label: 'Reviews',
    unit: 'reviews',
    value: (w) => w.review_count,
    basis: null,
    basisWord: 'review',
    round: (x) => x,
    show: (x) => x.toLocaleString('en-US'),
    showChange: (x) => x.toLocaleString('en-US'),
  },
  {
    id: 'reply_rate',
    label: 'Share of reviews answered',
    unit: 'share',
    value: (w) => w.reply_rate,
    basis: (w) => w.review_count,
    basisWord: 'review',
    round: round3,
    show: pct,
    showChange: points,
  },
  {
    id: 'low_rated_reply_rate',
    label: 'Share of 1–2★ reviews answered',
    unit: 'share',
    value: (w) => w.low_rated_reply_rate,
    basis: (w) => w.low_rated_count,
    basisWord: '1–2★ review',
    round: round3,
    show: pct,
    showChange: points,
  },
  {
    id: 'median_reply_hours',
    label: 'Median time to reply',
    unit: 'hours',
    value: (w) => w.median_reply_hours,
    basis: (w) => w.reply_count,
    basisWord: 'reply',
    round: (x) => x,
    show: hours,
    showChange: hours,
  },
  {
    id: 'p90_reply_hours',
    label: '90th percentile time to reply',
    unit: 'hours',
    value: (w) => w.p90_reply_hours,
    basis: (w) => w.reply_count,
    basisWord: 'reply',
    round: (x) => x,
    show: hours,
    showChange: hours,
  },
  ...ASPECTS.map((aspect): Headline => ({
    id: `positive_share.${aspect.id}`,
    label: `${aspect.label}: share of sentences positive`,
    unit: 'share',
    value: (w) => w.aspects[aspect.id].positive_share,
    basis: (w) => w.aspects[aspect.id].mentions,
    basisWord: 'sentence',
    round: round3,
    show: pct,
    showChange: points,
  })),
];

const count = (n: number, word: string) =>
  `${n.toLocaleString('en-US')} ${n === 1 ? word : word.endsWith('y') ? `${word.slice(0, -1)}ies` : `${word}s`}`;

/** How a figure moved from `then` to `now`, in words a reader can quote. */
function versus(h: Headline, now: RecentWindow, then: RecentWindow, thenName: string): Comparison['vs_previous'] {
  const a = h.value(now);
  const b = h.value(then);
  const short = h.basis ? [h.basis(now), h.basis(then)].some((n) => n < MIN_COUNT) : false;
  if (short || a === null || b === null) {
    const counts = h.basis
      ? ` (${count(h.basis(now), h.basisWord)} now, ${count(h.basis(then), h.basisWord)} in ${thenName}; at least ${MIN_COUNT} each needed)`
      : '';
    return { change: null, direction: 'not_enough_reviews', text: `not enough reviews to compare${counts}` };
  }
  const diff = h.round(a - b);
  const direction = diff > 0 ? 'up' : diff < 0 ? 'down' : 'unchanged';
  const text =
    direction === 'unchanged'
      ? `unchanged on ${thenName} (${h.show(a)})`
      : `${direction} ${h.showChange(Math.abs(diff))} on ${thenName}, from ${h.show(b)} to ${h.show(a)}`;
  return { change: diff, direction, text };
}

/** Reviews rated 1–2★ with no reply yet, oldest first: what to answer today. */
function unansweredLowRated(reviews: readonly TrendReview[], anchor: Date): UnansweredReview[] {
  return reviews
    .filter((r) => r.rating <= LOW_RATED_MAX && r.response === null)
    .sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
    .map((r) => ({
      id: r.id,
      date: r.date,
      rating: r.rating,
      title: r.title ?? null,
      author: r.author,
      path: `/reviews/${encodeURIComponent(r.id)}`,
      waiting_days: differenceInCalendarDays(anchor, day(r.date)),
    }));
}

/** The trends of a set of reviews, in any order. */
export function buildTrends(reviews: readonly TrendReview[]): Trends {
  if (reviews.length === 0)
    return {
      anchor: null,
      months: [],
      quarters: [],
      weeks: [],
      busiest_month: null,
      unanswered_low_rated: [],
      recent: null,
    };
  let first = reviews[0].date;
  let last = reviews[0].date;
  for (const r of reviews) {
    if (r.date < first) first = r.date;
    if (r.date > last) last = r.date;
  }
  const anchor = day(last);
  const firstMonth = startOfMonth(day(first));
  const firstQuarter = startOfQuarter(day(first));
  const months = Array.from({ length: differenceInCalendarMonths(anchor, firstMonth) + 1 }, () => new Bucket());
  const quarters = Array.from({ length: differenceInCalendarQuarters(anchor, firstQuarter) + 1 }, () => new Bucket());
  // The calendar weeks (Monday to Sunday, ISO 8601) of the anchor and the 11 before it.
  const firstWeek = startOfISOWeek(subWeeks(anchor, VELOCITY_WEEKS - 1));
  const weeks = new Array<number>(VELOCITY_WEEKS).fill(0);
  // The current window is the anchor and the 89 days before it; the previous, the 90 days before those;
  // the year before, the current window's first and last days a year earlier (Feb 29 becomes Feb 28).
  const currentFrom = subDays(anchor, RECENT_DAYS - 1);
  const previousTo = subDays(currentFrom, 1);
  const previousFrom = subDays(previousTo, RECENT_DAYS - 1);
  const yearAgoFrom = subYears(currentFrom, 1);
  const yearAgoTo = subYears(anchor, 1);
  const current = new Bucket();
  const previous = new Bucket();
  const yearAgo = new Bucket();
  for (const r of reviews) {
    const date = day(r.date);
    months[differenceInCalendarMonths(date, firstMonth)].add(r);
    quarters[differenceInCalendarQuarters(date, firstQuarter)].add(r);
    if (date >= firstWeek) weeks[differenceInCalendarISOWeeks(date, firstWeek)] += 1;
    if (date >= currentFrom) current.add(r);
    else if (date >= previousFrom) previous.add(r);
    if (within(date, yearAgoFrom, yearAgoTo)) yearAgo.add(r);
  }
  const now = current.window(currentFrom, anchor);
  const then = previous.window(previousFrom, previousTo);
  const lastYear = yearAgo.window(yearAgoFrom, yearAgoTo);
  const monthRows = months.map((b, i) => ({ month: format(addMonths(firstMonth, i), 'yyyy-MM'), ...b.period() }));
  const most = Math.max(...monthRows.map((m) => m.review_count));
  return {
    anchor: last,
    months: monthRows,
    quarters: quarters.map((b, i) => ({ quarter: format(addQuarters(firstQuarter, i), "yyyy-'Q'Q"), ...b.period() })),
    weeks: weeks.map((n, i) => {
      const start = addWeeks(firstWeek, i);
      return { week: iso(start), to: iso(addDays(start, 6)), review_count: n };
    }),
    busiest_month: {
      review_count: most,
      months: monthRows.filter((m) => m.review_count === most).map((m) => m.month),
      of: monthRows.length,
    },
    unanswered_low_rated: unansweredLowRated(reviews, anchor),
    recent: {
      days: RECENT_DAYS,
      min_count: MIN_COUNT,
      current: now,
      previous: then,
      year_ago: lastYear,
      change: {
        review_count: now.review_count - then.review_count,
        average_rating: change(now.average_rating, then.average_rating, (x) => roundTo(x, 2)),
        reply_rate: change(now.reply_rate, then.reply_rate, round3),
        median_reply_days: change(now.median_reply_days, then.median_reply_days, (x) => x),
        aspects: Object.fromEntries(
          ASPECT_IDS.map((id) => [id, change(now.aspects[id].score, then.aspects[id].score, round3)]),
        ) as Record<AspectId, number | null>,
      },
      comparisons: HEADLINES.map((h) => ({
        id: h.id,
        label: h.label,
        unit: h.unit,
        current: h.value(now),
        previous: h.value(then),
        year_ago: h.value(lastYear),
        vs_previous: versus(h, now, then, `the 90 days before`),
        vs_year_ago: versus(h, now, lastYear, `the same 90 days a year earlier`),
      })),
    },
  };
}

/** Name → decimals used when the placeholder names none: the figures of the trends the summary may quote. */
export const TREND_FIGURES = {
  review_count_90d: 0,
  review_count_change_90d: 0,
  review_count_year_ago_90d: 0,
  average_rating_90d: 2,
  rating_change_90d: 2,
  rating_change_year_90d: 2,
  percent_replied_90d: 0,
  percent_low_rated_replied_90d: 0,
  median_reply_days_90d: 0,
  median_reply_hours_90d: 0,
  p90_reply_hours_90d: 0,
  reviews_per_week_12w: 1,
  unanswered_low_rated_count: 0,
} as const;

/**
 * The summary's figures of the trends. A figure of a window without reviews
 * (or replies) is 0, so a quiet quarter never fails the build.
 */
export function trendFigures(trends: Trends): Record<keyof typeof TREND_FIGURES, number> {
  const r = trends.recent;
  const weekly = trends.weeks.reduce((s, w) => s + w.review_count, 0) / VELOCITY_WEEKS;
  return {
    review_count_90d: r?.current.review_count ?? 0,
    review_count_change_90d: r?.change.review_count ?? 0,
    review_count_year_ago_90d: r?.year_ago.review_count ?? 0,
    average_rating_90d: r?.current.average_rating ?? 0,
    rating_change_90d: r?.change.average_rating ?? 0,
    rating_change_year_90d:
      change(r?.current.average_rating ?? null, r?.year_ago.average_rating ?? null, (x) => roundTo(x, 2)) ?? 0,
    percent_replied_90d: (r?.current.reply_rate ?? 0) * 100,
    percent_low_rated_replied_90d: (r?.current.low_rated_reply_rate ?? 0) * 100,
    median_reply_days_90d: r?.current.median_reply_days ?? 0,
    median_reply_hours_90d: r?.current.median_reply_hours ?? 0,
    p90_reply_hours_90d: r?.current.p90_reply_hours ?? 0,
    reviews_per_week_12w: trends.weeks.length === 0 ? 0 : weekly,
    unanswered_low_rated_count: trends.unanswered_low_rated.length,
  };
}

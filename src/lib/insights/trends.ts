/**
 * How the reviews move over time: per calendar month and quarter, and the
 * last 90 days against the 90 before. A pure function of the reviews and
 * their aspect mentions, with no clock: "recent" ends on the newest review's
 * date, so the same content builds to the same bytes whenever it is built.
 */
import { roundTo } from '../reviews/published-dataset.ts';
import { ASPECT_IDS, type AspectId } from './lexicon.ts';
import type { Polarity } from './polarity.ts';
import { round3 } from './round.ts';
import type { AspectCounts, RecentWindow, TrendPeriod, Trends } from './schema.ts';

/** What the trends read of one review. */
export interface TrendReview {
  date: string;
  rating: number;
  response: { date: string } | null;
  /** Each sentence's mention of an aspect (one per aspect per sentence), as in aspects[]. */
  mentions: ReadonlyArray<{ aspect: AspectId; polarity: Polarity; score: number }>;
}

/** Length of each of the two windows of `recent`, in days. */
const RECENT_DAYS = 90;

const DAY_MS = 86_400_000;

/** Days since 1970-01-01 of an ISO date (UTC calendar; no time zone involved). */
function epochDay(date: string): number {
  return Date.UTC(Number(date.slice(0, 4)), Number(date.slice(5, 7)) - 1, Number(date.slice(8, 10))) / DAY_MS;
}

function isoOfDay(day: number): string {
  return new Date(day * DAY_MS).toISOString().slice(0, 10);
}

/** Whole days from the review to the owner's reply. */
function replyDays(review: Pick<TrendReview, 'date' | 'response'>): number | null {
  return review.response ? epochDay(review.response.date) - epochDay(review.date) : null;
}

/** The middle value (the mean of the two middle ones for an even count); null for none. */
function median(values: readonly number[]): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** A bucket's running sums. */
class Bucket {
  count = 0;
  ratingSum = 0;
  readonly distribution = [0, 0, 0, 0, 0];
  replied = 0;
  readonly replyDays: number[] = [];
  readonly positive = new Array<number>(ASPECT_IDS.length).fill(0);
  readonly neutral = new Array<number>(ASPECT_IDS.length).fill(0);
  readonly negative = new Array<number>(ASPECT_IDS.length).fill(0);
  readonly scoreSum = new Array<number>(ASPECT_IDS.length).fill(0);

  add(review: TrendReview): void {
    this.count += 1;
    this.ratingSum += review.rating;
    this.distribution[review.rating - 1] += 1;
    const days = replyDays(review);
    if (days !== null) {
      this.replied += 1;
      this.replyDays.push(days);
    }
    for (const mention of review.mentions) {
      const i = ASPECT_INDEX.get(mention.aspect)!;
      this[mention.polarity][i] += 1;
      this.scoreSum[i] += mention.score;
    }
  }

  period(): TrendPeriod {
    return {
      review_count: this.count,
      average_rating: this.count === 0 ? null : roundTo(this.ratingSum / this.count, 2),
      distribution: {
        '1': this.distribution[0],
        '2': this.distribution[1],
        '3': this.distribution[2],
        '4': this.distribution[3],
        '5': this.distribution[4],
      },
      reply_count: this.replied,
      reply_rate: this.count === 0 ? null : round3(this.replied / this.count),
      median_reply_days: median(this.replyDays),
      aspects: Object.fromEntries(
        ASPECT_IDS.map((id, i): [AspectId, AspectCounts] => [
          id,
          { positive: this.positive[i], neutral: this.neutral[i], negative: this.negative[i] },
        ]),
      ) as TrendPeriod['aspects'],
    };
  }

  window(from: number, to: number): RecentWindow {
    const { distribution: _distribution, aspects: _aspects, ...figures } = this.period();
    return {
      from: isoOfDay(from),
      to: isoOfDay(to),
      ...figures,
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
              score: mentions === 0 ? null : round3(this.scoreSum[i] / mentions),
            },
          ];
        }),
      ) as RecentWindow['aspects'],
    };
  }
}

const ASPECT_INDEX = new Map<AspectId, number>(ASPECT_IDS.map((id, i) => [id, i]));

const monthIndex = (date: string) => Number(date.slice(0, 4)) * 12 + Number(date.slice(5, 7)) - 1;
const quarterIndex = (date: string) => Number(date.slice(0, 4)) * 4 + Math.floor((Number(date.slice(5, 7)) - 1) / 3);
const monthLabel = (index: number) => `${Math.floor(index / 12)}-${String((index % 12) + 1).padStart(2, '0')}`;
const quarterLabel = (index: number) => `${Math.floor(index / 4)}-Q${(index % 4) + 1}`;

/** A difference of two figures, null unless both exist; rounded as the figures are. */
function change(now: number | null, then: number | null, round: (x: number) => number): number | null {
  return now === null || then === null ? null : round(now - then);
}

/** The trends of a set of reviews, in any order. */
export function buildTrends(reviews: readonly TrendReview[]): Trends {
  if (reviews.length === 0) return { months: [], quarters: [], recent: null };
  let first = reviews[0].date;
  let last = reviews[0].date;
  for (const r of reviews) {
    if (r.date < first) first = r.date;
    if (r.date > last) last = r.date;
  }
  const firstMonth = monthIndex(first);
  const firstQuarter = quarterIndex(first);
  const months = Array.from({ length: monthIndex(last) - firstMonth + 1 }, () => new Bucket());
  const quarters = Array.from({ length: quarterIndex(last) - firstQuarter + 1 }, () => new Bucket());
  // The current window is the newest review's day and the 89 before it; the previous, the 90 days before those.
  const end = epochDay(last);
  const currentFrom = end - RECENT_DAYS + 1;
  const previousFrom = currentFrom - RECENT_DAYS;
  const current = new Bucket();
  const previous = new Bucket();
  for (const r of reviews) {
    months[monthIndex(r.date) - firstMonth].add(r);
    quarters[quarterIndex(r.date) - firstQuarter].add(r);
    const day = epochDay(r.date);
    if (day >= currentFrom) current.add(r);
    else if (day >= previousFrom) previous.add(r);
  }
  const now = current.window(currentFrom, end);
  const then = previous.window(previousFrom, currentFrom - 1);
  return {
    months: months.map((b, i) => ({ month: monthLabel(firstMonth + i), ...b.period() })),
    quarters: quarters.map((b, i) => ({ quarter: quarterLabel(firstQuarter + i), ...b.period() })),
    recent: {
      days: RECENT_DAYS,
      current: now,
      previous: then,
      change: {
        review_count: now.review_count - then.review_count,
        average_rating: change(now.average_rating, then.average_rating, (x) => roundTo(x, 2)),
        reply_rate: change(now.reply_rate, then.reply_rate, round3),
        median_reply_days: change(now.median_reply_days, then.median_reply_days, (x) => x),
        aspects: Object.fromEntries(
          ASPECT_IDS.map((id) => [id, change(now.aspects[id].score, then.aspects[id].score, round3)]),
        ) as Record<AspectId, number | null>,
      },
    },
  };
}

/** Name → decimals used when the placeholder names none: the figures of `recent` the summary may quote. */
export const TREND_FIGURES = {
  review_count_90d: 0,
  review_count_change_90d: 0,
  average_rating_90d: 2,
  rating_change_90d: 2,
  percent_replied_90d: 0,
  median_reply_days_90d: 0,
} as const;

/**
 * The summary's figures of the last 90 days. A figure of a window without
 * reviews (or replies) is 0, so a quiet quarter never fails the build.
 */
export function trendFigures(trends: Trends): Record<keyof typeof TREND_FIGURES, number> {
  const r = trends.recent;
  return {
    review_count_90d: r?.current.review_count ?? 0,
    review_count_change_90d: r?.change.review_count ?? 0,
    average_rating_90d: r?.current.average_rating ?? 0,
    rating_change_90d: r?.change.average_rating ?? 0,
    percent_replied_90d: (r?.current.reply_rate ?? 0) * 100,
    median_reply_days_90d: r?.current.median_reply_days ?? 0,
  };
}

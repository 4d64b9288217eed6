/**
 * The trends drawn: each chart as inline SVG made at build time by Observable
 * Plot over linkedom's DOM (no browser, no client script), with its title, a
 * one-line reading computed from the same figures, and its numbers as a table
 * for screen readers. The SVG is decoration over that table (aria-hidden); it
 * takes its colours from `currentColor` and the page's CSS variables
 * (`--trend-line`, `--trend-bar`, `--trend-pos`, `--trend-neg`), so it follows
 * a light or dark page. Every text in it is set as a DOM text node, so
 * serialisation escapes it.
 */
import * as Plot from '@observablehq/plot';
import { parseHTML } from 'linkedom';
import { displayDate } from '../format/dates.ts';
import type { AspectId } from './lexicon.ts';
import type { AspectCounts, RecentWindow, Trends } from './schema.ts';

export interface ChartTable {
  caption: string;
  /** Column headings; the first column heads the rows. */
  head: string[];
  rows: string[][];
}

export interface TrendChart {
  id: string;
  title: string;
  reading: string;
  /** The chart's <svg> element as HTML, with fixed width and height attributes. */
  svg: string;
  table: ChartTable;
}

interface AspectMultiple {
  id: AspectId;
  label: string;
  reading: string;
  svg: string;
}

export interface TrendCharts {
  /** The two windows the readings compare, in words ("August 17 to November 14, 2026, against May 19 to August 16, 2026"). */
  windows: string;
  rating: TrendChart;
  volume: TrendChart;
  aspects: Omit<TrendChart, 'svg'> & { multiples: AspectMultiple[] };
  replyRate: TrendChart;
  replyTime: TrendChart;
}

const WIDTH = 480;
const HEIGHT = 200;
const SMALL_WIDTH = 300;
const SMALL_HEIGHT = 150;
const FONT = 'system-ui, -apple-system, "Segoe UI", Roboto, sans-serif';

const { document } = parseHTML('<!doctype html><html><body></body></html>');

/** "2026-Q4" → "Q4 2026". */
const quarterName = (quarter: string) => `${quarter.slice(5)} ${quarter.slice(0, 4)}`;
/** "2026-04" → "April 2026". */
const monthName = (month: string) =>
  monthStart(month).toLocaleDateString('en-US', { timeZone: 'UTC', month: 'long', year: 'numeric' });

function monthStart(month: string): Date {
  return new Date(Date.UTC(Number(month.slice(0, 4)), Number(month.slice(5, 7)) - 1, 1));
}

function quarterStart(quarter: string): Date {
  return new Date(Date.UTC(Number(quarter.slice(0, 4)), (Number(quarter.slice(6)) - 1) * 3, 1));
}

/** The middle of a quarter: where its point sits on a time axis. */
function quarterMiddle(quarter: string): Date {
  const start = quarterStart(quarter);
  return new Date(Date.UTC(start.getUTCFullYear(), start.getUTCMonth() + 1, 15));
}

const percent = (share: number) => `${Math.round(share * 100)}%`;
const plural = (n: number, word: string) => `${n.toLocaleString('en-US')} ${word}${n === 1 ? '' : 's'}`;

/** Renders one Plot chart as an SVG string, hidden from assistive technology (its table carries the numbers). */
function render(options: Plot.PlotOptions): string {
  const svg = Plot.plot({
    document,
    style: { fontFamily: FONT, fontSize: '12px', background: 'transparent', color: 'inherit', overflow: 'visible' },
    ...options,
  }) as unknown as Element;
  svg.setAttribute('aria-hidden', 'true');
  svg.setAttribute('focusable', 'false');
  return svg.outerHTML;
}

/** The x scale all the time charts share: the first month's start to the last month's end. */
function timeDomain(trends: Trends): [Date, Date] {
  const first = monthStart(trends.months[0].month);
  const last = monthStart(trends.months.at(-1)!.month);
  return [first, new Date(Date.UTC(last.getUTCFullYear(), last.getUTCMonth() + 1, 1))];
}

/** Year ticks when the span is long, else quarter starts: few enough that their labels never collide. */
function timeTicks(domain: [Date, Date], width: number): Date[] {
  const years = domain[1].getUTCFullYear() - domain[0].getUTCFullYear() + 1;
  const room = Math.floor(width / 70);
  const ticks: Date[] = [];
  if (years > room / 4 || years > 2) {
    const step = Math.max(1, Math.ceil(years / room));
    for (
      let y = domain[0].getUTCFullYear() + (domain[0].getUTCMonth() === 0 ? 0 : 1);
      y <= domain[1].getUTCFullYear();
      y += step
    ) {
      const tick = new Date(Date.UTC(y, 0, 1));
      if (tick >= domain[0] && tick <= domain[1]) ticks.push(tick);
    }
    return ticks;
  }
  for (
    let t = new Date(domain[0]);
    t <= domain[1];
    t = new Date(Date.UTC(t.getUTCFullYear(), t.getUTCMonth() + 3, 1))
  ) {
    if (t.getUTCMonth() % 3 === 0) ticks.push(t);
  }
  return ticks;
}

function timeX(domain: [Date, Date], width: number): Plot.ScaleOptions {
  const ticks = timeTicks(domain, width);
  const yearly =
    ticks.every((t) => t.getUTCMonth() === 0) &&
    ticks.length > 0 &&
    ticks.length < (domain[1].getUTCFullYear() - domain[0].getUTCFullYear()) * 4;
  return {
    type: 'utc',
    domain,
    label: null,
    ticks,
    tickFormat: (d: Date) =>
      yearly || d.getUTCMonth() === 0 ? String(d.getUTCFullYear()) : `Q${d.getUTCMonth() / 3 + 1}`,
  };
}

/** "up 0.20", "down 0.05", "unchanged". */
function moved(change: number, format: (n: number) => string): string {
  if (change === 0) return 'unchanged';
  return `${change > 0 ? 'up' : 'down'} ${format(Math.abs(change))}`;
}

/** The reading of a figure of both windows: compared when both have it, else what there is. */
function compared(
  now: number | null,
  then: number | null,
  both: (now: number, then: number) => string,
  onlyNow: (now: number) => string,
  none: string,
): string {
  if (now === null) return none;
  return then === null ? onlyNow(now) : both(now, then);
}

/** Every chart of the trends page. `labels`: each aspect's label (editorial text: it stays text). */
export function trendCharts(
  trends: Trends,
  labels: ReadonlyArray<{ id: AspectId; label: string }>,
): TrendCharts | null {
  const recent = trends.recent;
  if (!recent || trends.months.length === 0) return null;
  const domain = timeDomain(trends);
  const { current: now, previous: then } = recent;
  const recentLabel = `the last ${recent.days} days`;
  const before = `the ${recent.days} days before`;
  const quarters = trends.quarters.map((q) => ({ ...q, at: quarterMiddle(q.quarter) }));
  const wideX = timeX(domain, WIDTH);
  const wide = (marginLeft: number, y: Plot.ScaleOptions, marks: Plot.Markish[]) =>
    render({ width: WIDTH, height: HEIGHT, marginLeft, x: wideX, y, marks });
  /** A quarterly figure as a line, with a dot on each quarter that has it. */
  const quarterLine = (field: 'average_rating' | 'reply_rate', marginLeft: number, y: Plot.ScaleOptions) =>
    wide(marginLeft, y, [
      Plot.lineY(quarters, {
        x: 'at',
        y: (q: (typeof quarters)[number]) => q[field] ?? NaN,
        stroke: 'var(--trend-line)',
        strokeWidth: 2,
      }),
      Plot.dot(
        quarters.filter((q) => q[field] !== null),
        { x: 'at', y: field, fill: 'var(--trend-line)', r: 3 },
      ),
    ]);

  // Average rating by quarter, 1 to 5.
  const rating: TrendChart = {
    id: 'trend-rating',
    title: 'Average rating by quarter',
    reading: compared(
      now.average_rating,
      then.average_rating,
      (a, b) =>
        `Rating ${moved(recent.change.average_rating!, (n) => n.toFixed(2))} in ${recentLabel}: ${a.toFixed(2)} from ${plural(now.review_count, 'review')}, against ${b.toFixed(2)} from ${plural(then.review_count, 'review')} in ${before}.`,
      (a) => `${a.toFixed(2)} from ${plural(now.review_count, 'review')} in ${recentLabel}; no reviews in ${before}.`,
      `No reviews in ${recentLabel}.`,
    ),
    svg: quarterLine('average_rating', 40, {
      domain: [1, 5],
      ticks: [1, 2, 3, 4, 5],
      tickFormat: (n: number) => String(n),
      grid: true,
      label: null,
    }),
    table: {
      caption: 'Average rating by quarter',
      head: ['Quarter', 'Reviews', 'Average rating'],
      rows: trends.quarters.map((q) => [
        quarterName(q.quarter),
        String(q.review_count),
        q.average_rating === null ? '—' : q.average_rating.toFixed(2),
      ]),
    },
  };

  // Reviews per month.
  const months = trends.months.map((m) => ({ ...m, at: monthStart(m.month) }));
  const busiest = trends.months.reduce((a, b) => (b.review_count > a.review_count ? b : a));
  const countChange = recent.change.review_count;
  const volume: TrendChart = {
    id: 'trend-volume',
    title: 'Reviews per month',
    reading: `${plural(now.review_count, 'review')} in ${recentLabel}, ${countChange === 0 ? 'as many as' : `${Math.abs(countChange).toLocaleString('en-US')} ${countChange > 0 ? 'more' : 'fewer'} than`} in ${before}; busiest month: ${monthName(busiest.month)} (${busiest.review_count.toLocaleString('en-US')}).`,
    svg: wide(
      48,
      { grid: true, label: null, tickFormat: (n: number) => (Number.isInteger(n) ? n.toLocaleString('en-US') : '') },
      [
        Plot.rectY(months, { x: 'at', y: 'review_count', interval: 'month', fill: 'var(--trend-bar)', inset: 0.5 }),
        Plot.ruleY([0]),
      ],
    ),
    table: {
      caption: 'Reviews per month',
      head: ['Month', 'Reviews'],
      rows: trends.months.map((m) => [monthName(m.month), m.review_count.toLocaleString('en-US')]),
    },
  };

  // Each aspect's positive sentences (up) and negative ones (down) by quarter, small multiples on one scale.
  const counts = labels.map(({ id }) => quarters.map((q) => ({ at: q.at, ...q.aspects[id] })));
  const tallest = Math.max(1, ...counts.flat().map((c) => Math.max(c.positive, c.negative)));
  const smallX = timeX(domain, SMALL_WIDTH);
  const multiples: AspectMultiple[] = labels.map(({ id, label }, index) => {
    const share = (w: RecentWindow) => {
      const a = w.aspects[id];
      return a.mentions === 0 ? null : a.positive / a.mentions;
    };
    const shareNow = share(now);
    const shareThen = share(then);
    const reading =
      shareNow === null
        ? `Not mentioned in ${recentLabel}.`
        : `${percent(shareNow)} of ${plural(now.aspects[id].mentions, 'sentence')} positive in ${recentLabel}` +
          (shareThen === null
            ? `; not mentioned in ${before}.`
            : `, ${moved(Math.round(shareNow * 100) - Math.round(shareThen * 100), (n) => `${n} point${n === 1 ? '' : 's'}`)} on ${before} (${percent(shareThen)} of ${then.aspects[id].mentions}).`);
    return {
      id,
      label,
      reading,
      svg: render({
        width: SMALL_WIDTH,
        height: SMALL_HEIGHT,
        marginLeft: 40,
        marginRight: 12,
        x: smallX,
        y: {
          domain: [-tallest, tallest],
          ticks: [-tallest, 0, tallest],
          tickFormat: (n: number) => Math.abs(n).toLocaleString('en-US'),
          grid: true,
          label: null,
        },
        marks: [
          Plot.rectY(counts[index], {
            x: 'at',
            y: 'positive',
            interval: '3 months',
            fill: 'var(--trend-pos)',
            inset: 0.5,
          }),
          Plot.rectY(counts[index], {
            x: 'at',
            y: (c: AspectCounts) => -c.negative,
            interval: '3 months',
            fill: 'var(--trend-neg)',
            inset: 0.5,
          }),
          Plot.ruleY([0]),
        ],
      }),
    };
  });
  const cell = (c: { positive: number; neutral: number; negative: number }) => {
    const mentions = c.positive + c.neutral + c.negative;
    return mentions === 0 ? '—' : `${c.positive} positive, ${c.neutral} neutral, ${c.negative} negative`;
  };
  const aspects: TrendCharts['aspects'] = {
    id: 'trend-aspects',
    title: 'Each part of the job by quarter',
    reading:
      'Bars above the line count the positive sentences about each part of the job in a quarter, bars below it the negative ones; every chart has the same scale.',
    multiples,
    table: {
      caption: 'Sentences about each part of the job by quarter: positive, neutral and negative',
      head: ['Quarter', ...labels.map((l) => l.label)],
      rows: trends.quarters.map((q) => [quarterName(q.quarter), ...labels.map((l) => cell(q.aspects[l.id]))]),
    },
  };

  // Share of reviews answered by quarter.
  const replyRate: TrendChart = {
    id: 'trend-reply-rate',
    title: 'Share of reviews answered, by quarter',
    reading: compared(
      now.reply_rate,
      then.reply_rate,
      (a, b) => `${percent(a)} of the reviews of ${recentLabel} answered, against ${percent(b)} in ${before}.`,
      (a) => `${percent(a)} of the reviews of ${recentLabel} answered; no reviews in ${before}.`,
      `No reviews in ${recentLabel}.`,
    ),
    svg: quarterLine('reply_rate', 48, {
      domain: [0, 1],
      ticks: [0, 0.25, 0.5, 0.75, 1],
      tickFormat: (n: number) => `${Math.round(n * 100)}%`,
      grid: true,
      label: null,
    }),
    table: {
      caption: 'Share of reviews answered by quarter',
      head: ['Quarter', 'Reviews', 'Answered', 'Share answered'],
      rows: trends.quarters.map((q) => [
        quarterName(q.quarter),
        String(q.review_count),
        String(q.reply_count),
        q.reply_rate === null ? '—' : percent(q.reply_rate),
      ]),
    },
  };

  // Median days to reply by quarter.
  const timed = quarters.filter((q) => q.median_reply_days !== null);
  const days = (n: number) => `${n.toLocaleString('en-US')} day${n === 1 ? '' : 's'}`;
  const replyTime: TrendChart = {
    id: 'trend-reply-time',
    title: 'Median days to reply, by quarter',
    reading: compared(
      now.median_reply_days,
      then.median_reply_days,
      (a, b) => `Replies in ${recentLabel} came after a median of ${days(a)}, against ${days(b)} in ${before}.`,
      (a) => `Replies in ${recentLabel} came after a median of ${days(a)}; no replies in ${before}.`,
      `No review of ${recentLabel} has a reply yet.`,
    ),
    svg: wide(
      48,
      { grid: true, label: null, zero: true, tickFormat: (n: number) => (Number.isInteger(n) ? String(n) : '') },
      [
        Plot.rectY(timed, {
          x: 'at',
          y: 'median_reply_days',
          interval: '3 months',
          fill: 'var(--trend-bar)',
          inset: 2,
        }),
        Plot.ruleY([0]),
      ],
    ),
    table: {
      caption: 'Median days to reply by quarter',
      head: ['Quarter', 'Replies', 'Median days to reply'],
      rows: trends.quarters.map((q) => [
        quarterName(q.quarter),
        String(q.reply_count),
        q.median_reply_days === null ? '—' : String(q.median_reply_days),
      ]),
    },
  };

  const windows = `${displayDate(now.from)} to ${displayDate(now.to)} (the newest review's day), against ${displayDate(then.from)} to ${displayDate(then.to)}`;
  return { windows, rating, volume, aspects, replyRate, replyTime };
}

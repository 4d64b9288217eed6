/**
 * The trends drawn: each chart as inline SVG made at build time by Observable
 * Plot over linkedom's DOM (no browser, no client script), with its title, a
 * reading in words computed from the same figures, its numbers as a table and
 * as a CSV file (trends-csv.ts).
 *
 * A chart is drawn at a few widths (SIZES) and the page shows the one that fits
 * its column (a media query): an SVG scales with its column, and one drawn
 * for a desktop column would shrink its text below 12 px on a phone, one drawn
 * for a phone would blow it up on a desktop. Each width's text stays between
 * 12 and ~20 px over the column widths it is shown at.
 *
 * Each value is a mark with a <title> (the browser shows it on hover); the SVG
 * is hidden from assistive technology, which reads the table instead. Colours
 * come from `currentColor` and the site's tokens (--positive, --negative), so
 * the charts follow a light or dark page; negative bars are also hatched.
 * Every text is set as a DOM text node, so serialisation escapes it.
 */
import * as Plot from '@observablehq/plot';
import { addDays } from 'date-fns/addDays';
import { format } from 'date-fns/format';
import { parseISO } from 'date-fns/parseISO';
import { parseHTML } from 'linkedom';
import { displayDate } from '../format/dates.ts';
import type { AspectId } from './lexicon.ts';
import type { Comparison, Trends } from './schema.ts';

export interface ChartTable {
  caption: string;
  /** Column headings; the first column heads the rows. */
  head: string[];
  rows: string[][];
}

/** One drawing of a chart, shown from a screen `from` px wide (until the next's). */
export interface ChartDrawing {
  width: number;
  height: number;
  from: number;
  svg: string;
}

/** A legend entry: what a line or bar style means (drawn in HTML beside the chart). */
export interface LegendEntry {
  label: string;
  /** The mark's look: line or dashed line, solid or hatched bar, and its colour. */
  style: 'line-ink' | 'line-positive' | 'dashed-ink' | 'dashed-negative' | 'bar-positive' | 'hatched-negative';
}

export interface TrendChart {
  id: string;
  title: string;
  reading: string;
  drawings: ChartDrawing[];
  legend: LegendEntry[];
  table: ChartTable;
  /** The CSV file of the chart's data (trends-csv.ts), by name. */
  csv: string;
}

interface AspectMultiple {
  id: AspectId;
  label: string;
  reading: string;
  drawings: ChartDrawing[];
}

export interface TrendCharts {
  /** The current window in words ("August 17 to November 14, 2026"). */
  window: string;
  anchor: string;
  velocity: TrendChart;
  volume: TrendChart;
  rating: TrendChart;
  replyRate: TrendChart;
  replyTime: TrendChart;
  aspects: Omit<TrendChart, 'drawings'> & { multiples: AspectMultiple[] };
}

/**
 * Drawing widths and the screen width each is shown from (trends.astro's media queries): the
 * column is the screen less 32 px, so each is shown at 0.93× or more of its drawn width.
 */
const SIZES = [
  { width: 300, from: 0 },
  { width: 450, from: 452 },
  { width: 760, from: 732 },
] as const;
/** Small multiples sit in grid cells 17 to 26rem wide: one drawing. */
const MULTIPLE_SIZES = SIZES.slice(0, 1);
/** Drawn text size; shown at 0.93× to ~1.4× (SIZES), so never under 12 px. */
const FONT_PX = 14;
const FONT = 'system-ui, -apple-system, "Segoe UI", Roboto, sans-serif';

const { document } = parseHTML('<!doctype html><html><body></body></html>');

const MINUS = '\u2212';
/** A number as the axes and tables write it: thousands grouped, a true minus sign. */
export const num = (n: number, digits = 0) =>
  `${n < 0 ? MINUS : ''}${Math.abs(n).toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits })}`;
const signedNum = (n: number, digits = 0) => (n > 0 ? `+${num(n, digits)}` : num(n, digits));
const percent = (share: number) => `${Math.round(share * 100)}%`;
/** "1 review", "2 replies". */
const plural = (n: number, word: string) =>
  `${num(n)} ${n === 1 ? word : word.endsWith('y') ? `${word.slice(0, -1)}ies` : `${word}s`}`;

/** "2026-Q4" → "Q4 2026". */
const quarterName = (quarter: string) => `${quarter.slice(5)} ${quarter.slice(0, 4)}`;
/** "2026-04" → "April 2026". */
const monthName = (month: string) => format(parseISO(`${month}-01`), 'MMMM yyyy');
/** "2026-11-09" → "Nov 9". */
const weekName = (day: string) => format(parseISO(day), 'MMM d');

/** Position on the time axes: years as numbers, so every year is a tick and no time zone is involved. */
const monthAt = (month: string) => Number(month.slice(0, 4)) + (Number(month.slice(5, 7)) - 1) / 12;
const quarterAt = (quarter: string) => Number(quarter.slice(0, 4)) + (Number(quarter.slice(6)) - 1) / 4;

interface Frame {
  width: number;
  height: number;
}

/** Renders one Plot chart as SVG markup, hidden from assistive technology (its table carries the numbers). */
function render(options: Plot.PlotOptions, patternId?: string): string {
  const svg = Plot.plot({
    document,
    style: {
      fontFamily: FONT,
      fontSize: `${FONT_PX}px`,
      background: 'transparent',
      color: 'inherit',
      overflow: 'visible',
    },
    ...options,
  }) as unknown as Element;
  svg.setAttribute('aria-hidden', 'true');
  svg.setAttribute('focusable', 'false');
  // Plot writes the CSS value `tabular-nums` as an SVG attribute, which SVG has no such value for
  // (the Nu Html Checker rejects it); the page's CSS sets font-variant-numeric instead.
  for (const element of [svg, ...svg.querySelectorAll('[font-variant]')]) element.removeAttribute('font-variant');
  // Plot's own <style> sets colours the page already sets; it is the same in every chart, so it goes.
  for (const style of svg.querySelectorAll('style')) style.remove();
  svg.removeAttribute('class');
  if (patternId) svg.insertAdjacentHTML('afterbegin', hatch(patternId));
  return svg.outerHTML;
}

/** Diagonal hatching in the negative colour: bars below the line read as negative without colour too. */
function hatch(id: string): string {
  return `<defs><pattern id="${id}" width="6" height="6" patternUnits="userSpaceOnUse" patternTransform="rotate(45)"><rect width="6" height="6" fill="var(--negative)" fill-opacity="0.35"></rect><rect width="2.5" height="6" fill="var(--negative)"></rect></pattern></defs>`;
}

/**
 * An x axis of whole years: a long tick between years, a short one between quarters, and each
 * year's label under the middle of its year ("2024", or "’24" where a year is narrow; every other
 * year only where even that would collide).
 */
function yearAxis(first: number, last: number, frame: Frame): { x: Plot.ScaleOptions; marks: Plot.Markish[] } {
  const from = Math.floor(first);
  const to = Math.floor(last) + 1;
  const bounds = Array.from({ length: to - from + 1 }, (_, i) => from + i);
  const quarters = Array.from({ length: (to - from) * 4 + 1 }, (_, i) => from + i / 4).filter((q) => q % 1 !== 0);
  const yearWidth = (frame.width - 70) / (to - from);
  const short = yearWidth < 48;
  const every = Math.ceil((short ? 30 : 44) / yearWidth);
  const middles = bounds
    .slice(0, -1)
    .filter((y) => (to - 1 - y) % every === 0)
    .map((y) => y + 0.5);
  return {
    x: { domain: [from, to], label: null, axis: null },
    marks: [
      Plot.axisX(quarters, { tickSize: 4, tickFormat: () => '', label: null, strokeOpacity: 0.6 }),
      Plot.axisX(bounds, { tickSize: 8, tickFormat: () => '', label: null }),
      Plot.axisX(middles, {
        tickSize: 0,
        tickPadding: 10,
        tickFormat: (y: number) => (short ? `’${String(Math.floor(y)).slice(2)}` : String(Math.floor(y))),
        label: 'Year',
        labelAnchor: 'right',
        labelArrow: 'none',
        labelOffset: 38,
      }),
    ],
  };
}

const BEFORE = 'the 90 days before';
const YEAR_AGO = 'the same 90 days a year earlier';
/** A comparison as a reading quotes it: its sentence, or what was too small to compare with. */
const said = (v: Comparison['vs_previous'], then: string) =>
  v.direction === 'not_enough_reviews' ? `not enough reviews to compare with ${then}` : v.text;

const comparisonOf = (trends: Trends, id: string): Comparison => trends.recent!.comparisons.find((c) => c.id === id)!;

/** The busiest month(s) in words, ties said as ties. */
function busiestWords(trends: Trends): string {
  const b = trends.busiest_month!;
  const n = plural(b.review_count, 'review');
  if (b.months.length === 1) return `the busiest month was ${monthName(b.months[0])} (${n})`;
  if (b.months.length === b.of) return `every month had the same count (${n})`;
  if (b.months.length <= 3)
    return `the busiest months, tied at ${n} each, were ${b.months
      .map(monthName)
      .join(b.months.length === 2 ? ' and ' : ', ')
      .replace(/, ([^,]+)$/, ' and $1')}`;
  return `the most in one month was ${n}, reached in ${b.months.length} of the ${b.of} months (the latest ${monthName(b.months.at(-1)!)})`;
}

/** Every chart of the trends page. `labels`: each aspect's label (editorial text: it stays text). */
export function trendCharts(
  trends: Trends,
  labels: ReadonlyArray<{ id: AspectId; label: string }>,
): TrendCharts | null {
  const recent = trends.recent;
  if (!recent || trends.months.length === 0) return null;
  const { current: now } = recent;
  const first = monthAt(trends.months[0].month);
  const last = monthAt(trends.months.at(-1)!.month);
  const quarters = trends.quarters.map((q) => ({ ...q, at: quarterAt(q.quarter) + 0.125 }));
  const draw = (
    sizes: readonly { width: number; from: number }[],
    height: (width: number) => number,
    plot: (frame: Frame) => Plot.PlotOptions,
    pattern?: string,
  ): ChartDrawing[] =>
    sizes.map(({ width, from }, i) => {
      const frame = { width, height: height(width) };
      return {
        width,
        height: frame.height,
        from,
        svg: render({ ...frame, ...plot(frame) }, pattern ? `${pattern}-${i}` : undefined),
      };
    });
  const timeHeight = (width: number) => Math.round(Math.max(220, Math.min(320, width * 0.42)));
  /** A chart over the years: the axis of years and the chart's own marks. */
  const overTime = (frame: Frame, y: Plot.ScaleOptions, marks: Plot.Markish[], marginLeft = 52): Plot.PlotOptions => {
    const axis = yearAxis(first, last, frame);
    return {
      marginLeft,
      marginRight: 16,
      marginTop: 30,
      marginBottom: 44,
      x: axis.x,
      y: { labelAnchor: 'top', labelArrow: 'none', grid: true, ...y },
      marks: [...marks, ...axis.marks],
    };
  };

  // Reviews per week, the last 12 weeks: one labelled bar per week.
  const weekRows = trends.weeks.map((w) => ({ ...w, name: weekName(w.week) }));
  const weeklyMean = trends.weeks.reduce((s, w) => s + w.review_count, 0) / trends.weeks.length;
  const velocity: TrendChart = {
    id: 'trend-velocity',
    title: 'Reviews per week, the last 12 weeks',
    reading: `${num(weeklyMean, 1)} reviews a week on average over the 12 weeks to ${displayDate(trends.weeks.at(-1)!.to)}; the newest week ends after the newest review, so it may still be filling.`,
    drawings: draw(
      SIZES,
      () => 40 + 26 * weekRows.length + 40,
      () => ({
        marginLeft: 64,
        marginRight: 40,
        marginTop: 34,
        marginBottom: 40,
        y: {
          type: 'band',
          domain: weekRows.map((w) => w.name),
          label: 'Week from',
          labelAnchor: 'top',
          labelArrow: 'none',
          padding: 0.25,
        },
        x: {
          label: 'Reviews',
          labelAnchor: 'right',
          labelArrow: 'none',
          grid: true,
          ...countScale(Math.max(...weekRows.map((w) => w.review_count))),
        },
        marks: [
          Plot.barX(weekRows, {
            y: 'name',
            x: 'review_count',
            fill: 'var(--positive)',
            title: (w: (typeof weekRows)[number]) =>
              `${plural(w.review_count, 'review')} in the week of ${displayDate(w.week)} to ${displayDate(w.to)}`,
          }),
          Plot.text(weekRows, {
            y: 'name',
            x: 'review_count',
            text: (w: (typeof weekRows)[number]) => num(w.review_count),
            textAnchor: 'start',
            dx: 4,
            fill: 'currentColor',
          }),
          Plot.ruleX([0]),
        ],
      }),
    ),
    legend: [],
    table: {
      caption: 'Reviews per week, the last 12 weeks (weeks run Monday to Sunday)',
      head: ['Week', 'Reviews'],
      rows: trends.weeks.map((w) => [`${displayDate(w.week)} to ${displayDate(w.to)}`, num(w.review_count)]),
    },
    csv: 'reviews-by-week.csv',
  };

  // Reviews per month.
  const months = trends.months.map((m) => ({ ...m, at: monthAt(m.month) }));
  // The newest month ends on the anchor: unless that is its last day, its bar is lighter and says so.
  const anchorDay = parseISO(trends.anchor!);
  const partial =
    format(addDays(anchorDay, 1), 'yyyy-MM') === trends.anchor!.slice(0, 7) ? trends.anchor!.slice(0, 7) : null;
  const partialWords = partial ? ` (to ${format(anchorDay, 'MMMM d')}, the newest review's date)` : '';
  const countChange = recent.change.review_count;
  const volume: TrendChart = {
    id: 'trend-volume',
    title: 'Reviews per month',
    reading: `${plural(now.review_count, 'review')} in the last 90 days, ${countChange === 0 ? 'as many as' : `${num(Math.abs(countChange))} ${countChange > 0 ? 'more' : 'fewer'} than`} in the 90 days before; ${busiestWords(trends)}.${partial ? ` ${monthName(partial)} is counted to ${format(anchorDay, 'MMMM d')}, the newest review's date (the lighter bar).` : ''}`,
    drawings: draw(SIZES, timeHeight, (frame) =>
      overTime(
        frame,
        {
          label: 'Reviews per month',
          ...countScale(Math.max(...months.map((m) => m.review_count))),
        },
        [
          Plot.rectY(months, {
            x1: 'at',
            x2: (m: (typeof months)[number]) => m.at + 1 / 12,
            y: 'review_count',
            fill: 'var(--positive)',
            fillOpacity: (m: (typeof months)[number]) => (m.month === partial ? 0.45 : 1),
            inset: frame.width / months.length > 4 ? 0.5 : 0,
            title: (m: (typeof months)[number]) =>
              `${monthName(m.month)}${m.month === partial ? partialWords : ''}: ${plural(m.review_count, 'review')}`,
          }),
          Plot.ruleY([0]),
        ],
      ),
    ),
    legend: [],
    table: {
      caption: 'Reviews per month',
      head: ['Month', 'Reviews'],
      rows: trends.months.map((m) => [monthName(m.month), num(m.review_count)]),
    },
    csv: 'reviews-by-month.csv',
  };

  /** A quarterly figure as a line with a titled dot on each quarter that has it. */
  const quarterLine = (
    value: (q: (typeof quarters)[number]) => number | null,
    title: (q: (typeof quarters)[number], v: number) => string,
    options: { stroke?: string; dashed?: boolean; hollow?: boolean } = {},
  ): Plot.Markish[] => {
    const stroke = options.stroke ?? 'currentColor';
    const points = quarters.filter((q) => value(q) !== null);
    return [
      Plot.lineY(quarters, {
        x: 'at',
        y: (q: (typeof quarters)[number]) => value(q) ?? NaN,
        stroke,
        strokeWidth: 2,
        ...(options.dashed ? { strokeDasharray: '6 4' } : {}),
      }),
      Plot.dot(points, {
        x: 'at',
        y: (q: (typeof quarters)[number]) => value(q),
        r: 3.5,
        stroke,
        strokeWidth: 1.5,
        fill: options.hollow ? 'var(--paper, white)' : stroke,
        title: (q: (typeof quarters)[number]) => title(q, value(q)!),
      }),
    ];
  };

  // Average rating by quarter, 1 to 5.
  const ratingVs = comparisonOf(trends, 'average_rating');
  const rating: TrendChart = {
    id: 'trend-rating',
    title: 'Average rating by quarter',
    reading: `Average rating in the last 90 days: ${now.average_rating === null ? 'no reviews' : `${num(now.average_rating, 2)} stars from ${plural(now.review_count, 'review')}`}; ${said(ratingVs.vs_previous, BEFORE)}; ${said(ratingVs.vs_year_ago, YEAR_AGO)}.`,
    drawings: draw(SIZES, timeHeight, (frame) =>
      overTime(
        frame,
        {
          domain: [1, 5],
          ticks: [1, 2, 3, 4, 5],
          tickFormat: (n: number) => num(n),
          label: 'Average rating (stars, 1 to 5)',
        },
        quarterLine(
          (q) => q.average_rating,
          (q, v) => `${quarterName(q.quarter)}: ${num(v, 2)} stars from ${plural(q.review_count, 'review')}`,
        ),
        36,
      ),
    ),
    legend: [],
    table: {
      caption: 'Average rating by quarter',
      head: ['Quarter', 'Reviews', 'Average rating'],
      rows: trends.quarters.map((q) => [
        quarterName(q.quarter),
        num(q.review_count),
        q.average_rating === null ? '—' : num(q.average_rating, 2),
      ]),
    },
    csv: 'rating-by-quarter.csv',
  };

  // Share answered by quarter: 1–2★ reviews apart from the rest.
  const rateVs = comparisonOf(trends, 'reply_rate');
  const lowVs = comparisonOf(trends, 'low_rated_reply_rate');
  const replyRate: TrendChart = {
    id: 'trend-reply-rate',
    title: 'Share of reviews answered, by quarter',
    reading:
      `${now.reply_rate === null ? 'No reviews' : `${percent(now.reply_rate)} of the reviews`} of the last 90 days answered (${said(rateVs.vs_previous, BEFORE)}); ` +
      (now.low_rated_reply_rate === null
        ? 'there were no 1–2★ reviews.'
        : `of the ${plural(now.low_rated_count, '1–2★ review')}, ${percent(now.low_rated_reply_rate)} answered (${said(lowVs.vs_previous, BEFORE)}).`),
    drawings: draw(SIZES, timeHeight, (frame) =>
      overTime(
        frame,
        {
          domain: [0, 1],
          ticks: [0, 0.25, 0.5, 0.75, 1],
          tickFormat: (n: number) => percent(n),
          label: 'Reviews answered (%)',
        },
        [
          ...quarterLine(
            (q) => q.other_reply_rate,
            (q, v) => `${quarterName(q.quarter)}: ${percent(v)} of the 3–5★ reviews answered`,
          ),
          ...quarterLine(
            (q) => q.low_rated_reply_rate,
            (q, v) =>
              `${quarterName(q.quarter)}: ${percent(v)} of ${plural(q.low_rated_count, '1–2★ review')} answered`,
            { stroke: 'var(--negative)', dashed: true, hollow: true },
          ),
        ],
      ),
    ),
    legend: [
      { label: '3–5★ reviews', style: 'line-ink' },
      { label: '1–2★ reviews', style: 'dashed-negative' },
    ],
    table: {
      caption: 'Share of reviews answered by quarter, 1–2★ reviews apart',
      head: ['Quarter', 'Reviews', 'Answered', 'Share answered', '1–2★ reviews', '1–2★ answered', '3–5★ answered'],
      rows: trends.quarters.map((q) => [
        quarterName(q.quarter),
        num(q.review_count),
        num(q.reply_count),
        q.reply_rate === null ? '—' : percent(q.reply_rate),
        num(q.low_rated_count),
        q.low_rated_reply_rate === null ? '—' : percent(q.low_rated_reply_rate),
        q.other_reply_rate === null ? '—' : percent(q.other_reply_rate),
      ]),
    },
    csv: 'replies-by-quarter.csv',
  };

  // Hours to reply by quarter: the median and the 90th percentile.
  const hours = (n: number) => `${num(n)} hour${n === 1 ? '' : 's'}`;
  const medianVs = comparisonOf(trends, 'median_reply_hours');
  const replyTime: TrendChart = {
    id: 'trend-reply-time',
    title: 'Hours to reply, by quarter',
    reading:
      now.median_reply_hours === null
        ? 'No review of the last 90 days has a reply yet.'
        : `Replies to the reviews of the last 90 days came after a median of ${hours(now.median_reply_hours)}; 9 in 10 within ${hours(now.p90_reply_hours!)}. The median: ${said(medianVs.vs_previous, BEFORE)}. Reviews carry dates, not times: a reply is counted in whole days of 24 hours.`,
    drawings: draw(SIZES, timeHeight, (frame) =>
      overTime(
        frame,
        {
          label: 'Hours to reply',
          ...countScale(Math.max(0, ...quarters.map((q) => q.p90_reply_hours ?? 0)), 24),
        },
        [
          ...quarterLine(
            (q) => q.p90_reply_hours,
            (q, v) => `${quarterName(q.quarter)}: 9 in 10 replies within ${hours(v)}`,
            { dashed: true, hollow: true },
          ),
          ...quarterLine(
            (q) => q.median_reply_hours,
            (q, v) => `${quarterName(q.quarter)}: median reply after ${hours(v)} (${plural(q.reply_count, 'reply')})`,
            { stroke: 'var(--positive)' },
          ),
          Plot.ruleY([0]),
        ],
      ),
    ),
    legend: [
      { label: 'Median', style: 'line-positive' },
      { label: '90th percentile (9 in 10 replies within)', style: 'dashed-ink' },
    ],
    table: {
      caption: 'Hours to reply by quarter: median and 90th percentile',
      head: ['Quarter', 'Replies', 'Median hours', '90th percentile hours'],
      rows: trends.quarters.map((q) => [
        quarterName(q.quarter),
        num(q.reply_count),
        q.median_reply_hours === null ? '—' : num(q.median_reply_hours),
        q.p90_reply_hours === null ? '—' : num(q.p90_reply_hours),
      ]),
    },
    csv: 'replies-by-quarter.csv',
  };

  // Each aspect's positive sentences (up) and negative ones (down) by quarter, small multiples on one scale.
  const counts = labels.map(({ id }) =>
    quarters.map((q) => ({ at: q.at - 0.125, quarter: q.quarter, ...q.aspects[id] })),
  );
  const tallest = Math.max(1, ...counts.flat().map((c) => Math.max(c.positive, c.negative)));
  const step = niceStep(tallest / 2);
  const top = Math.ceil(tallest / step) * step;
  const yTicks = Array.from({ length: (2 * top) / step + 1 }, (_, i) => -top + i * step);
  const multiples: AspectMultiple[] = labels.map(({ id, label }, index) => {
    const vs = comparisonOf(trends, `positive_share.${id}`);
    const a = now.aspects[id];
    const reading =
      a.mentions === 0
        ? 'Not mentioned in the last 90 days.'
        : `${percent(a.positive_share!)} of ${plural(a.mentions, 'sentence')} positive in the last 90 days; ${said(vs.vs_previous, BEFORE)}.`;
    type Cell = (typeof counts)[number][number];
    return {
      id,
      label,
      reading,
      drawings: draw(
        MULTIPLE_SIZES,
        (width) => Math.round(width * 0.6),
        (frame) =>
          overTime(
            frame,
            {
              domain: [-top, top],
              ticks: yTicks,
              tickFormat: (n: number) => signedNum(n),
              label: 'Sentences (+ positive, − negative)',
            },
            [
              Plot.rectY(counts[index], {
                x1: 'at',
                x2: (c: Cell) => c.at + 0.25,
                y: 'positive',
                fill: 'var(--positive)',
                inset: 0.5,
                title: (c: Cell) => `${quarterName(c.quarter)}: ${plural(c.positive, 'positive sentence')}`,
              }),
              Plot.rectY(counts[index], {
                x1: 'at',
                x2: (c: Cell) => c.at + 0.25,
                y: (c: Cell) => -c.negative,
                fill: `url(#hatch-${id}-0)`,
                stroke: 'var(--negative)',
                strokeWidth: 0.5,
                inset: 0.5,
                title: (c: Cell) => `${quarterName(c.quarter)}: ${plural(c.negative, 'negative sentence')}`,
              }),
              Plot.ruleY([0]),
            ],
            48,
          ),
        `hatch-${id}`,
      ),
    };
  });
  const cell = (c: { positive: number; neutral: number; negative: number }) =>
    c.positive + c.neutral + c.negative === 0 ? '—' : `+${num(c.positive)} / ${num(c.neutral)} / ${num(-c.negative)}`;
  const aspects: TrendCharts['aspects'] = {
    id: 'trend-aspects',
    title: 'Each part of the job by quarter',
    reading:
      'Bars above the line count the positive sentences about each part of the job in a quarter, hatched bars below it the negative ones; every chart has the same scale.',
    multiples,
    legend: [
      { label: 'Positive sentences (above the line)', style: 'bar-positive' },
      { label: 'Negative sentences (below, hatched)', style: 'hatched-negative' },
    ],
    table: {
      caption: 'Sentences about each part of the job by quarter: positive / neutral / negative',
      head: ['Quarter', ...labels.map((l) => l.label)],
      rows: trends.quarters.map((q) => [quarterName(q.quarter), ...labels.map((l) => cell(q.aspects[l.id]))]),
    },
    csv: 'aspects-by-quarter.csv',
  };

  return {
    window: `${displayDate(now.from)} to ${displayDate(now.to)}`,
    anchor: displayDate(trends.anchor!),
    velocity,
    volume,
    rating,
    replyRate,
    replyTime,
    aspects,
  };
}

/** A count axis from 0: whole-number ticks, about four of them, the top one at or above `max`. */
function countScale(
  max: number,
  unit = 1,
): { domain: [number, number]; ticks: number[]; tickFormat: (n: number) => string } {
  const step = Math.max(unit, unit * niceStep(Math.max(max, unit) / unit / 4));
  const top = Math.max(step, Math.ceil(max / step) * step);
  return {
    domain: [0, top],
    ticks: Array.from({ length: top / step + 1 }, (_, i) => i * step),
    tickFormat: (n: number) => num(n),
  };
}

/** The round step (1, 2, 5 × 10ⁿ) next above `raw`. */
function niceStep(raw: number): number {
  const power = 10 ** Math.floor(Math.log10(raw));
  return [1, 2, 5, 10].map((m) => m * power).find((s) => s >= raw) ?? 10 * power;
}

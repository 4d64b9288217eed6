/**
 * insights.json's `trends`: every figure recomputed here from the served
 * reviews.json, by code written apart from src/lib/insights/trends.ts, and
 * compared. Aspect sentence counts are recomputed by running the sentence
 * analyser (analyseText, whose accuracy evaluate.test.ts measures) over each
 * review's title and text, and summed here; at 10k reviews, where that would
 * take long, the months' aspect counts are checked to add up to aspects[].
 * Also: the MCP get_insights section, the summary's 90-day placeholders and
 * hostile labels in the charts.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { after, before, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { parseHTML } from 'linkedom';
import { analyseText } from '../../src/lib/insights/aspects.ts';
import { buildInsights } from '../../src/lib/insights/build.ts';
import { ASPECT_IDS } from '../../src/lib/insights/lexicon.ts';
import { insightsDataset } from '../../src/lib/insights/schema.ts';
import { trendCharts } from '../../src/lib/insights/trends-charts.ts';
import { buildTrends, type TrendReview } from '../../src/lib/insights/trends.ts';
import { startServer, type RunningServer } from '../helpers/server.ts';

interface Review {
  id: string;
  date: string;
  rating: number;
  title?: string;
  text: string;
  author: { name: string };
  response: { date: string; text: string } | null;
}
type Counts = { positive: number; neutral: number; negative: number };

let content: RunningServer;
let large: RunningServer;

before(async () => {
  [content, large] = await Promise.all([startServer('content'), startServer('large')]);
});
after(async () => {
  await Promise.all([content?.stop(), large?.stop()]);
});

const getJson = async (server: RunningServer, path: string) => {
  const response = await fetch(server.url + path);
  assert.equal(response.status, 200, path);
  return response.json();
};

// --- the independent recomputation -------------------------------------------------------

const utcDay = (iso: string) => Math.round(new Date(`${iso}T00:00:00Z`).getTime() / 86_400_000);
const toIso = (day: number) => new Date(day * 86_400_000).toISOString().slice(0, 10);
const round = (x: number, places: number) =>
  Number((Math.round(x * 10 ** places + (places === 2 ? 1e-9 : 0)) / 10 ** places).toFixed(places));
const sortedMedian = (xs: number[]) => {
  if (xs.length === 0) return null;
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
/** Nearest rank: the value at rank ceil(0.9 n), counting from 1. */
const p90 = (xs: number[]) => {
  if (xs.length === 0) return null;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.ceil(0.9 * s.length) - 1];
};
const share = (part: number, whole: number) => (whole === 0 ? null : round(part / whole, 3));
const hoursToReply = (r: Review) => (utcDay(r.response!.date) - utcDay(r.date)) * 24;

/** Each calendar month (or quarter) from the first to the last label, both included. */
function calendar(first: string, last: string, quarterly: boolean): string[] {
  const labels: string[] = [];
  let [y, m] = [Number(first.slice(0, 4)), Number(first.slice(5, 7))];
  const stepMonths = quarterly ? 3 : 1;
  if (quarterly) m = Math.floor((m - 1) / 3) * 3 + 1;
  const label = () => (quarterly ? `${y}-Q${(m - 1) / 3 + 1}` : `${y}-${String(m).padStart(2, '0')}`);
  const end = quarterly
    ? `${last.slice(0, 4)}-Q${Math.floor((Number(last.slice(5, 7)) - 1) / 3) + 1}`
    : last.slice(0, 7);
  for (;;) {
    labels.push(label());
    if (label() === end) return labels;
    m += stepMonths;
    if (m > 12) [y, m] = [y + 1, m - 12];
  }
}

const quarterOf = (date: string) => `${date.slice(0, 4)}-Q${Math.floor((Number(date.slice(5, 7)) - 1) / 3) + 1}`;

function expectedPeriod(reviews: Review[], aspectsOf: ((r: Review) => Record<string, Counts>) | null) {
  const replied = reviews.filter((r) => r.response);
  const distribution = { '1': 0, '2': 0, '3': 0, '4': 0, '5': 0 } as Record<string, number>;
  for (const r of reviews) distribution[String(r.rating)] += 1;
  const low = reviews.filter((r) => r.rating <= 2);
  const lowReplied = low.filter((r) => r.response);
  const figures = {
    review_count: reviews.length,
    average_rating: reviews.length ? round(reviews.reduce((s, r) => s + r.rating, 0) / reviews.length, 2) : null,
    distribution,
    reply_count: replied.length,
    reply_rate: share(replied.length, reviews.length),
    median_reply_days: sortedMedian(replied.map((r) => utcDay(r.response!.date) - utcDay(r.date))),
    median_reply_hours: sortedMedian(replied.map(hoursToReply)),
    p90_reply_hours: p90(replied.map(hoursToReply)),
    low_rated_count: low.length,
    low_rated_reply_count: lowReplied.length,
    low_rated_reply_rate: share(lowReplied.length, low.length),
    other_reply_rate: share(replied.length - lowReplied.length, reviews.length - low.length),
  };
  if (!aspectsOf) return figures;
  const aspects: Record<string, Counts> = Object.fromEntries(
    ASPECT_IDS.map((id) => [id, { positive: 0, neutral: 0, negative: 0 }]),
  );
  for (const r of reviews) {
    for (const [id, c] of Object.entries(aspectsOf(r))) {
      aspects[id].positive += c.positive;
      aspects[id].neutral += c.neutral;
      aspects[id].negative += c.negative;
    }
  }
  return { ...figures, aspects };
}

/** A review's aspect sentences by polarity, from the sentence analyser, as the build reads a review (its title as the first sentence). */
function analysedAspects(review: Review): Record<string, Counts> {
  const out: Record<string, Counts> = {};
  for (const sentence of analyseText(review.title ? `${review.title}.\n${review.text}` : review.text)) {
    for (const mention of sentence.aspects) {
      out[mention.aspect] ??= { positive: 0, neutral: 0, negative: 0 };
      out[mention.aspect][mention.polarity] += 1;
    }
  }
  return out;
}

function checkTrends(reviews: Review[], insights: any, aspectsOf: ((r: Review) => Record<string, Counts>) | null) {
  const { trends } = insights;
  const dates = reviews.map((r) => r.date).sort();
  const [first, last] = [dates[0], dates.at(-1)!];
  const strip = (period: Record<string, unknown>) => {
    const { month: _m, quarter: _q, ...rest } = period;
    return aspectsOf ? rest : (({ aspects: _a, ...figures }) => figures)(rest);
  };

  const months = calendar(first, last, false);
  assert.deepEqual(
    trends.months.map((m: { month: string }) => m.month),
    months,
    'every calendar month, oldest first, empty ones included',
  );
  for (const [i, month] of months.entries()) {
    assert.deepEqual(
      strip(trends.months[i]),
      expectedPeriod(
        reviews.filter((r) => r.date.startsWith(month)),
        aspectsOf,
      ),
      month,
    );
  }
  const quarters = calendar(first, last, true);
  assert.deepEqual(
    trends.quarters.map((q: { quarter: string }) => q.quarter),
    quarters,
  );
  for (const [i, quarter] of quarters.entries()) {
    assert.deepEqual(
      strip(trends.quarters[i]),
      expectedPeriod(
        reviews.filter((r) => quarterOf(r.date) === quarter),
        aspectsOf,
      ),
      quarter,
    );
  }

  // The months' aspect sentences add up to aspects[] (the whole history).
  for (const aspect of insights.aspects) {
    const sum = (key: keyof Counts) => trends.months.reduce((s: number, m: any) => s + m.aspects[aspect.id][key], 0);
    assert.deepEqual(
      [sum('positive'), sum('neutral'), sum('negative')],
      [aspect.positive, aspect.neutral, aspect.negative],
      aspect.id,
    );
  }

  // recent: the newest review's day and the 89 before it, against the 90 days before those and the same days a year earlier.
  const end = utcDay(last);
  assert.equal(trends.anchor, last, "the anchor is the newest review's date");
  const windows = [
    [end - 89, end],
    [end - 179, end - 90],
    [yearEarlier(end - 89), yearEarlier(end)],
  ] as const;
  const [current, previous, yearAgo] = windows.map(([from, to]) => {
    const inWindow = reviews.filter((r) => utcDay(r.date) >= from && utcDay(r.date) <= to);
    const {
      distribution: _d,
      aspects: _a,
      ...figures
    } = expectedPeriod(inWindow, aspectsOf) as ReturnType<typeof expectedPeriod> & { aspects?: unknown };
    return { from: toIso(from), to: toIso(to), ...figures, reviews: inWindow };
  });
  assert.equal(trends.recent.days, 90);
  for (const [name, expected] of [
    ['current', current],
    ['previous', previous],
    ['year_ago', yearAgo],
  ] as const) {
    const { reviews: inWindow, ...figures } = expected;
    const { aspects, ...actual } = trends.recent[name];
    assert.deepEqual(actual, figures, name);
    if (!aspectsOf) continue;
    const counts = expectedPeriod(inWindow, aspectsOf) as { aspects: Record<string, Counts> };
    for (const id of ASPECT_IDS) {
      const c = counts.aspects[id];
      const mentions = c.positive + c.neutral + c.negative;
      const { score: _score, ...got } = aspects[id];
      assert.deepEqual(got, { mentions, ...c, positive_share: share(c.positive, mentions) }, `${name} ${id}`);
    }
  }
  const diff = (a: number | null, b: number | null, places: number) =>
    a === null || b === null ? null : round(a - b, places);
  assert.equal(trends.recent.change.review_count, current.review_count - previous.review_count);
  assert.equal(trends.recent.change.average_rating, diff(current.average_rating, previous.average_rating, 2));
  assert.equal(trends.recent.change.reply_rate, diff(current.reply_rate, previous.reply_rate, 3));

  // The comparisons: each headline figure, its direction in words, "not enough reviews" below 5 a side.
  const MIN = 5;
  assert.equal(trends.recent.min_count, MIN);
  const served = (w: string) => trends.recent[w];
  const headline: Record<
    string,
    [value: (w: any) => number | null, basis: ((w: any) => number) | null, places: number]
  > = {
    average_rating: [(w) => w.average_rating, (w) => w.review_count, 2],
    review_count: [(w) => w.review_count, null, 0],
    reply_rate: [(w) => w.reply_rate, (w) => w.review_count, 3],
    low_rated_reply_rate: [(w) => w.low_rated_reply_rate, (w) => w.low_rated_count, 3],
    median_reply_hours: [(w) => w.median_reply_hours, (w) => w.reply_count, 0],
    p90_reply_hours: [(w) => w.p90_reply_hours, (w) => w.reply_count, 0],
    ...Object.fromEntries(
      ASPECT_IDS.map((id) => [
        `positive_share.${id}`,
        [(w: any) => w.aspects[id].positive_share, (w: any) => w.aspects[id].mentions, 3],
      ]),
    ),
  };
  assert.deepEqual(
    trends.recent.comparisons.map((c: { id: string }) => c.id),
    Object.keys(headline),
  );
  for (const c of trends.recent.comparisons) {
    const [value, basis, places] = headline[c.id];
    // Aspect shares from the served windows (checked above against the analyser where it runs), the rest recomputed.
    const [now, before, yearBefore] = c.id.startsWith('positive_share')
      ? [served('current'), served('previous'), served('year_ago')]
      : [current, previous, yearAgo];
    assert.deepEqual([c.current, c.previous, c.year_ago], [value(now), value(before), value(yearBefore)], c.id);
    for (const [key, then, thenName] of [
      ['vs_previous', before, 'the 90 days before'],
      ['vs_year_ago', yearBefore, 'the same 90 days a year earlier'],
    ] as const) {
      const [a, b] = [value(now), value(then)];
      const short = basis !== null && (basis(now) < MIN || basis(then) < MIN);
      const v = c[key];
      if (short || a === null || b === null) {
        assert.deepEqual([v.change, v.direction], [null, 'not_enough_reviews'], `${c.id} ${key}`);
        assert.match(v.text, /^not enough reviews to compare/);
        continue;
      }
      const change = round(a - b, places);
      const direction = change > 0 ? 'up' : change < 0 ? 'down' : 'unchanged';
      assert.deepEqual([v.change, v.direction], [change, direction], `${c.id} ${key}`);
      assert.ok(v.text.startsWith(direction) && v.text.includes(thenName), `${c.id} ${key}: ${v.text}`);
    }
  }

  // Velocity: the anchor's Monday-to-Sunday week and the 11 before it.
  const monday = end - ((new Date(`${last}T00:00:00Z`).getUTCDay() + 6) % 7);
  assert.deepEqual(
    trends.weeks,
    Array.from({ length: 12 }, (_, i) => {
      const from = monday - 7 * (11 - i);
      return {
        week: toIso(from),
        to: toIso(from + 6),
        review_count: reviews.filter((r) => utcDay(r.date) >= from && utcDay(r.date) <= from + 6).length,
      };
    }),
  );

  // The busiest month: every month tied at the top count listed.
  const perMonth = months.map((m) => reviews.filter((r) => r.date.startsWith(m)).length);
  const most = Math.max(...perMonth);
  assert.deepEqual(trends.busiest_month, {
    review_count: most,
    months: months.filter((_, i) => perMonth[i] === most),
    of: months.length,
  });

  // 1–2★ reviews without a reply, oldest first.
  const waiting = reviews
    .filter((r) => r.rating <= 2 && !r.response)
    .sort((a, b) => a.date.localeCompare(b.date) || (a.id < b.id ? -1 : 1));
  assert.deepEqual(
    trends.unanswered_low_rated,
    waiting.map((r) => ({
      id: r.id,
      date: r.date,
      rating: r.rating,
      title: r.title ?? null,
      author: r.author.name,
      path: `/reviews/${encodeURIComponent(r.id)}`,
      waiting_days: end - utcDay(r.date),
    })),
  );
  return { current, previous, yearAgo, waiting };
}

/** The same calendar day a year earlier (February 29 becomes February 28), as a day number. */
function yearEarlier(day: number): number {
  const d = new Date(day * 86_400_000);
  const [y, m, dd] = [d.getUTCFullYear() - 1, d.getUTCMonth(), d.getUTCDate()];
  const lastOfMonth = new Date(Date.UTC(y, m + 1, 0)).getUTCDate();
  return Date.UTC(y, m, Math.min(dd, lastOfMonth)) / 86_400_000;
}

describe('trends in insights.json', () => {
  it('content/: every month, quarter and the 90-day windows match a recomputation from reviews.json and the sentence analyser', async () => {
    const [dataset, insights] = await Promise.all([
      getJson(content, '/reviews.json'),
      getJson(content, '/insights.json'),
    ]);
    insightsDataset.parse(insights);
    checkTrends(dataset.reviews, insights, analysedAspects);
    // Each window's aspect scores: the mean of its sentences' scores, as aspects[] has over all reviews.
    const end = utcDay(dataset.reviews[0].date);
    for (const id of ASPECT_IDS) {
      const scores = (dataset.reviews as Review[])
        .filter((r) => utcDay(r.date) > end - 90)
        .flatMap((r) =>
          analyseText(r.title ? `${r.title}.\n${r.text}` : r.text).flatMap((s) =>
            s.aspects.filter((a) => a.aspect === id).map((a) => a.score),
          ),
        );
      const expected =
        scores.length === 0 ? null : Math.round((scores.reduce((s, x) => s + x, 0) / scores.length) * 1000) / 1000;
      assert.equal(insights.trends.recent.current.aspects[id].score, expected, id);
    }
  });

  it('10k reviews: every figure but the aspect sentences recomputed; those add up to aspects[]', async () => {
    const [dataset, insights] = await Promise.all([getJson(large, '/reviews.json'), getJson(large, '/insights.json')]);
    checkTrends(dataset.reviews, insights, null);
    assert.ok(insights.trends.months.length >= 12, `${insights.trends.months.length} months`);
  });

  it("10k reviews: the CSV files hold the same figures, served with the datasets' validators and caching", async () => {
    const insights = await getJson(large, '/insights.json');
    const reference = await fetch(`${large.url}/insights.json`);
    const trends = insights.trends;
    const files = {
      'reviews-by-week.csv': trends.weeks.map((w: any) => [w.week, w.to, w.review_count]),
      'reviews-by-month.csv': trends.months.map((m: any) => [
        m.month,
        m.review_count,
        m.average_rating,
        ...[1, 2, 3, 4, 5].map((n) => m.distribution[n]),
      ]),
      'rating-by-quarter.csv': trends.quarters.map((q: any) => [
        q.quarter,
        q.review_count,
        q.average_rating,
        ...[1, 2, 3, 4, 5].map((n) => q.distribution[n]),
      ]),
      'replies-by-quarter.csv': trends.quarters.map((q: any) => [
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
      'aspects-by-quarter.csv': trends.quarters.flatMap((q: any) =>
        ASPECT_IDS.map((id) => [q.quarter, id, q.aspects[id].positive, q.aspects[id].neutral, q.aspects[id].negative]),
      ),
      'last-90-days.csv': trends.recent.comparisons.map((c: any) => [
        c.id,
        c.unit,
        c.current,
        c.previous,
        c.year_ago,
        c.vs_previous.change,
        c.vs_previous.direction,
        c.vs_year_ago.change,
        c.vs_year_ago.direction,
        trends.recent.current.from,
        trends.recent.current.to,
        trends.recent.previous.from,
        trends.recent.previous.to,
        trends.recent.year_ago.from,
        trends.recent.year_ago.to,
      ]),
      'unanswered-low-rated.csv': trends.unanswered_low_rated.map((r: any) => [
        r.id,
        r.date,
        r.rating,
        r.waiting_days,
        r.path,
      ]),
    } as Record<string, unknown[][]>;
    for (const [name, rows] of Object.entries(files)) {
      const response = await fetch(`${large.url}/trends/${name}`);
      assert.equal(response.status, 200, name);
      assert.equal(response.headers.get('content-type'), 'text/csv; charset=utf-8; header=present');
      assert.equal(response.headers.get('cache-control'), reference.headers.get('cache-control'), name);
      const etag = response.headers.get('etag')!;
      assert.match(etag, /^"[^"]+"$/, 'a strong ETag');
      const again = await fetch(`${large.url}/trends/${name}`, { headers: { 'if-none-match': etag } });
      assert.equal(again.status, 304, name);
      const text = await response.text();
      assert.ok(text.endsWith('\r\n'), 'CRLF line ends');
      const [head, ...lines] = text.slice(0, -2).split('\r\n');
      assert.match(head, /^[a-z0-9_]+(,[a-z0-9_]+)+$/, `${name}: a header of stable column names`);
      assert.deepEqual(
        lines.map((line) => line.split(',')),
        rows.map((row) => row.map((v) => (v === null ? '' : String(v)))),
        name,
      );
    }
    // Every review of the unanswered list is rated 1–2 and has its page.
    const first = trends.unanswered_low_rated[0];
    if (first) assert.equal((await fetch(`${large.url}${first.path}`)).status, 200);
  });

  it('is a function of the reviews alone: no clock, input order irrelevant, empty when there are none', () => {
    const review = (
      id: string,
      date: string,
      rating: number,
      reply: string | null,
      mentions: TrendReview['mentions'] = [],
    ): TrendReview => ({
      id,
      date,
      rating,
      author: `Author ${id}`,
      response: reply ? { date: reply } : null,
      mentions,
    });
    const reviews: TrendReview[] = [
      review('a', '2024-01-31', 5, '2024-02-03', [{ aspect: 'cleanup', polarity: 'positive', score: 0.5 }]),
      review('b', '2024-04-01', 2, null, [{ aspect: 'cleanup', polarity: 'negative', score: -0.4 }]),
      review('c', '2024-04-01', 4, '2024-04-01'),
    ];
    const trends = buildTrends(reviews);
    assert.deepEqual(buildTrends([...reviews].reverse()), trends);
    assert.deepEqual(
      trends.months.map((m) => [m.month, m.review_count]),
      [
        ['2024-01', 1],
        ['2024-02', 0],
        ['2024-03', 0],
        ['2024-04', 2],
      ],
    );
    assert.equal(trends.months[1].average_rating, null);
    assert.equal(trends.months[1].reply_rate, null);
    assert.deepEqual(
      trends.quarters.map((q) => q.quarter),
      ['2024-Q1', '2024-Q2'],
    );
    assert.equal(trends.quarters[1].median_reply_days, 0);
    assert.equal(trends.quarters[1].reply_rate, 0.5);
    assert.deepEqual([trends.quarters[1].low_rated_reply_rate, trends.quarters[1].other_reply_rate], [0, 1]);
    // April 1 is day 0 of the current window; January 31 is 61 days before it: inside it too.
    assert.deepEqual([trends.recent!.current.from, trends.recent!.current.to], ['2024-01-03', '2024-04-01']);
    assert.deepEqual([trends.recent!.year_ago.from, trends.recent!.year_ago.to], ['2023-01-03', '2023-04-01']);
    assert.equal(trends.recent!.current.review_count, 3);
    assert.equal(trends.recent!.current.median_reply_days, 1.5, 'the mean of the two middle values: 0 and 3 days');
    assert.deepEqual([trends.recent!.current.median_reply_hours, trends.recent!.current.p90_reply_hours], [36, 72]);
    assert.equal(trends.recent!.current.aspects.cleanup.score, 0.05);
    assert.equal(trends.recent!.previous.review_count, 0);
    assert.equal(trends.recent!.change.average_rating, null);
    const rating = trends.recent!.comparisons.find((c) => c.id === 'average_rating')!;
    assert.equal(rating.vs_previous.direction, 'not_enough_reviews');
    assert.equal(
      rating.vs_previous.text,
      'not enough reviews to compare (3 reviews now, 0 reviews in the 90 days before; at least 5 each needed)',
    );
    assert.deepEqual(trends.busiest_month, { review_count: 2, months: ['2024-04'], of: 4 });
    assert.deepEqual(
      trends.unanswered_low_rated.map((r) => [r.id, r.waiting_days, r.path]),
      [['b', 0, '/reviews/b']],
    );
    // The anchor (Monday April 1) opens the last of the 12 weeks.
    assert.deepEqual(
      [trends.weeks[0].week, trends.weeks.at(-1)!.week, trends.weeks.at(-1)!.to],
      ['2024-01-15', '2024-04-01', '2024-04-07'],
    );
    assert.deepEqual(buildTrends([]), {
      anchor: null,
      months: [],
      quarters: [],
      weeks: [],
      busiest_month: null,
      unanswered_low_rated: [],
      recent: null,
    });
  });

  it('says ties as ties, compares at 5 reviews a side, and moves February 29 to the 28th a year back', () => {
    const reviews: TrendReview[] = [];
    const add = (date: string, rating: number) =>
      reviews.push({ id: `r${reviews.length}`, date, rating, author: 'A', response: null, mentions: [] });
    for (const month of ['2023-03', '2023-06', '2024-01', '2024-02'])
      for (let i = 1; i <= 5; i++) add(`${month}-1${i}`, 4);
    add('2024-02-29', 5);
    add('2024-02-28', 5);
    add('2023-12-10', 3);
    add('2023-12-11', 3);
    add('2023-12-12', 3);
    add('2023-12-13', 3);
    const trends = buildTrends(reviews);
    assert.deepEqual(trends.busiest_month, { review_count: 7, months: ['2024-02'], of: 12 });
    assert.deepEqual([trends.recent!.year_ago.from, trends.recent!.year_ago.to], ['2022-12-02', '2023-02-28']);
    const rating = trends.recent!.comparisons.find((c) => c.id === 'average_rating')!;
    // Current: Dec 2 2023 – Feb 29 2024 holds 4 + 5 + 7 = 16 reviews; previous (Sep 3 – Dec 1 2023) none.
    assert.equal(rating.vs_previous.direction, 'not_enough_reviews');
    const tied = buildTrends(reviews.filter((r) => !r.date.startsWith('2024-02') && !r.date.startsWith('2023-12')));
    assert.deepEqual(tied.busiest_month?.months, ['2023-03', '2023-06', '2024-01']);
    const html = trendCharts(tied, [])!.volume.reading;
    assert.match(html, /the busiest months, tied at 5 reviews each, were March 2023, June 2023 and January 2024/);
    assert.match(html, /January 2024 is counted to January 15, the newest review's date \(the lighter bar\)\.$/);
    // Five reviews each side: compared, and said in words.
    const even: TrendReview[] = [];
    for (let i = 0; i < 5; i++) {
      even.push({ id: `p${i}`, date: `2024-02-0${i + 1}`, rating: 4, author: 'A', response: null, mentions: [] });
      even.push({ id: `c${i}`, date: `2024-05-0${i + 1}`, rating: 5, author: 'A', response: null, mentions: [] });
    }
    const compared = buildTrends(even).recent!.comparisons.find((c) => c.id === 'average_rating')!;
    assert.deepEqual(compared.vs_previous, {
      change: 1,
      direction: 'up',
      text: 'up 1.00 on the 90 days before, from 4.00 to 5.00',
    });
  });

  it('gives the same bytes in any time zone the build runs in', () => {
    const script = `
      import { buildTrends } from ${JSON.stringify(new URL('../../src/lib/insights/trends.ts', import.meta.url).href)};
      const reviews = [];
      for (let i = 0; i < 400; i++) {
        const day = new Date(Date.UTC(2023, 0, 1) + i * 86400000 * 1.7).toISOString().slice(0, 10);
        const reply = i % 3 ? new Date(Date.UTC(2023, 0, 1) + i * 86400000 * 1.7 + (i % 5) * 86400000).toISOString().slice(0, 10) : null;
        reviews.push({ id: 'r' + i, date: day, rating: 1 + (i % 5), author: 'A', response: reply && { date: reply }, mentions: [] });
      }
      process.stdout.write(JSON.stringify(buildTrends(reviews)));
    `;
    const outputs = ['UTC', 'America/Sao_Paulo', 'Pacific/Chatham'].map((TZ) => {
      const result = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
        env: { ...process.env, TZ },
        encoding: 'utf8',
      });
      assert.equal(result.status, 0, result.stderr);
      return result.stdout;
    });
    for (const output of outputs.slice(1)) assert.equal(output, outputs[0]);
    assert.match(outputs[0], /"anchor":"2024-11-09"/);
  });

  it("fills the summary's trend placeholders", () => {
    const business = { id: 'b', name: 'B', technicians: [], services: [], service_areas: [] } as any;
    const review = (id: string, date: string, rating: number, reply?: string) => ({
      id,
      date,
      rating,
      text: 'Great job.',
      author: { name: 'A' },
      technicians: [],
      services: [],
      service_area: null,
      response: reply ? { date: reply, text: 'Thanks' } : null,
    });
    const reviews = [
      review('c', '2025-06-30', 5, '2025-07-04'),
      review('b', '2025-05-01', 4),
      review('d', '2025-04-20', 1),
      review('a', '2025-02-01', 3, '2025-02-02'),
      review('e', '2024-06-01', 2),
    ];
    const dataset = {
      business,
      reviews,
      updated: '2025-07-04T00:00:00Z',
      aggregate_rating: { distribution: { 1: 1, 2: 1, 3: 1, 4: 1, 5: 1 } },
    } as any;
    const text =
      'Rating {average_rating_90d} ({rating_change_90d} on the 90 days before, {rating_change_year_90d} on a year ago), {review_count_90d} reviews ({review_count_change_90d}; {review_count_year_ago_90d} a year ago), {percent_replied_90d}% answered in a median {median_reply_days_90d} days ({median_reply_hours_90d} h, p90 {p90_reply_hours_90d} h); {percent_low_rated_replied_90d}% of 1–2★; {reviews_per_week_12w} a week; {unanswered_low_rated_count} waiting.';
    const doc = buildInsights(
      dataset,
      { faq: null, summary: { text, highlights: [], updated: '2025-07-04T00:00:00Z' } },
      () => {},
    );
    const r = doc.trends.recent!;
    assert.deepEqual([r.current.review_count, r.previous.review_count, r.year_ago.review_count], [3, 1, 1]);
    assert.equal(
      doc.summary.text,
      'Rating 3.33 (0.33 on the 90 days before, 1.33 on a year ago), 3 reviews (2; 1 a year ago), 33% answered in a median 4 days (96 h, p90 96 h); 0% of 1–2★; 0.3 a week; 2 waiting.',
    );
  });

  it('keeps hostile labels as text in the charts and their tables', async () => {
    const insights = await getJson(content, '/insights.json');
    const hostile = '</svg><script>window.__pwned = 1</script><b>&amp;';
    const charts = trendCharts(
      insights.trends,
      insights.aspects.map((a: { id: string }) => ({ id: a.id, label: hostile })),
    )!;
    assert.equal(charts.aspects.table.head[1], hostile, 'a table cell holds the label as written; the page escapes it');
    for (const drawing of [
      ...charts.velocity.drawings,
      ...charts.rating.drawings,
      ...charts.volume.drawings,
      ...charts.replyRate.drawings,
      ...charts.replyTime.drawings,
      ...charts.aspects.multiples.flatMap((m) => m.drawings),
    ]) {
      const svg = drawing.svg;
      const { document } = parseHTML(`<!doctype html><html><body>${svg}</body></html>`);
      assert.equal(document.querySelectorAll('body > svg').length, 1);
      assert.equal(document.querySelectorAll('script, foreignObject').length, 0);
      assert.equal(document.querySelectorAll('[font-variant]').length, 0, 'no CSS value as an SVG attribute');
      assert.match(svg, /^<svg [^>]*viewBox="0 0 \d+ \d+"/);
      assert.match(svg, /aria-hidden="true"/);
    }
  });
});

describe('get_insights over MCP', () => {
  it('answers section "trends" with the trends of insights.json, and its output schema describes them', async () => {
    const client = new Client({ name: 'trends-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${content.url}/mcp`)));
    try {
      const insights = await getJson(content, '/insights.json');
      const { tools } = await client.listTools();
      const tool = tools.find((t) => t.name === 'get_insights')!;
      const schema = tool.outputSchema as { properties: Record<string, any> };
      assert.ok(schema.properties.trends, 'the output schema has trends');
      assert.ok(JSON.stringify(schema.properties.trends).includes('median_reply_days'));
      assert.ok(JSON.stringify(tool.inputSchema).includes('"trends"'), 'trends is one of the sections');
      const result = (await client.callTool({ name: 'get_insights', arguments: { section: 'trends' } })) as {
        isError?: boolean;
        structuredContent: any;
        content: Array<{ text: string }>;
      };
      assert.equal(result.isError, undefined, JSON.stringify(result.content));
      assert.deepEqual(result.structuredContent.trends, insights.trends);
      assert.equal(result.structuredContent.aspects, undefined, 'one section');
      assert.deepEqual(JSON.parse(result.content[0].text), result.structuredContent);
    } finally {
      await client.close();
    }
  });
});

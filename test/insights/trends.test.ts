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
  const figures = {
    review_count: reviews.length,
    average_rating: reviews.length ? round(reviews.reduce((s, r) => s + r.rating, 0) / reviews.length, 2) : null,
    distribution,
    reply_count: replied.length,
    reply_rate: reviews.length ? round(replied.length / reviews.length, 3) : null,
    median_reply_days: sortedMedian(replied.map((r) => utcDay(r.response!.date) - utcDay(r.date))),
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

  // recent: the newest review's day and the 89 before it, against the 90 days before those.
  const end = utcDay(last);
  const windows = [
    [end - 89, end],
    [end - 179, end - 90],
  ] as const;
  const [current, previous] = windows.map(([from, to]) => {
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
  ] as const) {
    const { reviews: inWindow, ...figures } = expected;
    const { aspects, ...actual } = trends.recent[name];
    assert.deepEqual(actual, figures, name);
    if (!aspectsOf) continue;
    const counts = expectedPeriod(inWindow, aspectsOf) as { aspects: Record<string, Counts> };
    for (const id of ASPECT_IDS) {
      const c = counts.aspects[id];
      const { score: _score, ...got } = aspects[id];
      assert.deepEqual(got, { mentions: c.positive + c.neutral + c.negative, ...c }, `${name} ${id}`);
    }
  }
  const diff = (a: number | null, b: number | null, places: number) =>
    a === null || b === null ? null : round(a - b, places);
  assert.equal(trends.recent.change.review_count, current.review_count - previous.review_count);
  assert.equal(trends.recent.change.average_rating, diff(current.average_rating, previous.average_rating, 2));
  assert.equal(trends.recent.change.reply_rate, diff(current.reply_rate, previous.reply_rate, 3));
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

  it('is a function of the reviews alone: no clock, input order irrelevant, empty when there are none', () => {
    const reviews: TrendReview[] = [
      {
        date: '2024-01-31',
        rating: 5,
        response: { date: '2024-02-03' },
        mentions: [{ aspect: 'cleanup', polarity: 'positive', score: 0.5 }],
      },
      {
        date: '2024-04-01',
        rating: 2,
        response: null,
        mentions: [{ aspect: 'cleanup', polarity: 'negative', score: -0.4 }],
      },
      { date: '2024-04-01', rating: 4, response: { date: '2024-04-01' }, mentions: [] },
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
    // April 1 is day 0 of the current window; January 31 is 61 days before it: inside it too.
    assert.deepEqual([trends.recent!.current.from, trends.recent!.current.to], ['2024-01-03', '2024-04-01']);
    assert.equal(trends.recent!.current.review_count, 3);
    assert.equal(trends.recent!.current.median_reply_days, 1.5, 'the mean of the two middle values: 0 and 3 days');
    assert.equal(trends.recent!.current.aspects.cleanup.score, 0.05);
    assert.equal(trends.recent!.previous.review_count, 0);
    assert.equal(trends.recent!.change.average_rating, null);
    assert.deepEqual(buildTrends([]), { months: [], quarters: [], recent: null });
  });

  it("fills the summary's 90-day placeholders from trends.recent", () => {
    const business = { id: 'b', name: 'B', technicians: [], services: [], service_areas: [] } as any;
    const review = (id: string, date: string, rating: number, reply?: string) => ({
      id,
      date,
      rating,
      text: 'Great job.',
      technicians: [],
      services: [],
      service_area: null,
      response: reply ? { date: reply, text: 'Thanks' } : null,
    });
    const reviews = [
      review('c', '2025-06-30', 5, '2025-07-04'),
      review('b', '2025-05-01', 4),
      review('a', '2025-02-01', 3, '2025-02-02'),
    ];
    const dataset = {
      business,
      reviews,
      updated: '2025-07-04T00:00:00Z',
      aggregate_rating: { distribution: { 1: 0, 2: 0, 3: 1, 4: 1, 5: 1 } },
    } as any;
    const text =
      'Rating {average_rating_90d} ({rating_change_90d} on the 90 days before), {review_count_90d} reviews ({review_count_change_90d}), {percent_replied_90d}% answered in a median {median_reply_days_90d} days.';
    const doc = buildInsights(
      dataset,
      { faq: null, summary: { text, highlights: [], updated: '2025-07-04T00:00:00Z' } },
      () => {},
    );
    const r = doc.trends.recent!;
    assert.deepEqual([r.current.review_count, r.previous.review_count], [2, 1]);
    assert.equal(
      doc.summary.text,
      'Rating 4.5 (1.5 on the 90 days before), 2 reviews (1), 50% answered in a median 4 days.',
    );
    assert.deepEqual(doc.summary.figures, {
      average_rating_90d: 4.5,
      rating_change_90d: 1.5,
      review_count_90d: 2,
      review_count_change_90d: 1,
      percent_replied_90d: 50,
      median_reply_days_90d: 4,
    });
  });

  it('keeps hostile labels as text in the charts and their tables', async () => {
    const insights = await getJson(content, '/insights.json');
    const hostile = '</svg><script>window.__pwned = 1</script><b>&amp;';
    const charts = trendCharts(
      insights.trends,
      insights.aspects.map((a: { id: string }) => ({ id: a.id, label: hostile })),
    )!;
    assert.equal(charts.aspects.table.head[1], hostile, 'a table cell holds the label as written; the page escapes it');
    for (const svg of [
      charts.rating.svg,
      charts.volume.svg,
      charts.replyRate.svg,
      charts.replyTime.svg,
      ...charts.aspects.multiples.map((m) => m.svg),
    ]) {
      const { document } = parseHTML(`<!doctype html><html><body>${svg}</body></html>`);
      assert.equal(document.querySelectorAll('body > svg').length, 1);
      assert.equal(document.querySelectorAll('script, foreignObject').length, 0);
      assert.match(svg, /^<svg [^>]*viewBox="0 0 \d+ \d+" height="\d+" width="\d+"/);
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

/**
 * `query` through the server, at 10,000 generated reviews and on the
 * sample content: for needles of every shape — one or
 * two characters, one word or part of one, phrases across spaces and
 * punctuation, text that Unicode folding changes, needles found nowhere — the
 * answer equals a naive filter over reviews.json (NFKC, lower case, substring
 * of title + "\n" + text), alone and combined with the other filters.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import fc from 'fast-check';
import { startServer, type RunningServer } from '../helpers/server.ts';
import type { Review } from '../helpers/types.ts';

const fold = (s: string) => s.normalize('NFKC').toLowerCase();

interface Site {
  server: RunningServer;
  reviews: Review[];
  haystacks: string[];
}

async function open(build: 'large' | 'content'): Promise<Site> {
  // Hundreds of new queries a second from one address: the per-client limit on them is tested in test/reliability/search-flood.test.ts.
  const server = await startServer(build, { SEARCH_MISS_RATE_LIMIT: 'off' });
  const reviews = (await (await fetch(`${server.url}/reviews.json`)).json()).reviews as Review[];
  return { server, reviews, haystacks: reviews.map((r) => fold(`${r.title ?? ''}\n${r.text}`)) };
}

function naive(site: Site, params: Record<string, string | number>): { total: number; ids: string[] } {
  const needle = fold(String(params.query));
  const ids: string[] = [];
  let total = 0;
  site.reviews.forEach((r, i) => {
    if (params.rating !== undefined && r.rating !== Number(params.rating)) return;
    if (params.min_rating !== undefined && r.rating < Number(params.min_rating)) return;
    if (params.since !== undefined && r.date < String(params.since)) return;
    if (params.until !== undefined && r.date > String(params.until)) return;
    // An untitled review's haystack starts with "\n" here; the server's has no title line at all. Both
    // are the same for any needle without "\n" at its start, which the generator below never makes.
    if (!site.haystacks[i]!.includes(needle)) return;
    total += 1;
    if (ids.length < (params.limit === undefined ? 20 : Number(params.limit))) ids.push(r.id);
  });
  return { total, ids };
}

async function check(site: Site, params: Record<string, string | number>) {
  const query = new URLSearchParams(Object.entries(params).map(([k, v]) => [k, String(v)]));
  const response = await fetch(`${site.server.url}/api/reviews/search?${query}`);
  const text = await response.text();
  const body = JSON.parse(text);
  // The body is spliced from records serialised once (src/lib/api/review-json.ts): exactly JSON.stringify's bytes.
  assert.equal(text, `${JSON.stringify(body)}\n`);
  assert.equal(response.status, 200, `?${query}: ${JSON.stringify(body)}`);
  const expected = naive(site, params);
  assert.equal(body.total, expected.total, `total for ?${query}`);
  assert.deepEqual(
    body.reviews.map((r: Review) => r.id),
    expected.ids,
    `reviews for ?${query}`,
  );
}

/** A needle cut from a review's own text or title, in its original case: it matches at least that review. */
function slices(site: Site) {
  return fc
    .record({
      review: fc.nat({ max: site.reviews.length - 1 }),
      start: fc.nat(),
      length: fc.integer({ min: 1, max: 24 }),
      title: fc.boolean(),
    })
    .map(({ review, start, length, title }) => {
      const r = site.reviews[review]!;
      const source = title && r.title ? r.title : r.text;
      const from = start % Math.max(1, source.length);
      return source.slice(from, from + length);
    })
    .filter((needle) => needle.trim() !== '' && fold(needle) !== '' && !fold(needle).startsWith('\n'));
}

/**
 * A phrase: a cut of 3 to 30 characters across at least one gap of a review
 * (a space, punctuation, a dash, a line break), spelt as a client might:
 * upper case, some letters in full width (ＲＯＯＦ), "fi" as the ligature ﬁ.
 * NFKC and lower case fold them back, so the cut still matches its review.
 */
function phrases(site: Site) {
  return fc
    .record({
      review: fc.nat({ max: site.reviews.length - 1 }),
      gap: fc.nat(),
      before: fc.nat({ max: 12 }),
      length: fc.integer({ min: 3, max: 30 }),
      spelling: fc.constantFrom('as is', 'upper', 'full width', 'ligature'),
    })
    .map(({ review, gap, before, length, spelling }) => {
      const source = site.reviews[review]!.text;
      const gaps = [...source.matchAll(/[^\p{L}\p{N}\p{M}]/gu)].map((m) => m.index);
      const at = gaps.length === 0 ? 0 : gaps[gap % gaps.length]!;
      const from = Math.max(0, at - before);
      const cut = source.slice(from, from + length);
      if (spelling === 'upper') return cut.toUpperCase();
      if (spelling === 'full width')
        return cut.replace(/[a-z]/g, (c, i: number) =>
          i % 2 ? String.fromCharCode(c.charCodeAt(0) - 0x61 + 0xff41) : c,
        );
      if (spelling === 'ligature') return cut.replaceAll('fi', 'ﬁ');
      return cut;
    })
    .filter((needle) => needle.trim() !== '' && fold(needle) !== '' && !fold(needle).startsWith('\n'));
}

const SHAPES = [
  'e',
  'th',
  'r ',
  ', ',
  '. T',
  'leak',
  'LEAK',
  'gutters',
  'the roof',
  'roof leak',
  'ridge',
  'ing',
  "didn't",
  'zzzq',
  'x y',
  '—',
  'ﬁ',
  'ＲＯＯＦ',
  'İ',
  'ß',
  'é',
  'ÉTÉ',
  '½',
  '🏠',
  'a\u0301',
  '...',
  ' — ',
  'roof.',
  ' the ',
  'e. t',
  'ＴＨＥ ＲＯＯＦ',
];

const others = {
  rating: fc.integer({ min: 1, max: 5 }),
  min_rating: fc.integer({ min: 1, max: 5 }),
  since: fc.constantFrom('2021-06-01', '2023-01-01', '2025-03-15'),
  until: fc.constantFrom('2024-12-31', '2026-06-30'),
  limit: fc.integer({ min: 1, max: 100 }),
};
const consistent = (p: Record<string, unknown>) =>
  (p.since === undefined || p.until === undefined || String(p.since) <= String(p.until)) &&
  (p.rating === undefined || p.min_rating === undefined || Number(p.rating) >= Number(p.min_rating));

for (const build of ['large', 'content'] as const) {
  describe(`query on the ${build} build`, () => {
    let site: Site;
    before(async () => {
      site = await open(build);
    });
    after(() => site?.server.stop());

    it('needles of every shape, alone', async () => {
      for (const needle of SHAPES) await check(site, { query: needle, limit: 100 });
    });

    it('cut from the reviews (words, parts of words, phrases, punctuation), alone', async () => {
      await fc.assert(
        fc.asyncProperty(slices(site), async (needle) => check(site, { query: needle, limit: 100 })),
        { numRuns: 150, seed: 11 },
      );
    });

    it('phrases across words and punctuation, in other spellings, alone', async () => {
      await fc.assert(
        fc.asyncProperty(phrases(site), async (needle) => check(site, { query: needle, limit: 100 })),
        { numRuns: 150, seed: 14 },
      );
    });

    it('combined with the other filters', async () => {
      const params = fc
        .record(
          { query: fc.oneof(slices(site), phrases(site), fc.constantFrom(...SHAPES)), ...others },
          { requiredKeys: ['query'] },
        )
        .filter(consistent);
      await fc.assert(
        fc.asyncProperty(params, async (p) => check(site, p)),
        { numRuns: 150, seed: 12 },
      );
    });

    it('arbitrary Unicode needles', async () => {
      const needle = fc
        .string({ unit: 'binary', minLength: 1, maxLength: 6 })
        .filter((s) => s.isWellFormed() && fold(s) !== '' && !fold(s).startsWith('\n'));
      await fc.assert(
        fc.asyncProperty(needle, async (q) => check(site, { query: q })),
        { numRuns: 100, seed: 13 },
      );
    });
  });
}

/**
 * The insights pipeline on its own (no Astro build): the scorer on tricky
 * sentences, aspect attribution, the entity linker, determinism, the editorial
 * checks and the accuracy thresholds.
 */
import assert from 'node:assert/strict';
import { resolve } from 'node:path';
import { describe, it } from 'node:test';
import { loadContent } from '../../src/lib/content/load.ts';
import { ContentError } from '../../src/lib/content/problems.ts';
import { analyseText } from '../../src/lib/insights/aspects.ts';
import { createLinker } from '../../src/lib/insights/entities.ts';
import {
  analyseInsights,
  buildInsights,
  EMPTY_EDITORIAL,
  insightsDataset,
  loadEditorial,
} from '../../src/lib/insights/index.ts';
import { PhraseTrie } from '../../src/lib/insights/phrases.ts';
import { fillPlaceholders } from '../../src/lib/insights/figures.ts';
import { splitSentences } from '../../src/lib/insights/sentences.ts';
import { buildTopics, keyphrases } from '../../src/lib/insights/topics.ts';
import { toJsonBody } from '../../src/lib/http/json.ts';
import { buildDataset } from '../../src/lib/reviews/published-dataset.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const fixture = (name: string) => resolve(ROOT, 'test/fixtures', name);

function aspectsOf(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const s of analyseText(text)) for (const a of s.aspects) out[a.aspect] = a.polarity;
  return out;
}

function datasetOf(dir: string) {
  const content = loadContent(dir);
  return buildDataset(content.business, content.reviews);
}

describe('polarity and aspects on tricky sentences', () => {
  const cases: Array<[string, Record<string, string>]> = [
    ["They didn't clean up the yard.", { cleanup: 'negative' }],
    ['Not a single nail was left in the driveway.', { cleanup: 'positive' }],
    [
      'The crew showed up three days late, but the roof itself is excellent.',
      { timeliness: 'negative', workmanship: 'positive' },
    ],
    ['Great roof, terrible communication.', { communication: 'negative', workmanship: 'positive' }],
    ['The leak over the kitchen is finally gone.', { workmanship: 'positive' }],
    ['The leak was never fixed.', { workmanship: 'negative' }],
    ['Never late, not once.', { timeliness: 'positive' }],
    ['The cleanup was sloppy.', { cleanup: 'negative' }],
    ['Jamal had a tarp on within hours of the windstorm.', { timeliness: 'positive' }],
    ['Very unprofessional.', { professionalism: 'negative' }],
    ['Way overpriced for a patch job.', { price: 'negative' }],
    ['They scratched the driveway with the dumpster.', { safety: 'negative' }],
    ['They carefully covered the deck with plywood.', { safety: 'positive' }],
    ['No one ever smoked or played loud music.', { professionalism: 'positive' }],
    ['They never called back.', { communication: 'negative' }],
    ['The skylight failed, but they replaced it under warranty.', { warranty: 'positive' }],
  ];
  for (const [text, expected] of cases) {
    it(text, () => {
      const got = aspectsOf(text);
      for (const [aspect, polarity] of Object.entries(expected))
        assert.equal(got[aspect], polarity, `${aspect} in ${JSON.stringify(got)}`);
    });
  }

  // Negations that intensify: "can't … enough", "couldn't be happier", "nothing but".
  const idioms: Array<[string, Record<string, string>]> = [
    ["We can't thank Rick enough for the quick tarp job.", { timeliness: 'positive' }],
    ["I can't recommend this crew enough.", { professionalism: 'positive' }],
    ["Honestly, I can't say enough good things about the office staff.", { communication: 'positive' }],
    ["We couldn't be happier with the new gutters.", { workmanship: 'positive' }],
    ["Couldn't have asked for a better foreman.", { professionalism: 'positive' }],
    ['The cleanup could not have been worse.', { cleanup: 'negative' }],
    [
      'Our neighbors have nothing but praise for the crew, but the office never called back.',
      { professionalism: 'positive', communication: 'negative' },
    ],
  ];
  for (const [text, expected] of idioms) {
    it(`intensifying negation: ${text}`, () => {
      const got = aspectsOf(text);
      for (const [aspect, polarity] of Object.entries(expected))
        assert.equal(got[aspect], polarity, `${aspect} in ${JSON.stringify(got)}`);
    });
  }

  // Repair and diagnosis verbs: the damage words after them describe the roof as the company found it.
  const repairs: Array<[string, Record<string, string>]> = [
    ['They replaced the cracked flashing and the rotten decking around the chimney.', { workmanship: 'positive' }],
    ['Tommy found a loose ridge cap and reattached it in an hour.', { workmanship: 'positive' }],
    ['The inspector showed us the worn shingles and the missing ridge cap.', { workmanship: 'neutral' }],
    ['They came out to repair the leaking valley.', { workmanship: 'neutral' }],
    ['Paid $900 for two skylights.', { price: 'neutral' }],
    // ...but not when the damage is the present state or the crew's own doing
    ['They replaced the vent boot and it is still loose.', { workmanship: 'negative' }],
    ['The crew cracked a skylight and never mentioned it.', { safety: 'negative' }],
  ];
  for (const [text, expected] of repairs) {
    it(`repair clause: ${text}`, () => {
      const got = aspectsOf(text);
      for (const [aspect, polarity] of Object.entries(expected))
        assert.equal(got[aspect], polarity, `${aspect} in ${JSON.stringify(got)}`);
    });
  }

  it("takes an aspect's polarity from its own clause when the sentence has a contrast", () => {
    const got = aspectsOf('Scheduling was slower than we had hoped, but the cleanup was spotless.');
    assert.equal(got.timeliness, 'negative');
    assert.equal(got.cleanup, 'positive');
  });

  it('calls a sentence with a clear positive and a clear negative clause mixed and neutral overall', () => {
    const [sentence] = analyseText('Great roof, terrible communication.');
    assert.equal(sentence.mixed, true);
    assert.equal(sentence.polarity, 'neutral');
  });

  it('scores intensified words further from zero', () => {
    const [plain] = analyseText('The crew was late.');
    const [strong] = analyseText('The crew was extremely late.');
    assert.ok(strong.score < plain.score, `${strong.score} < ${plain.score}`);
  });

  it('counts property words for safety only next to a care or damage cue', () => {
    assert.equal(aspectsOf('Not a single nail was left in the driveway.').safety, undefined);
    assert.equal(aspectsOf('They parked a dumpster in the driveway for a week.').safety, undefined);
    assert.equal(aspectsOf('Our insurance covered most of it.').safety, undefined);
    assert.equal(aspectsOf('Our appointment window was 8 to 12.').safety, undefined);
  });

  it('needs an opinion before a weak term names an aspect', () => {
    assert.deepEqual(aspectsOf('We bought the house in 2015 and the roof was original.'), {});
  });

  it('names the words that carried each aspect', () => {
    const [sentence] = analyseText("They didn't clean up the shingle scraps.");
    const cleanup = sentence.aspects.find((a) => a.aspect === 'cleanup');
    assert.ok(cleanup?.terms.includes('clean up'), JSON.stringify(cleanup));
  });
});

describe('topics', () => {
  const review = (id: string, year: string, phrases: string[]) => ({ reviewId: id, year, phrases });
  it('ranks keyphrases above single words, drops generic and contained single words, deterministically', () => {
    const input = Array.from({ length: 10 }, (_, i) =>
      review(`r${i}`, i < 5 ? '2024' : '2025', [
        'gutter',
        'photo',
        'water',
        ...(i < 3 ? ['gutter guard', 'ice and water shield'] : []),
        ...(i < 6 ? ['adjuster'] : []),
      ]),
    );
    const topics = buildTopics(input, { minReviews: 2 });
    const labels = topics.map((t) => t.keywords[0]);
    assert.deepEqual(labels, ['ice and water shield', 'gutter guard', 'adjuster']);
    assert.deepEqual(topics[0].by_year, { '2024': 3 });
    assert.equal(topics[2].share, 0.6);
    assert.deepEqual(buildTopics(input, { minReviews: 2 }), topics);
  });
  it('extracts coordinated and placed keyphrases', () => {
    const [sentence] = splitSentences('They installed ice and water shield and left nails in the driveway.');
    const phrases = keyphrases(sentence, new Set());
    assert.ok(phrases.includes('ice and water shield'), JSON.stringify(phrases));
    assert.ok(phrases.includes('nail in the driveway'), JSON.stringify(phrases));
  });
});

describe('entity linker', () => {
  const { business } = loadContent(fixture('content-small'));
  const linker = createLinker(business);
  const techs = (text: string) => splitSentences(text).flatMap((s) => linker.technicians(s));
  it('links full names, first names, nicknames, initials and possessives', () => {
    assert.deepEqual(techs('Dave Kowalski ran the crew.'), ['dave-kowalski']);
    assert.deepEqual(techs('David was great and Tommy too.'), ['dave-kowalski', 'tommy-nguyen']);
    assert.deepEqual(techs("Maria S. sent the report; Rick's crew did the work."), ['maria-santos', 'rick-olsen']);
    assert.deepEqual(techs('Thanks to Mr. Whitaker.'), ['jamal-whitaker']);
    assert.deepEqual(techs('Sara was lovely.'), ['sarah-lindqvist']);
  });
  it('does not take ordinary words for names, and reports unknown first names', () => {
    assert.deepEqual(techs('The rick of firewood was in the way.'), []);
    const unknown = splitSentences('Kevin was great. We live in Hillsdale. Solid roof.').flatMap((s) =>
      linker.unknownNames(s),
    );
    assert.ok(unknown.includes('Kevin'));
    assert.ok(!unknown.includes('Hillsdale'));
    assert.ok(!unknown.includes('Solid'));
  });
  it('warns about an unknown name at build time without failing', () => {
    const dataset = datasetOf(fixture('content-small'));
    const edited = {
      ...dataset,
      reviews: dataset.reviews.map((r, i) => (i === 0 ? { ...r, text: `${r.text} Jaime was a big help too.` } : r)),
    };
    const { warnings } = analyseInsights(edited, EMPTY_EDITORIAL);
    assert.ok(
      warnings.some((w) => w.name === 'Jaime' && w.review_id === edited.reviews[0].id),
      JSON.stringify(warnings),
    );
    const logged: string[] = [];
    buildInsights(edited, EMPTY_EDITORIAL, (m) => logged.push(m));
    assert.match(logged.join('\n'), /Jaime/);
  });
  it('does not warn about the name that signs the replies (the owner)', () => {
    const dataset = datasetOf(fixture('content-small'));
    // content-small's replies are signed "— Kevin, owner".
    const edited = {
      ...dataset,
      reviews: dataset.reviews.map((r, i) => (i === 0 ? { ...r, text: `${r.text} Kevin was a big help too.` } : r)),
    };
    assert.deepEqual(
      analyseInsights(edited, EMPTY_EDITORIAL).warnings.filter((w) => w.name === 'Kevin'),
      [],
    );
  });
  it('quotes at most three mentions of one unknown name and counts the rest', () => {
    const dataset = datasetOf(fixture('content-small'));
    const edited = {
      ...dataset,
      reviews: dataset.reviews.map((r) => ({ ...r, text: `${r.text} Jaime was a big help too.` })),
    };
    assert.ok(edited.reviews.length >= 5);
    const logged: string[] = [];
    buildInsights(edited, EMPTY_EDITORIAL, (m) => logged.push(m));
    const log = logged.join('\n');
    assert.equal(log.match(/"Jaime" in: /g)?.length, 3, log);
    assert.match(log, new RegExp(`"Jaime": ${edited.reviews.length - 3} more mentions? not quoted`), log);
  });
});

describe('insights document', () => {
  it('validates against the schema and is byte-identical for the same input', () => {
    const dir = fixture('content-small');
    const first = toJsonBody(buildInsights(datasetOf(dir), loadEditorial(dir), () => {}));
    const second = toJsonBody(buildInsights(datasetOf(dir), loadEditorial(dir), () => {}));
    assert.equal(first, second);
    assert.ok(first.endsWith('\n'));
    insightsDataset.parse(JSON.parse(first));
  });

  it('takes `updated` from the content, never the clock', () => {
    const dataset = datasetOf(fixture('content-small'));
    const doc = buildInsights(dataset, EMPTY_EDITORIAL, () => {});
    assert.equal(doc.updated, dataset.updated);
    assert.equal(doc.summary.updated, dataset.updated);
  });

  it('counts technicians from frontmatter and from the text', () => {
    const doc = buildInsights(datasetOf(fixture('content-small')), EMPTY_EDITORIAL, () => {});
    const dave = doc.entities.technicians.find((t) => t.id === 'dave-kowalski')!;
    assert.equal(dave.review_count, 2);
    assert.equal(dave.average_rating, 4.5);
    const jamal = doc.entities.technicians.find((t) => t.id === 'jamal-whitaker')!;
    assert.equal(jamal.review_count, 1);
    assert.ok(jamal.aspects.some((a) => a.id === 'estimate_insurance'));
  });

  it("prefers examples whose polarity agrees with the review's stars among candidates of similar strength", () => {
    const dataset = datasetOf(fixture('content-small'));
    const [template] = dataset.reviews;
    const review = (id: string, rating: number, text: string) => ({ ...template, id, rating, title: undefined, text });
    const doc = buildInsights(
      {
        ...dataset,
        reviews: [
          // slightly stronger, but a positive sentence in a one-star review
          review('a-one-star', 1, 'The price was very fair. Then the skylight leaked for a month and nobody came.'),
          review('b-five-star', 5, 'The price was fair.'),
        ],
      },
      EMPTY_EDITORIAL,
      () => {},
    );
    const price = doc.aspects.find((a) => a.id === 'price')!;
    const positive = price.examples.filter((e) => e.polarity === 'positive');
    assert.equal(positive.length, 2);
    assert.ok(positive[0].score < positive[1].score, 'the one-star sentence is stronger');
    assert.equal(positive[0].review_id, 'b-five-star');
  });

  it('keeps the example sentence that carried each aspect', () => {
    const doc = buildInsights(datasetOf(fixture('content-small')), EMPTY_EDITORIAL, () => {});
    const cleanup = doc.aspects.find((a) => a.id === 'cleanup')!;
    assert.ok(cleanup.examples.some((e) => /magnet/.test(e.sentence)));
  });
});

describe('editorial content', () => {
  it('fills every placeholder from the reviews, rounded as asked, and lists what it quoted', () => {
    const dir = fixture('insights-placeholders');
    const dataset = datasetOf(dir);
    const doc = buildInsights(dataset, loadEditorial(dir), () => {});
    const mean = dataset.reviews.reduce((s, r) => s + r.rating, 0) / dataset.reviews.length;
    const fives = dataset.reviews.filter((r) => r.rating === 5).length;
    const low = dataset.reviews.filter((r) => r.rating <= 2).length;
    const percent = (n: number) => String(Math.round((n / dataset.reviews.length) * 100));
    assert.equal(
      doc.summary.text,
      `${dataset.reviews.length} customers have reviewed us, with an average rating of ${Math.round(mean * 100) / 100} (${Math.round(mean * 10) / 10} rounded) out of 5; ${percent(fives)}% give five stars. We have served {roughly 1,000} homes.`,
    );
    assert.deepEqual(doc.summary.highlights, [`${percent(low)}% give one or two stars.`]);
    assert.deepEqual(Object.keys(doc.summary.figures), [
      'review_count',
      'average_rating',
      'average_rating:1',
      'percent_five_star',
      'percent_one_or_two_star',
    ]);
    assert.equal(doc.summary.figures['average_rating:1'], Math.round(mean * 10) / 10);
    assert.equal(doc.summary.figures.review_count, dataset.reviews.length);
    assert.equal(doc.faq[0].question, 'Do you tarp roofs after storms?');
  });

  it('a review added or removed changes the figures and never fails the build', () => {
    const dir = fixture('insights-placeholders');
    const editorial = loadEditorial(dir);
    const dataset = datasetOf(dir);
    const fewer = { ...dataset, reviews: dataset.reviews.slice(1) };
    const more = { ...dataset, reviews: [...dataset.reviews, { ...dataset.reviews[0], id: 'zz-copy', rating: 1 }] };
    for (const variant of [fewer, more]) {
      const doc = buildInsights(variant, editorial, () => {});
      assert.equal(doc.summary.figures.review_count, variant.reviews.length);
      assert.match(doc.summary.text, new RegExp(`^${variant.reviews.length} customers`));
    }
  });

  it('groups thousands and writes whole figures without decimals', () => {
    const filled = fillPlaceholders(
      '{review_count} reviews, {average_rating} / {average_rating:0} / {percent_five_star:1}%',
      {
        review_count: 12045,
        average_rating: 4.1,
        percent_five_star: 61.2345,
      },
    );
    assert.equal(filled.text, '12,045 reviews, 4.1 / 4 / 61.2%');
  });

  it('reports every mistake in the editorial files at once, with file and field', () => {
    assert.throws(
      () => loadEditorial(fixture('insights-mistakes')),
      (error: unknown) => {
        assert.ok(error instanceof ContentError);
        const found = error.problems.map((p) => `${p.file}: ${p.field}`);
        for (const expected of [
          'insights/summary.md: updated',
          'insights/summary.md: (file)',
          'insights/summary.md: (body)',
          'insights/faq.md: (body)',
          'insights/faq.md: question 1',
          'insights/faq.md: question 2',
        ]) {
          assert.ok(found.includes(expected), `${expected} in\n${error.message}`);
        }
        const messages = error.problems
          .filter((p) => p.file === 'insights/summary.md')
          .map((p) => `${p.field}: ${p.message}`);
        for (const expected of [
          /^\(file\): unknown fields "figures", "colour": figures are no longer declared; write each number in the text as a placeholder/,
          /^\(body\): unknown placeholder "\{review_cuont\}" \(known: review_count, average_rating/,
          /^\(body\): "\{average_rating:x\}" is not a placeholder/,
          /^highlights\[0\]: unknown placeholder "\{happiness_index\}"/,
        ]) {
          assert.ok(
            messages.some((m) => expected.test(m)),
            `${expected} in\n${messages.join('\n')}`,
          );
        }
        return true;
      },
    );
  });
});

describe('example order and phrase tries', () => {
  it('among examples of equal strength, shows the newest reviews first, then by review id', () => {
    const dataset = datasetOf(fixture('content-small'));
    const [template] = dataset.reviews;
    const review = (id: string, date: string) => ({
      ...template,
      id,
      date,
      rating: 5,
      title: undefined,
      text: 'The price was fair.',
    });
    const doc = buildInsights(
      {
        ...dataset,
        reviews: [
          review('c', '2024-01-01'),
          review('b', '2024-03-01'),
          review('d', '2023-05-01'),
          review('a', '2024-03-01'),
        ],
      },
      EMPTY_EDITORIAL,
      () => {},
    );
    const price = doc.aspects.find((a) => a.id === 'price')!;
    assert.deepEqual(
      price.examples.map((e) => e.review_id),
      ['a', 'b'],
    );
  });

  it('a phrase trie finds a phrase added after the tokens were first scanned', () => {
    const trie = new PhraseTrie<string>();
    trie.add('gutter guard', 'a');
    const [sentence] = splitSentences('The flashing and the gutter guard look great.');
    assert.deepEqual(
      trie.scan(sentence.tokens).map((m) => m.value),
      ['a'],
    );
    trie.add('flashing', 'b');
    assert.deepEqual(
      trie.scan(sentence.tokens).map((m) => m.value),
      ['b', 'a'],
    );
  });
});

/**
 * insights.json from the reviews dataset and the editorial files: one pure
 * function, no clock. Same dataset and editorial → the same bytes.
 */
import { roundTo } from '../reviews/published-dataset.ts';
import type { ReviewsDataset } from '../reviews/schema.ts';
import { analyseSentence, type SentenceAnalysis } from './aspects.ts';
import type { Editorial } from './editorial.ts';
import { computeFigures, fillPlaceholders } from './figures.ts';
import { createLinker } from './entities.ts';
import { ASPECTS, type AspectId } from './lexicon.ts';
import { polarityOf } from './polarity.ts';
import { round3 } from './round.ts';
import type { AspectSummary, Entity, InsightsDataset } from './schema.ts';
import { splitSentences, winkValence } from './sentences.ts';
import { buildTopics, keyphrases } from './topics.ts';
import { buildTrends, trendFigures } from './trends.ts';

/** A capitalised name in a review's text that is no known technician. */
export interface InsightsWarning {
  review_id: string;
  name: string;
  sentence: string;
}

export interface InsightsResult {
  document: InsightsDataset;
  warnings: InsightsWarning[];
}

const EXAMPLES_PER_POLARITY = 2;
/**
 * When examples are chosen, a sentence whose polarity disagrees with its
 * review's star rating (a positive sentence from a 1–2 star review, a negative
 * one from a 4–5 star review) ranks as if this much weaker (on the -1..1
 * scale): among candidates of similar strength the one the rating agrees
 * with is shown; a much stronger one still wins. 3-star reviews are neutral.
 */
export const RATING_DISAGREEMENT_PENALTY = 0.2;

/** +1 for 4–5 stars, -1 for 1–2, 0 for 3. */
function ratingDirection(rating: number): number {
  return rating >= 4 ? 1 : rating <= 2 ? -1 : 0;
}

/** What the document reads of a sentence: the sentences that name an aspect, with their text for the examples. */
type AspectSentence = Pick<SentenceAnalysis, 'text' | 'aspects'>;

/** A review with its analysis. */
type ReviewAnalysis = ReviewInsight & { review: ReviewsDataset['reviews'][number] };

const ASPECT_INDEX = new Map<AspectId, number>(ASPECTS.map((a, i) => [a.id, i]));

interface AspectTally {
  mentions: number;
  positive: number;
  neutral: number;
  negative: number;
  sum: number;
}

const emptyTally = (): AspectTally => ({ mentions: 0, positive: 0, neutral: 0, negative: 0, sum: 0 });

function tally(t: AspectTally, score: number): void {
  t.mentions += 1;
  t.sum += score;
  t[polarityOf(score)] += 1;
}

/**
 * What the insights need from one review: everything that depends on the
 * review alone (and the business), so it can be computed apart from the
 * others — in another thread, or once per review text — and the document is
 * then assembled in the dataset's order, the same whichever way it was made.
 */
export interface ReviewInsight {
  /**
   * The sentences that name an aspect, in order, with their text and aspects: all the document
   * reads of them (the review's sentiment below is the mean over every sentence). Leaving the
   * rest out keeps what worker threads send back, and what the build holds, small.
   */
  sentences: AspectSentence[];
  sentiment: number;
  /** Technician ids: the frontmatter's, then those named in the text. */
  technicians: string[];
  /** Service area ids: the frontmatter's, then those named in the text. */
  areas: string[];
  /** Capitalised words that may be unknown technicians, with their sentence, in text order. */
  candidates: Array<{ name: string; sentence: string }>;
  /** Distinct normal forms of the words written in lower case. */
  lowercase: string[];
  /** The distinct keyphrases of the review's sentences, in order of first use. */
  phrases: string[];
}

export type ReviewAnalyser = (review: ReviewsDataset['reviews'][number]) => ReviewInsight;

/** The per-review analysis for one business (its names are what the linker knows and the topics exclude). */
export function createReviewAnalyser(business: ReviewsDataset['business']): ReviewAnalyser {
  const linker = createLinker(business);
  const excluded = new Set(
    [business.name, ...business.technicians.map((t) => t.name), ...business.service_areas.map((a) => a.name)]
      .flatMap((n) => n.toLowerCase().split(/[^a-z]+/))
      .filter(Boolean),
  );
  return (review) => {
    const sentences = splitSentences(review.title ? `${review.title}.\n${review.text}` : review.text);
    const technicians = new Set<string>();
    for (const name of review.technicians) {
      const id = linker.technicianByName(name);
      if (id) technicians.add(id);
    }
    const areas = new Set<string>(review.service_area ? [review.service_area] : []);
    const phrases = new Set<string>();
    const analyses: SentenceAnalysis[] = [];
    const candidates: ReviewInsight['candidates'] = [];
    const lowercase = new Set<string>();
    for (const sentence of sentences) {
      analyses.push(analyseSentence(sentence));
      for (const id of linker.technicians(sentence)) technicians.add(id);
      for (const id of linker.areas(sentence)) areas.add(id);
      for (const name of linker.unknownNames(sentence)) candidates.push({ name, sentence: sentence.text });
      for (const token of sentence.tokens) if (/^\p{Ll}/u.test(token.text)) lowercase.add(token.normal);
      for (const phrase of keyphrases(sentence, excluded)) phrases.add(phrase);
    }
    const sentiment = analyses.length === 0 ? 0 : analyses.reduce((s, a) => s + a.score, 0) / analyses.length;
    return {
      sentences: analyses.filter((a) => a.aspects.length > 0).map(({ text, aspects }) => ({ text, aspects })),
      sentiment,
      technicians: [...technicians],
      areas: [...areas],
      candidates,
      lowercase: [...lowercase],
      phrases: [...phrases],
    };
  };
}

/**
 * The insights document and the build-time warnings (unknown names), without logging.
 * `insightOf` gives a review's analysis when it was computed elsewhere (by id); a review it
 * does not know is analysed here.
 */
export function analyseInsights(
  dataset: ReviewsDataset,
  editorial: Editorial,
  insightOf?: (id: string) => ReviewInsight | undefined,
): InsightsResult {
  const { business } = dataset;
  const warnings: InsightsWarning[] = [];
  let analyse: ReviewAnalyser | undefined;

  const reviews: ReviewAnalysis[] = dataset.reviews.map((review) => ({
    review,
    ...(insightOf?.(review.id) ?? (analyse ??= createReviewAnalyser(business))(review)),
  }));
  const candidates = reviews.flatMap(({ review, candidates }) =>
    candidates.map((c) => ({ review_id: review.id, name: c.name, sentence: c.sentence })),
  );

  // A capitalised word that the corpus also uses in lower case ("Solid new roof", "Happy with it")
  // or that carries sentiment is an ordinary word at the start of a sentence, not a name.
  const unseen = new Set(candidates.map((c) => c.name.toLowerCase()));
  for (const { lowercase } of reviews) for (const word of lowercase) unseen.delete(word);
  for (const c of candidates) {
    const lower = c.name.toLowerCase();
    if (unseen.has(lower) && winkValence(lower) === 0) warnings.push(c);
  }

  const aspects = summariseAspects(reviews);
  const entityOf = (ids: Array<{ id: string; name: string }>, pick: (r: ReviewAnalysis) => readonly string[]) => {
    // Each entity's reviews in dataset order, from one pass over the reviews (not one per entity).
    const reviewsOf = new Map<string, ReviewAnalysis[]>(ids.map(({ id }) => [id, []]));
    for (const r of reviews) {
      for (const id of pick(r)) {
        const list = reviewsOf.get(id);
        if (list && list.at(-1) !== r) list.push(r);
      }
    }
    return ids.map(({ id, name }) => summariseEntity(id, name, reviewsOf.get(id)!));
  };

  const trends = buildTrends(
    reviews.map(({ review, sentences }) => ({
      date: review.date,
      rating: review.rating,
      response: review.response,
      mentions: sentences.flatMap((s) => s.aspects),
    })),
  );
  const figures = { ...computeFigures(dataset, aspects), ...trendFigures(trends) };
  const summary = editorial.summary ? fillSummary(editorial.summary, figures) : generatedSummary(dataset, figures);

  const updated = [dataset.updated, editorial.faq?.updated, editorial.summary?.updated]
    .filter((u): u is string => u !== undefined)
    .reduce((a, b) => (b > a ? b : a));

  const document: InsightsDataset = {
    updated,
    review_count: dataset.reviews.length,
    aspects,
    entities: {
      // The owner may keep each technician's ratings private: then none is published.
      technicians:
        business.technician_ratings === 'private' ? [] : entityOf(business.technicians, (r) => r.technicians),
      services: entityOf(business.services, (r) => r.review.services),
      service_areas: entityOf(business.service_areas, (r) => r.areas),
    },
    topics: buildTopics(reviews.map(({ review, phrases }) => ({ year: review.date.slice(0, 4), phrases }))),
    trends,
    faq: editorial.faq?.entries ?? [],
    summary,
  };
  return { document, warnings };
}

/**
 * The insights document. Unknown names found in review text are logged as
 * warnings (never a failure); the summary's placeholders are filled from the computed figures.
 */
export function buildInsights(
  dataset: ReviewsDataset,
  editorial: Editorial,
  log: (message: string) => void = console.warn,
  insightOf?: (id: string) => ReviewInsight | undefined,
): InsightsDataset {
  const { document, warnings } = analyseInsights(dataset, editorial, insightOf);
  if (warnings.length > 0) log(formatWarnings(warnings));
  return document;
}

/** Mentions quoted per name: at 100k reviews a common word taken for a name is met tens of thousands of times. */
const QUOTED_PER_NAME = 3;

export function formatWarnings(warnings: readonly InsightsWarning[]): string {
  const names = [...new Set(warnings.map((w) => w.name))].sort();
  const quoted = new Map<string, number>();
  const lines: string[] = [];
  for (const w of warnings) {
    const count = (quoted.get(w.name) ?? 0) + 1;
    quoted.set(w.name, count);
    if (count <= QUOTED_PER_NAME) lines.push(`  reviews/${w.review_id}.md: "${w.name}" in: ${w.sentence}`);
  }
  for (const [name, count] of quoted) {
    if (count > QUOTED_PER_NAME)
      lines.push(
        `  "${name}": ${count - QUOTED_PER_NAME} more mention${count - QUOTED_PER_NAME === 1 ? '' : 's'} not quoted`,
      );
  }
  return `insights: ${warnings.length} name mention${warnings.length === 1 ? '' : 's'} matched no technician (${names.join(', ')}); add them to business.yaml if they are technicians:\n${lines.join('\n')}`;
}

type Candidate = AspectSummary['examples'][number] & { date: string; rating: number };

// Strength of a candidate as an example of its polarity (sign: -1 for positive, 1 for negative), less the rating penalty.
const strength = (c: { score: number; rating: number }, sign: number) =>
  -sign * c.score - (ratingDirection(c.rating) === sign ? RATING_DISAGREEMENT_PENALTY : 0);
const order = (a: Candidate, b: Candidate, sign: number) =>
  strength(b, sign) - strength(a, sign) ||
  (a.date < b.date ? 1 : a.date > b.date ? -1 : 0) ||
  cmp(a.review_id, b.review_id) ||
  cmp(a.sentence, b.sentence);
const POSITIVE_ORDER = (a: Candidate, b: Candidate) => order(a, b, -1);
const NEGATIVE_ORDER = (a: Candidate, b: Candidate) => order(a, b, 1);

function summariseAspects(reviews: readonly ReviewAnalysis[]): AspectSummary[] {
  const tallies = ASPECTS.map(() => emptyTally());
  const positives = ASPECTS.map((): Candidate[] => []);
  const negatives = ASPECTS.map((): Candidate[] => []);
  for (const { review, sentences } of reviews) {
    for (const sentence of sentences) {
      for (const mention of sentence.aspects) {
        const aspect = ASPECT_INDEX.get(mention.aspect)!;
        tally(tallies[aspect], mention.score);
        const candidates =
          mention.polarity === 'positive'
            ? positives[aspect]
            : mention.polarity === 'negative'
              ? negatives[aspect]
              : undefined;
        candidates?.push({
          review_id: review.id,
          sentence: sentence.text,
          polarity: mention.polarity,
          score: mention.score,
          terms: mention.terms,
          date: review.date,
          rating: review.rating,
        });
      }
    }
  }
  return ASPECTS.map((definition, index) => {
    const t = tallies[index];
    const positive = positives[index].sort(POSITIVE_ORDER).slice(0, EXAMPLES_PER_POLARITY);
    const negative = negatives[index].sort(NEGATIVE_ORDER).slice(0, EXAMPLES_PER_POLARITY);
    return {
      id: definition.id,
      label: definition.label,
      mentions: t.mentions,
      positive: t.positive,
      neutral: t.neutral,
      negative: t.negative,
      score: t.mentions === 0 ? 0 : round3(t.sum / t.mentions),
      examples: [...positive, ...negative].map(({ date: _date, rating: _rating, ...example }) => example),
    };
  });
}

function summariseEntity(id: string, name: string, reviews: readonly ReviewAnalysis[]): Entity {
  // Per aspect (its position in ASPECTS): mentions, and their scores summed in text order.
  const mentions = new Array<number>(ASPECTS.length).fill(0);
  const sums = new Array<number>(ASPECTS.length).fill(0);
  for (const review of reviews) {
    for (const mention of review.sentences.flatMap((s) => s.aspects)) {
      const aspect = ASPECT_INDEX.get(mention.aspect)!;
      mentions[aspect] += 1;
      sums[aspect] += mention.score;
    }
  }
  const ratingSum = reviews.reduce((s, r) => s + r.review.rating, 0);
  const sentimentSum = reviews.reduce((s, r) => s + r.sentiment, 0);
  return {
    id,
    name,
    review_count: reviews.length,
    average_rating: reviews.length === 0 ? 0 : roundTo(ratingSum / reviews.length, 2),
    sentiment: reviews.length === 0 ? 0 : round3(sentimentSum / reviews.length),
    aspects: ASPECTS.flatMap((a, i) =>
      mentions[i] === 0 ? [] : [{ id: a.id, mentions: mentions[i], score: round3(sums[i] / mentions[i]) }],
    ),
  };
}

/** The summary with its placeholders filled; `figures` lists what it quotes, as quoted. */
function fillSummary(
  summary: NonNullable<Editorial['summary']>,
  figures: Readonly<Record<string, number>>,
): InsightsDataset['summary'] {
  const text = fillPlaceholders(summary.text, figures);
  const highlights = summary.highlights.map((line) => fillPlaceholders(line, figures));
  const quoted = Object.assign({}, text.quoted, ...highlights.map((h) => h.quoted)) as Record<string, number>;
  return { text: text.text, highlights: highlights.map((h) => h.text), updated: summary.updated, figures: quoted };
}

/** Without content/insights/summary.md: one sentence of the headline figures. */
function generatedSummary(
  dataset: ReviewsDataset,
  figures: Readonly<Record<string, number>>,
): InsightsDataset['summary'] {
  const count = dataset.reviews.length;
  // The business name is added after filling: braces in a name are not placeholders.
  const sentence =
    count === 0
      ? 'has no published reviews yet.'
      : `has {review_count} verified review${count === 1 ? '' : 's'} with an average rating of {average_rating} out of 5; {percent_five_star}% give five stars.`;
  const filled = fillSummary({ text: sentence, highlights: [], updated: dataset.updated }, figures);
  return { ...filled, text: `${dataset.business.name} ${filled.text}` };
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

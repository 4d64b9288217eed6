/**
 * Topics: the recurring themes of the reviews as keyphrases. A keyphrase is a
 * noun phrase of one to three words in dictionary form ("magnet sweep",
 * "insurance claim", "gutter guard"), taken from each sentence's adjectives and
 * nouns. Phrases are counted once per review; the most frequent become topics,
 * a longer phrase that contains a chosen one joins it as a keyword instead of
 * becoming a topic of its own. Ties break alphabetically: same reviews, same
 * topics.
 */
import type { Sentence } from './sentences.ts';

/** Nouns every roofing review uses: as a topic on their own they say nothing. */
const GENERIC = new Set([
  'roof', 'roofing', 'job', 'work', 'crew', 'company', 'day', 'time', 'house', 'home', 'year', 'week', 'month', 'thing', 'lot',
  'guy', 'team', 'people', 'service', 'experience', 'everything', 'anything', 'something', 'nothing', 'way', 'hour', 'minute',
  'review', 'star', 'business', 'contractor', 'roofer', 'person', 'one', 'bit', 'part', 'kind', 'sort', 'end', 'side', 'area',
  'morning', 'afternoon', 'evening', 'night', 'today', 'yesterday', 'tomorrow', 'couple', 'place', 'problem', 'issue', 'question',
  'lot', 'bunch', 'number', 'amount', 'first', 'last', 'other', 'same', 'few', 'more', 'most', 'much', 'many', 'great', 'good',
  'new', 'old', 'whole', 'next', 'only', 'own', 'such', 'sure', 'able', 'best', 'better', 'little', 'big', 'small', 'full',
]);

const MAX_WORDS = 3;

/** The distinct keyphrases of one sentence, each in dictionary form. */
export function keyphrases(sentence: Sentence, exclude: ReadonlySet<string>): string[] {
  const out = new Set<string>();
  let run: string[] = [];
  const flush = () => {
    // Every contiguous sub-phrase that ends in a noun and is not only generic words.
    for (let end = run.length; end > 0; end -= 1) {
      for (let start = Math.max(0, end - MAX_WORDS); start < end; start += 1) {
        const words = run.slice(start, end);
        if (words.every((w) => GENERIC.has(w))) continue;
        if (GENERIC.has(words[0]) && words.length > 1 && words[0] !== 'roof') continue;
        out.add(words.join(' '));
      }
    }
    run = [];
  };
  for (const token of sentence.tokens) {
    const word = token.lemma.replace(/[^a-z-]/g, '');
    const usable = word.length > 2 && !exclude.has(word) && (token.pos === 'NOUN' || (token.pos === 'ADJ' && run.length === 0) || (token.pos === 'ADJ' && run.length > 0));
    if (usable && !token.punct) {
      run.push(word);
      if (token.pos !== 'NOUN') continue;
    } else {
      // A phrase must end with a noun: drop trailing adjectives.
      while (run.length > 0 && !isNounLike(run.at(-1)!, sentence)) run.pop();
      flush();
      continue;
    }
  }
  while (run.length > 0 && !isNounLike(run.at(-1)!, sentence)) run.pop();
  flush();
  return [...out];
}

function isNounLike(word: string, sentence: Sentence): boolean {
  return sentence.tokens.some((t) => t.pos === 'NOUN' && t.lemma.replace(/[^a-z-]/g, '') === word);
}

export interface TopicInput {
  reviewId: string;
  year: string;
  phrases: readonly string[];
}

export interface TopicResult {
  id: string;
  label: string;
  keywords: string[];
  review_count: number;
  share: number;
  by_year: Record<string, number>;
}

export interface TopicOptions {
  /** How many topics at most. */
  limit?: number;
  /** A phrase must occur in at least this many reviews. */
  minReviews?: number;
}

export function buildTopics(reviews: readonly TopicInput[], options: TopicOptions = {}): TopicResult[] {
  const limit = options.limit ?? 12;
  const minReviews = options.minReviews ?? Math.max(2, Math.ceil(reviews.length * 0.02));
  const reviewsOf = new Map<string, Set<string>>();
  const yearOf = new Map<string, string>();
  for (const review of reviews) {
    yearOf.set(review.reviewId, review.year);
    for (const phrase of new Set(review.phrases)) {
      let set = reviewsOf.get(phrase);
      if (!set) reviewsOf.set(phrase, (set = new Set()));
      set.add(review.reviewId);
    }
  }
  const ranked = [...reviewsOf.entries()]
    .filter(([, ids]) => ids.size >= minReviews)
    // More reviews first; then longer phrases (more specific); then alphabetical.
    .sort((a, b) => b[1].size - a[1].size || b[0].split(' ').length - a[0].split(' ').length || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));

  const chosen: Array<{ phrase: string; ids: Set<string>; keywords: string[] }> = [];
  for (const [phrase, ids] of ranked) {
    const parent = chosen.find((c) => containsPhrase(phrase, c.phrase) || containsPhrase(c.phrase, phrase));
    if (parent) {
      if (parent.keywords.length < 5 && !parent.keywords.includes(phrase)) parent.keywords.push(phrase);
      continue;
    }
    if (chosen.length < limit) chosen.push({ phrase, ids, keywords: [phrase] });
  }
  const total = reviews.length;
  return chosen.map(({ phrase, ids, keywords }) => {
    const byYear: Record<string, number> = {};
    for (const id of [...ids].sort()) {
      const year = yearOf.get(id)!;
      byYear[year] = (byYear[year] ?? 0) + 1;
    }
    const sortedYears = Object.fromEntries(Object.entries(byYear).sort((a, b) => (a[0] < b[0] ? -1 : 1)));
    return {
      id: phrase.replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, ''),
      label: phrase[0].toUpperCase() + phrase.slice(1),
      keywords,
      review_count: ids.size,
      share: total === 0 ? 0 : Math.round((ids.size / total) * 1000) / 1000,
      by_year: sortedYears,
    };
  });
}

function containsPhrase(longer: string, shorter: string): boolean {
  return longer !== shorter && ` ${longer} `.includes(` ${shorter} `);
}

/**
 * Topics: the recurring themes of the reviews as keyphrases. A keyphrase is a
 * noun phrase of one to three words in dictionary form ("magnet sweep",
 * "insurance claim", "gutter guard"), taken from each sentence's adjectives and
 * nouns, plus two patterns that join nouns with a function word: coordination
 * ("ice and water shield") and place ("nail in the driveway"). Phrases are
 * counted once per review. A phrase's rank is its review count weighted by its
 * length (a two-word phrase counts 3×, three words or more 5×), so specific keyphrases
 * rank above single words; a single word that a qualifying longer phrase
 * contains ("gutter" beside "gutter guard") and generic single words ("photo",
 * "water") never become topics of their own. Ties break by length, then
 * alphabetically: same reviews, same topics.
 */
import { round3 } from './round.ts';
import type { InsightTopic } from './schema.ts';
import type { Sentence, Token } from './sentences.ts';

/** Nouns every roofing review uses: as a topic on their own they say nothing. */
const GENERIC = new Set([
  'roof',
  'roofing',
  'job',
  'work',
  'crew',
  'company',
  'day',
  'time',
  'house',
  'home',
  'year',
  'week',
  'month',
  'thing',
  'lot',
  'guy',
  'team',
  'people',
  'service',
  'experience',
  'everything',
  'anything',
  'something',
  'nothing',
  'way',
  'hour',
  'minute',
  'review',
  'star',
  'business',
  'contractor',
  'roofer',
  'person',
  'one',
  'bit',
  'part',
  'kind',
  'sort',
  'end',
  'side',
  'area',
  'morning',
  'afternoon',
  'evening',
  'night',
  'today',
  'yesterday',
  'tomorrow',
  'couple',
  'place',
  'problem',
  'issue',
  'question',
  'lot',
  'bunch',
  'number',
  'amount',
  'first',
  'last',
  'other',
  'same',
  'few',
  'more',
  'most',
  'much',
  'many',
  'great',
  'good',
  'new',
  'old',
  'whole',
  'next',
  'only',
  'own',
  'such',
  'sure',
  'able',
  'best',
  'better',
  'little',
  'big',
  'small',
  'full',
  // modifiers that do not make a phrase more specific ("single nail", "young man", "final bill")
  'single',
  'young',
  'previous',
  'final',
  'entire',
  'extra',
  'certain',
  'real',
  'different',
  'second',
  'third',
  'half',
  'main',
  'man',
  'woman',
  'lady',
  'wife',
  'husband',
  'neighbor',
  'neighbour',
  'mom',
  'dad',
  'son',
  'daughter',
  'folk',
  'staff',
]);

/**
 * Words too general to be a theme on their own, though fine inside a phrase:
 * "water" alone says nothing, "ice and water shield" does.
 */
const GENERIC_ALONE = new Set([
  'photo',
  'picture',
  'pic',
  'water',
  'rain',
  'weather',
  'storm',
  'winter',
  'summer',
  'spring',
  'fall',
  'shingle',
  'repair',
  'section',
  'right',
  'fair',
  'flat',
  'visit',
  'call',
  'text',
  'phone',
  'email',
  'office',
  'yard',
  'window',
  'top',
  'front',
  'back',
  'inside',
  'outside',
  'room',
  'bedroom',
  'kitchen',
  'garage',
  'porch',
  'wall',
  'ceiling',
  'material',
  'price',
  'cost',
  'money',
  'quote',
  'slope',
  'replacement',
  'install',
  'installation',
  'detail',
  'step',
  'thanks',
  'thank',
  'recommend',
  'quality',
]);

/** Function words allowed inside a keyphrase, in two patterns only. */
const COORDINATION = new Set(['and']);
const PLACE = new Set(['in', 'on', 'around', 'under', 'over']);
const DETERMINERS = new Set(['the', 'my', 'our', 'their', 'a', 'her', 'his']);

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
  const tokens = sentence.tokens;
  const words = tokens.map(keywordOf);
  // Is the word some noun's of this sentence (the last word of a phrase must be)?
  const nounWords = new Set(words.filter((_w, i) => tokens[i].pos === 'NOUN'));
  const isNounLike = (word: string) => nounWords.has(word);
  for (let i = 0; i < tokens.length; i += 1) {
    const token = tokens[i];
    const word = words[i];
    const usable = (token.pos === 'NOUN' || token.pos === 'ADJ') && word.length > 2 && !exclude.has(word);
    if (usable && !token.punct) {
      run.push(word);
      if (token.pos !== 'NOUN') continue;
    } else {
      // A phrase must end with a noun: drop trailing adjectives.
      while (run.length > 0 && !isNounLike(run.at(-1)!)) run.pop();
      flush();
      continue;
    }
  }
  while (run.length > 0 && !isNounLike(run.at(-1)!)) run.pop();
  flush();
  for (const phrase of patternPhrases(sentence, exclude, words)) out.add(phrase);
  return [...out];
}

/** A token's lemma as a keyphrase word: its letters and hyphens. */
function keywordOf(token: Token): string {
  return token.lemma.replace(/[^a-z-]/g, '');
}

/** "ice and water shield" (noun and noun noun) and "nail in the driveway" (noun in [the] noun). */
function patternPhrases(sentence: Sentence, exclude: ReadonlySet<string>, words: readonly string[]): string[] {
  const out: string[] = [];
  const t = sentence.tokens;
  const noun = (i: number) => i < t.length && t[i].pos === 'NOUN' && words[i].length > 2 && !exclude.has(words[i]);
  for (let i = 0; i + 2 < t.length; i += 1) {
    if (!noun(i)) continue;
    const a = words[i];
    if (COORDINATION.has(t[i + 1].normal) && noun(i + 2) && noun(i + 3)) {
      out.push(`${a} and ${words[i + 2]} ${words[i + 3]}`);
    }
    if (PLACE.has(t[i + 1].normal)) {
      const j = DETERMINERS.has(t[i + 2].normal) ? i + 3 : i + 2;
      const b = j < t.length ? words[j] : '';
      // Only the concrete problem words: "nail in the driveway", not "man in the truck".
      if (PLACED.has(a) && noun(j) && !(j + 1 < t.length && t[j + 1].pos === 'NOUN') && !GENERIC.has(b))
        out.push(`${a} in the ${b}`);
    }
  }
  return out;
}

/** Things reviews place somewhere ("nails in the lawn", "debris on the patio"). */
const PLACED = new Set([
  'nail',
  'debris',
  'scrap',
  'granule',
  'trash',
  'shingle',
  'tarp',
  'dumpster',
  'leak',
  'stain',
  'moss',
  'hole',
  'crack',
]);

export interface TopicInput {
  year: string;
  phrases: readonly string[];
}

/** How many topics at most. */
const TOPIC_LIMIT = 12;

/** `minReviews`: a phrase must occur in at least this many reviews. */
export function buildTopics(reviews: readonly TopicInput[], options: { minReviews?: number } = {}): InsightTopic[] {
  // A single word must recur in 2% of reviews; a longer keyphrase, being specific, in 1% (at least 2 either way).
  const minReviews = options.minReviews ?? Math.max(2, Math.ceil(reviews.length * 0.02));
  const minPhraseReviews = options.minReviews ?? Math.max(2, Math.ceil(reviews.length * 0.01));
  // Each phrase's distinct reviews, as their positions in `reviews`, in order.
  const reviewsOf = new Map<string, number[]>();
  for (let index = 0; index < reviews.length; index += 1) {
    for (const phrase of reviews[index].phrases) {
      let list = reviewsOf.get(phrase);
      if (!list) reviewsOf.set(phrase, (list = []));
      if (list[list.length - 1] !== index) list.push(index);
    }
  }
  const lengthOf = (phrase: string) =>
    phrase.split(' ').filter((w) => !COORDINATION.has(w) && !PLACE.has(w) && w !== 'the').length;
  const qualifying: Array<[string, number[]]> = [];
  for (const [phrase, ids] of reviewsOf) {
    if (
      lengthOf(phrase) === 1
        ? ids.length >= minReviews && !GENERIC_ALONE.has(phrase) && !GENERIC.has(phrase)
        : ids.length >= minPhraseReviews
    ) {
      qualifying.push([phrase, ids]);
    }
  }
  // Words that some qualifying longer phrase contains: "gutter" when "gutter guard" qualifies.
  const insidePhrase = new Set<string>();
  for (const [phrase] of qualifying)
    if (lengthOf(phrase) > 1) for (const word of phrase.split(' ')) insidePhrase.add(word);
  const weight = (phrase: string, ids: readonly number[]) => ids.length * (2 * Math.min(3, lengthOf(phrase)) - 1);
  const ranked = qualifying
    .filter(([phrase]) => lengthOf(phrase) > 1 || !insidePhrase.has(phrase))
    // Weighted count first; then longer phrases (more specific); then alphabetical.
    .sort(
      (a, b) =>
        weight(b[0], b[1]) - weight(a[0], a[1]) ||
        lengthOf(b[0]) - lengthOf(a[0]) ||
        (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0),
    );

  const chosen: Array<{ phrase: string; ids: number[]; keywords: string[] }> = [];
  for (const [phrase, ids] of ranked) {
    const parent = chosen.find((c) => containsPhrase(phrase, c.phrase) || containsPhrase(c.phrase, phrase));
    if (parent) {
      if (parent.keywords.length < 5 && !parent.keywords.includes(phrase)) parent.keywords.push(phrase);
      continue;
    }
    if (chosen.length < TOPIC_LIMIT) chosen.push({ phrase, ids, keywords: [phrase] });
  }
  const total = reviews.length;
  return chosen.map(({ phrase, ids, keywords }) => {
    const byYear: Record<string, number> = {};
    for (const index of ids) {
      const year = reviews[index].year;
      byYear[year] = (byYear[year] ?? 0) + 1;
    }
    const sortedYears = Object.fromEntries(Object.entries(byYear).sort((a, b) => (a[0] < b[0] ? -1 : 1)));
    return {
      id: phrase.replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, ''),
      label: phrase[0].toUpperCase() + phrase.slice(1),
      keywords,
      review_count: ids.length,
      share: total === 0 ? 0 : round3(ids.length / total),
      by_year: sortedYears,
    };
  });
}

function containsPhrase(longer: string, shorter: string): boolean {
  return longer !== shorter && ` ${longer} `.includes(` ${shorter} `);
}

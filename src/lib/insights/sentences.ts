/**
 * Text → sentences → tokens, through wink-nlp and its English lite model. The
 * model is loaded once per process, on first use (about 100 ms), and every
 * later call reuses it. Nothing here knows about aspects or polarity: it only
 * gives the rest of the pipeline lowercase words, their lemmas and parts of
 * speech, sentence by sentence, in text order.
 */
import winkNLP from 'wink-nlp';
import model from 'wink-eng-lite-web-model';

export interface Token {
  /** The token as written. */
  text: string;
  /** Lowercased, normalised form (wink `normal`): "didn't" → "did", "n't". */
  normal: string;
  /** Dictionary form: "nails" → "nail", "cleaned" → "clean", "n't" → "not". */
  lemma: string;
  /** Universal POS tag (NOUN, VERB, ADJ, PROPN, PUNCT, ...). */
  pos: string;
  /** True for punctuation and symbols: they end negation scopes and split segments. */
  punct: boolean;
  /** A function word (auxiliary, determiner, pronoun, preposition, ...): never given a general valence. */
  stop: boolean;
  /** `text` lowercased (JavaScript's toLowerCase), made once here rather than by every phrase lookup. */
  lower: string;
  /** `text` starts with an uppercase letter (`/^\p{Lu}/u`). */
  capital: boolean;
  /** `text` starts with a lowercase letter (`/^\p{Ll}/u`). */
  lowerInitial: boolean;
  /** The phrase tries a phrase of which starts with this word (phrases.ts fills it in, for its `generation`). */
  starts: number;
  startsGeneration: number;
  /**
   * Facts of the word that polarity.ts works out on first use and keeps here (-1 until then): its
   * lexicon lookups are pure functions of the fields above, so a word shared by many occurrences
   * is looked up once (see `words` below).
   */
  facts: number;
  /** The word's general valence as polarity.ts takes it from wink's lexicon (NaN until worked out). */
  valence: number;
  /** topics.ts's form of the lemma for keyphrases (undefined until worked out). */
  keyword: string | undefined;
  /** entities.ts's form of the normal for technician names (undefined until worked out). */
  alias: string | undefined;
}

export interface Sentence {
  /** The sentence as written (whitespace collapsed). */
  text: string;
  tokens: Token[];
  /** wink-nlp's own sentence sentiment (-1..1), used when no lexicon word fires. */
  winkScore: number;
}

/** Function words: never given a general valence ("would", "the", "up"). */
const FUNCTION_POS = new Set(['AUX', 'DET', 'PRON', 'ADP', 'CCONJ', 'SCONJ', 'PART', 'NUM']);

type Nlp = ReturnType<typeof winkNLP>;
let nlp: Nlp | undefined;

/**
 * wink's annotations this module reads. Named entities ('ner') and custom
 * entities ('cer', none are learnt) are left out: nothing here reads them, and
 * they are independent of the others (tokens, spans, POS, lemmas and sentiment
 * come out the same without them: checked over 110,000 generated reviews),
 * while NER's automata cost about a fifth of each readDoc.
 */
const PIPE = ['sbd', 'negation', 'sentiment', 'pos'];

/** The one wink instance of the process (pipeline: sentence boundaries, POS, negation, sentiment). */
export function getNlp(): Nlp {
  nlp ??= winkNLP(model, PIPE);
  return nlp;
}

/** Only characters every Unicode normalisation form leaves as they are. */
const ASCII = /^[\x00-\x7f]*$/;

/** `/^\p{Lu}/u` and `/^\p{Ll}/u` of a token, without a Unicode regex for the ASCII ones (nearly all). */
function initialCase(text: string): { capital: boolean; lowerInitial: boolean } {
  const c = text.charCodeAt(0);
  if (c < 128) return c >= 97 && c <= 122 ? LOWER : c >= 65 && c <= 90 ? UPPER : NEITHER;
  return { capital: /^\p{Lu}/u.test(text), lowerInitial: /^\p{Ll}/u.test(text) };
}
const LOWER = { capital: false, lowerInitial: true };
const UPPER = { capital: true, lowerInitial: false };
const NEITHER = { capital: false, lowerInitial: false };

type Tokens = ReturnType<ReturnType<Nlp['readDoc']>['tokens']>;

/**
 * The words met so far, by wink's lexeme id and part of speech: one Token each, shared by every
 * occurrence. Outside contractions, wink derives a token's text, normal, lemma and type from
 * its lexeme id (and, for the lemma, its part of speech) alone, through the model's fixed
 * lexicon: lexemes the model does not know are added once and keep their id, and its lemmatizer
 * looks up the known lexicon only. So four of wink's per-token passes (text, normal, lemma,
 * type), their strings and our own per-token work are done once per distinct word instead of
 * once per token (a corpus has a few thousand distinct words and millions of tokens). Sharing
 * is safe: nothing changes a token after it is made but the facts other modules keep on it
 * (phrases.ts's `starts`, polarity.ts's `facts` and `valence`, topics.ts's `keyword`,
 * entities.ts's `alias`), each a
 * function of the word's fields alone, and so the same for every occurrence.
 */
const words = new Map<number, Token>();
/** Contraction parts by all their fields, so that each distinct one also has one Token. */
const contractionParts = new Map<string, Token>();
/** Part-of-speech tags as small numbers, for the keys of `words`. */
const posIds = new Map<string, number>();
/** More than wink's universal POS tags (17): `id * POS_SLOTS + tag` is one key per lexeme and tag. */
const POS_SLOTS = 64;

/** The token at `index` read from wink one field at a time: a word's first occurrence, and contractions. */
function readToken(all: Tokens, index: number, pos: string): Token {
  const its = getNlp().its;
  const item = all.itemAt(index);
  const written = item.out() as string;
  const normal = item.out(its.normal) as string;
  // wink's typings declare its.lemma with an extra parameter; at run time it is an ordinary its function.
  const lemma = item.out(its.lemma as unknown as typeof its.normal) as string | undefined;
  const type = item.out(its.type) as string;
  const { capital, lowerInitial } = initialCase(written);
  return {
    text: written,
    normal,
    lemma: (lemma ?? normal).toLowerCase(),
    pos,
    punct: type === 'punctuation' || type === 'symbol' || pos === 'PUNCT',
    stop: FUNCTION_POS.has(pos),
    lower: written.toLowerCase(),
    capital,
    lowerInitial,
    starts: 0,
    startsGeneration: -1,
    facts: -1,
    valence: Number.NaN,
    keyword: undefined,
    alias: undefined,
  };
}

/** Splits review text into sentences of tokens. Deterministic: same text, same output. */
export function splitSentences(text: string): Sentence[] {
  const engine = getNlp();
  const its = engine.its;
  // NFKC leaves ASCII text as it is; normalize() costs about as much as the rest of this function.
  const doc = engine.readDoc(ASCII.test(text) ? text : text.normalize('NFKC'));
  const all = doc.tokens();
  const ids = all.out(its.uniqueId) as unknown as number[];
  const pos = all.out(its.pos) as string[];
  // A contraction's parts ("did", "n't") take their normal and lemma from the contraction, not from their lexeme.
  const contractions = all.out(its.contractionFlag) as unknown as boolean[];
  const spaces = all.out(its.precedingSpaces) as string[];
  const spans = doc.sentences().out(its.span) as unknown as Array<[number, number]>;
  const winkScores = doc.sentences().out(its.sentiment) as unknown as number[];
  const sentences: Sentence[] = [];
  for (let index = 0; index < spans.length; index += 1) {
    const [start, end] = spans[index];
    const tokens: Token[] = [];
    let sentenceText = '';
    let hasWord = false;
    for (let i = start; i <= end; i += 1) {
      let token: Token | undefined;
      if (contractions[i]) {
        const read = readToken(all, i, pos[i]);
        const fields = `${read.text}\0${read.normal}\0${read.lemma}\0${read.pos}\0${read.punct}`;
        token = contractionParts.get(fields);
        if (!token) contractionParts.set(fields, (token = read));
      } else {
        let tag = posIds.get(pos[i]);
        if (tag === undefined) posIds.set(pos[i], (tag = posIds.size));
        if (tag < POS_SLOTS) {
          const key = ids[i] * POS_SLOTS + tag;
          token = words.get(key);
          if (!token) words.set(key, (token = readToken(all, i, pos[i])));
        } else token = readToken(all, i, pos[i]); // never with wink's tag set: the token is only not shared
      }
      if (!token.punct) hasWord = true;
      tokens.push(token);
      sentenceText += (i === start || spaces[i] === '' ? '' : ' ') + token.text;
    }
    if (hasWord) sentences.push({ text: sentenceText.trim(), tokens, winkScore: winkScores[index] ?? 0 });
  }
  return sentences;
}

const valenceCache = new Map<string, number>();

/**
 * The general-purpose valence of one word from wink's English sentiment
 * lexicon, on the AFINN-like scale -5..5. Probed once per distinct word and
 * cached, so the cost over a corpus grows with its vocabulary, not its size.
 */
export function winkValence(word: string): number {
  let value = valenceCache.get(word);
  if (value === undefined) {
    const engine = getNlp();
    value = (engine.readDoc(word).out(engine.its.sentiment) as unknown as number) * 5;
    valenceCache.set(word, value);
  }
  return value;
}

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
  /** `text` lowercased. */
  lower: string;
  /** `text` starts with an uppercase letter. */
  capital: boolean;
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

/** wink's annotations this module reads: without named entities ('ner', 'cer'), which nothing reads and which cost a fifth of each readDoc. */
const PIPE = ['sbd', 'negation', 'sentiment', 'pos'];

/** The one wink instance of the process (pipeline: sentence boundaries, POS, negation, sentiment). */
export function getNlp(): Nlp {
  if (!nlp) {
    nlp = winkNLP(model, PIPE);
    // wink numbers the words of its lexicon first and every unknown word after, in the order met:
    // on a fresh instance, the first unknown word's number is where the lexicon ends.
    lexiconSize = (nlp.readDoc('qxzvjkq').tokens().out(nlp.its.uniqueId) as unknown as number[])[0];
  }
  return nlp;
}

let lexiconSize = 0;

/**
 * Whether wink's English lexicon knows a (lower-case) word or its dictionary form: an ordinary
 * word ("closing", "simple", "nicest"); it knows few first names.
 */
export function isLexiconWord(word: string): boolean {
  const engine = getNlp();
  const known = (text: string) => {
    const ids = engine.readDoc(text).tokens().out(engine.its.uniqueId) as unknown as number[];
    return ids.length === 1 && ids[0]! < lexiconSize;
  };
  if (known(word)) return true;
  const lemma = (
    engine
      .readDoc(word)
      .tokens()
      .out(engine.its.lemma as unknown as typeof engine.its.normal) as string[]
  )[0];
  return lemma !== undefined && lemma !== word && known(lemma);
}

/** Splits review text into sentences of tokens. Deterministic: same text, same output. */
export function splitSentences(text: string): Sentence[] {
  const engine = getNlp();
  const its = engine.its;
  const doc = engine.readDoc(text.normalize('NFKC'));
  const all = doc.tokens();
  const written = all.out() as string[];
  const normals = all.out(its.normal) as string[];
  // wink's typings declare its.lemma with an extra parameter; at run time it is an ordinary its function.
  const lemmas = all.out(its.lemma as unknown as typeof its.normal) as Array<string | undefined>;
  const types = all.out(its.type) as string[];
  const pos = all.out(its.pos) as string[];
  const spaces = all.out(its.precedingSpaces) as string[];
  const spans = doc.sentences().out(its.span) as unknown as Array<[number, number]>;
  const winkScores = doc.sentences().out(its.sentiment) as unknown as number[];
  const sentences: Sentence[] = [];
  spans.forEach(([start, end], index) => {
    const tokens: Token[] = [];
    let sentenceText = '';
    for (let i = start; i <= end; i += 1) {
      tokens.push({
        text: written[i],
        normal: normals[i],
        lemma: (lemmas[i] ?? normals[i]).toLowerCase(),
        pos: pos[i],
        punct: types[i] === 'punctuation' || types[i] === 'symbol' || pos[i] === 'PUNCT',
        stop: FUNCTION_POS.has(pos[i]),
        lower: written[i].toLowerCase(),
        capital: /^\p{Lu}/u.test(written[i]),
      });
      sentenceText += (i === start || spaces[i] === '' ? '' : ' ') + written[i];
    }
    if (tokens.some((t) => !t.punct))
      sentences.push({ text: sentenceText.trim(), tokens, winkScore: winkScores[index] });
  });
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

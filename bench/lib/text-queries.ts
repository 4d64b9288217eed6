/**
 * Text queries for the uncached-search load: a fixed, seeded list of distinct
 * `query` values made from a build's own reviews, so that cycling through it
 * sends a query the server has not answered before on every request (the
 * list is far longer than the body LRU, 1,000 entries). Four kinds, in turn:
 *
 * - word:    3 to 12 characters from inside one word of a review (`leak`, `uttering`)
 * - phrase:  8 to 20 characters across two or three words (`the roof was`, `s. The crew`)
 * - missing: 5 to 8 random letters, almost always found nowhere (typos, probing)
 * - short:   1 or 2 characters of a review (`e`, `r `), each with its own `limit`
 *            so the URL is new (there are only a few hundred such needles)
 */
export const TEXT_QUERY_KINDS = ['word', 'phrase', 'missing', 'short'] as const;
type TextQueryKind = (typeof TEXT_QUERY_KINDS)[number];

export interface TextQuery {
  kind: TextQueryKind;
  query: string;
  /** /api/reviews/search?query=…[&limit=…] */
  path: string;
}

/** A seeded generator of numbers in [0, 1): mulberry32, as scripts/generate-reviews.ts. */
function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function textQueries(reviews: ReadonlyArray<{ text: string }>, count: number, seed = 7): TextQuery[] {
  const random = seededRandom(seed);
  const int = (n: number) => Math.floor(random() * n);
  const seen = new Set<string>();
  const out: TextQuery[] = [];
  for (let attempts = 0; out.length < count && attempts < count * 50; attempts++) {
    const kind = TEXT_QUERY_KINDS[out.length % TEXT_QUERY_KINDS.length]!;
    const text = reviews[int(reviews.length)]!.text;
    let query = '';
    let params = '';
    if (kind === 'word') {
      const words = text.match(/[\p{L}\p{N}]{3,}/gu) ?? [];
      const word = words[int(words.length)] ?? '';
      const length = Math.min(word.length, 3 + int(10));
      const from = int(word.length - length + 1);
      query = word.slice(from, from + length);
    } else if (kind === 'phrase') {
      const spaces = [...text.matchAll(/ /g)].map((m) => m.index);
      const space = spaces[int(spaces.length)];
      if (space === undefined) continue;
      const length = 8 + int(13);
      const from = Math.max(0, space - 1 - int(Math.min(length - 2, 8)));
      query = text.slice(from, from + length);
      if (!query.includes(' ')) continue;
    } else if (kind === 'missing') {
      query = Array.from({ length: 5 + int(4) }, () => String.fromCharCode(97 + int(26))).join('');
    } else {
      const from = int(Math.max(1, text.length - 1));
      query = text.slice(from, from + 1 + int(2));
      params = `&limit=${1 + int(100)}`;
    }
    if (query.trim() === '') continue;
    const path = `/api/reviews/search?query=${encodeURIComponent(query)}${params}`;
    if (seen.has(path)) continue;
    seen.add(path);
    out.push({ kind, query, path });
  }
  return out;
}

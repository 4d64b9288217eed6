/**
 * The name an imported review is published under. The site names customers
 * the way its editors type them, "Firstname L.": a first name and a surname's
 * initial tell readers a real person wrote it without publishing who, next to
 * the business's address, for anyone to search. Platforms show full names, so
 * the import shortens them (unless the owner asks for full names), and writes
 * the platform's anonymous reviewer as "<Platform> user".
 */
import { reviewOrigin, sourceName } from '../format/sources.ts';

export interface NameOptions {
  /** Publish the name as the platform shows it (only the anonymous label still applies). */
  fullNames?: boolean;
}

/** What a review is published under: the anonymous label, the name as shown, or its short form. */
export function publishedName(author: string, source: string, { fullNames = false }: NameOptions = {}): string {
  if (isAnonymous(author)) return anonymousLabel(source);
  return fullNames ? author : shortName(author);
}

/**
 * "Google user", "Trustpilot user": the platform's anonymous reviewer, written like the names
 * around it (Google's own "A Google User" reads as a sentence). A review sent to the business
 * itself (email, the website, phone) has no platform: "Anonymous".
 */
export function anonymousLabel(source: string): string {
  const { platform } = reviewOrigin(source);
  if (platform === undefined) return 'Anonymous';
  return `${platform.charAt(0).toLocaleUpperCase('en')}${platform.slice(1)} user`;
}

/**
 * The labels platforms and the exports' readers give a reviewer without a name:
 * "A Google User", "Anonymous", "A Trustpilot user", "Yelp user".
 */
function isAnonymous(author: string): boolean {
  const words = author.trim().toLowerCase().split(/\s+/);
  if (words[0] === 'a' || words[0] === 'an') words.shift();
  if (words.length === 1) return words[0] === 'anonymous' || words[0] === 'anonym' || words[0] === '';
  if (words.length !== 2 || !['user', 'reviewer', 'customer'].includes(words[1]!)) return false;
  // "Happy customer" is a name the customer chose; "Google user" is the platform's label.
  return words[0] === 'anonymous' || sourceName(words[0]!) !== words[0];
}

const TITLES = new Set(['mr', 'mrs', 'ms', 'miss', 'mx', 'dr', 'prof']);
const SUFFIXES = new Set(['jr', 'sr', 'ii', 'iii', 'iv', 'phd', 'md', 'dds', 'esq']);
/** Words that join two people: "Raj & Anita Patel" is published "Raj & Anita P.". */
const CONNECTORS = new Set(['&', '+', 'and', 'und', 'et', 'y', 'e']);
/** Lower-case words a surname starts with: "Jan van der Berg" is "Jan B.". */
const PARTICLES = new Set([
  'van',
  'von',
  'der',
  'den',
  'de',
  'del',
  'della',
  'di',
  'da',
  'do',
  'dos',
  'das',
  'du',
  'la',
  'le',
  'ter',
  'ten',
  'bin',
  'ibn',
  'al',
  'el',
]);
/** "The Okafor Family": a household, its surname shortened like a person's. */
const HOUSEHOLDS = new Set(['family', 'household', 'familie', 'famille', 'familia']);
/** A business that wrote a review (a property manager): not a private person, published as it signs. */
const ORGANISATIONS = new Set(['llc', 'inc', 'ltd', 'corp', 'gmbh', 'llp', 'plc', 'hoa', 'realty', 'properties']);

/** Han, kana and Hangul: names written family name first, without an initial to give. */
const EAST_ASIAN = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;

const graphemes = (text: string) =>
  [...new Intl.Segmenter('und', { granularity: 'grapheme' }).segment(text)].map((s) => s.segment);
const bare = (word: string) => word.toLowerCase().replace(/[.,]/g, '');
/** "Z", "Z.", "J.R.", "S.-J.": a name already shortened to its initials. */
const isInitial = (word: string) => /^\p{L}\.?$|^(?:\p{L}\.-?)+$/u.test(word);
const capitalised = (word: string) => word.charAt(0).toLocaleUpperCase() + word.slice(1);

/**
 * "Firstname L.": the first name and the surname's initial. A single name, an initial for a
 * surname ("Frank Z.") or for a first name ("R. Castillo") is already short and kept; middle
 * names, titles and suffixes are left out ("Dr. Mary Ann Smith Jr." → "Mary S."), unless the
 * title is all there is besides the surname ("Mrs. Smith" → "Mrs. S."); a couple keeps both
 * first names ("Raj & Anita P."); particles belong to the surname ("Jan van der Berg" →
 * "Jan B."); a hyphenated surname gives its first initial ("Zoë Ångström-Nguyễn" → "Zoë Å.");
 * "Smith, John" is "John S."; a household keeps its word ("The Okafor Family" → "The O.
 * Family"). East Asian names (family name first, no initials) keep the family name and hide
 * the given name: "李娜" → "李*".
 */
export function shortName(name: string): string {
  const full = name.replace(/\s+/g, ' ').trim();
  if (EAST_ASIAN.test(full) && !/\p{Script=Latin}/u.test(full)) {
    // Written with a space ("山田 太郎"), the first word is the family name; else its first character.
    const [family, ...rest] = full.includes(' ') ? full.split(' ') : graphemes(full);
    const hidden = graphemes(rest.join('')).length;
    return hidden === 0 ? full : `${family}${'*'.repeat(hidden)}`;
  }
  // Only words with a letter or a digit, and "&": an emoji or a dash between names is no name.
  let words = reordered(full)
    .split(' ')
    .filter((w) => /[\p{L}\p{N}]/u.test(w) || CONNECTORS.has(w));
  if (words.some((w) => ORGANISATIONS.has(bare(w)))) return full;
  while (words.length > 1 && SUFFIXES.has(bare(words.at(-1)!))) words = words.slice(0, -1);
  // A title is dropped before a first name, and kept as one when there is none ("Mrs. S.").
  const titled = words.length === 2 && TITLES.has(bare(words[0]!));
  if (words.length > 2 && TITLES.has(bare(words[0]!))) words = words.slice(1);
  const household = words.length > 1 && HOUSEHOLDS.has(words.at(-1)!.toLowerCase()) ? words.pop() : undefined;
  if (words.length === 0) return full;
  if (words.length === 1 && !household) return words[0]!;
  let start = words.length - 1;
  // Particles belong to the surname, but never as the first word ("Van Morrison").
  while (start > 1 && PARTICLES.has(words[start - 1]!)) start -= 1;
  const given = words.slice(0, start);
  const surname = words.at(-1)!;
  const after = household ? [household] : [];
  if (isInitial(surname) && !titled)
    return [...given, `${surname.replace(/\.$/, '')}.`.toLocaleUpperCase(), ...after].join(' ');
  // "R. Castillo", "J.R. Smith": the customer already hides the first name.
  if (given.length > 0 && given.every(isInitial) && !household) return full;
  const couple = given.some((w) => CONNECTORS.has(w.toLowerCase()));
  let first = titled || couple || household ? given : given.slice(0, 1);
  if (full === full.toLowerCase()) first = first.map((w) => (CONNECTORS.has(w) ? w : capitalised(w)));
  if (household && first.length === 0) first = ['The'];
  return [...first, `${surnameInitial(surname).toLocaleUpperCase()}.`, ...after].join(' ');
}

/** "Smith, John" → "John Smith"; "John Smith, Jr." → "John Smith". */
function reordered(name: string): string {
  const parts = name.split(',').map((p) => p.trim());
  if (parts.length !== 2 || parts[1] === '') return parts.filter(Boolean).join(' ');
  if (SUFFIXES.has(bare(parts[1]!))) return parts[0]!;
  return `${parts[1]} ${parts[0]}`;
}

/** The surname's first letter: "al-Rashid" → R, "Ångström-Nguyễn" → Å, "O'Brien" → O. */
function surnameInitial(surname: string): string {
  const main = surname.replace(/^(?:al|el|bin|ibn|abu)-(?=\p{L})/iu, '');
  const at = main.search(/\p{L}/u);
  return graphemes(at < 0 ? main : main.slice(at))[0] ?? '';
}

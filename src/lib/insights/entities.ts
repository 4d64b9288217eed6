/**
 * Entity linking: which technicians, services and service areas a review is
 * about. A review names them in its frontmatter; people also name technicians
 * in the text the way they speak ("Dave", "Mr. Kowalski", "Tommy's crew",
 * "Maria S."). Capitalised first names in the text that are no known
 * technician are reported as warnings (logged at build time, never a failure)
 * so an editor can add the technician or fix a typo.
 */
import type { Business } from '../reviews/schema.ts';
import { isLexiconWord, splitSentences, type Sentence, type Token } from './sentences.ts';

/** Common short forms of first names, both ways: "Dave" ↔ "David", "Tommy" ↔ "Tom", "Thomas". */
const NICKNAMES: Readonly<Record<string, readonly string[]>> = {
  david: ['dave', 'davey'],
  dave: ['david', 'davey'],
  thomas: ['tom', 'tommy'],
  tommy: ['tom', 'thomas'],
  tom: ['tommy', 'thomas'],
  richard: ['rick', 'ricky', 'rich', 'dick'],
  rick: ['richard', 'ricky', 'rich'],
  sarah: ['sara'],
  sara: ['sarah'],
  michael: ['mike', 'mikey'],
  mike: ['michael'],
  robert: ['rob', 'bob', 'bobby'],
  william: ['will', 'bill', 'billy'],
  james: ['jim', 'jimmy', 'jamie'],
  katherine: ['kate', 'kathy', 'katie'],
  elizabeth: ['liz', 'beth'],
  jennifer: ['jen', 'jenny'],
  anthony: ['tony'],
  christopher: ['chris'],
  daniel: ['dan', 'danny'],
  joseph: ['joe', 'joey'],
  steven: ['steve'],
};

export interface Linker {
  /** Technician ids mentioned in one sentence, in text order, without repeats. */
  technicians(sentence: Sentence): string[];
  /** Service area ids named in one sentence. */
  areas(sentence: Sentence): string[];
  /**
   * Service ids named in one sentence: a service's id as words ("roof-repair": "roof repair"),
   * its name, or a part of its name of two words or more ("Storm damage and insurance claims":
   * "insurance claims"), compared word by word on dictionary forms ("gutters", "skylights").
   */
  services(sentence: Sentence): string[];
  /** Capitalised words in the sentence that look like a person's name but match no technician. */
  unknownNames(sentence: Sentence): string[];
  /** Technician id for a frontmatter name ("Maria Santos") or id. */
  technicianByName(name: string): string | undefined;
}

/** Words that are capitalised in reviews but are not people. */
const NOT_PEOPLE = new Set([
  'i',
  'we',
  'they',
  'he',
  'she',
  'the',
  'a',
  'an',
  'our',
  'my',
  'their',
  'his',
  'her',
  'it',
  'this',
  'that',
  'great',
  'highly',
  'january',
  'february',
  'march',
  'april',
  'may',
  'june',
  'july',
  'august',
  'september',
  'october',
  'november',
  'december',
  'monday',
  'tuesday',
  'wednesday',
  'thursday',
  'friday',
  'saturday',
  'sunday',
  'christmas',
  'thanksgiving',
  'easter',
  'gaf',
  'owens',
  'corning',
  'certainteed',
  'malarkey',
  'iko',
  'tamko',
  'velux',
  'timberline',
  'duration',
  'state',
  'farm',
  'allstate',
  'usaa',
  'geico',
  'progressive',
  'liberty',
  'mutual',
  'farmers',
  'nationwide',
  'google',
  'yelp',
  'angi',
  'bbb',
  'portland',
  'oregon',
  'washington',
  'pnw',
  'northwest',
  'pacific',
  'google',
  'home',
  'depot',
  'lowe',
  'costco',
  'ok',
  'okay',
  'mr',
  'mrs',
  'ms',
  'dr',
  'thanks',
  'thank',
  'wow',
  'yes',
  'no',
  'also',
  'and',
  'but',
  'so',
  'overall',
  'super',
  'very',
]);

/** People's roles, capitalised at the start of a sentence: "Installer was on time". */
const ROLES = new Set([
  'installer',
  'installers',
  'foreman',
  'estimator',
  'inspector',
  'adjuster',
  'roofer',
  'roofers',
  'salesman',
  'salesperson',
  'supervisor',
  'manager',
  'owner',
  'tech',
  'technician',
  'crew',
  'office',
]);

/** Words a platform wraps around a review: Google's "(Translated by Google) … (Original) …". */
const WRAPPER_WORDS = new Set(['translated', 'original']);

/** Trees and woods whose first word is also a first name: "Doug fir", "Jeffrey pine". */
const SPECIES = new Set([
  'doug fir',
  'douglas fir',
  'noble fir',
  'jeffrey pine',
  'ponderosa pine',
  'monterey pine',
  'monterey cypress',
  'leyland cypress',
  'lawson cypress',
  'sitka spruce',
  'engelmann spruce',
  'norway spruce',
  'norway maple',
]);

/** Who a customer names besides the crew: "my neighbor George", "his wife Ann". */
const RELATIONS = new Set([
  'neighbor',
  'neighbour',
  'husband',
  'wife',
  'son',
  'daughter',
  'brother',
  'sister',
  'dad',
  'mom',
  'father',
  'mother',
  'friend',
  'partner',
  'realtor',
  'agent',
  'uncle',
  'aunt',
]);

const PLACE_WORDS = new Set(['in', 'near', 'on', 'at', 'from', 'to', 'of', 'around', 'outside', 'off']);
const POSSESSIVES = new Set(['our', 'my', 'their', 'his', 'her', 'your', 'its']);

export function createLinker(business: Business): Linker {
  const byAlias = new Map<string, string>();
  const firstNames = new Map<string, string[]>();
  for (const t of business.technicians) {
    const parts = t.name.split(/\s+/);
    const first = parts[0].toLowerCase();
    const last = parts.at(-1)!.toLowerCase();
    byAlias.set(t.name.toLowerCase(), t.id);
    byAlias.set(t.id, t.id);
    for (const variant of [first, ...(NICKNAMES[first] ?? [])]) {
      byAlias.set(`${variant} ${last}`, t.id);
      byAlias.set(`${variant} ${last[0]}`, t.id);
      const list = firstNames.get(variant) ?? [];
      if (!list.includes(t.id)) list.push(t.id);
      firstNames.set(variant, list);
    }
    byAlias.set(`mr ${last}`, t.id);
    byAlias.set(`mrs ${last}`, t.id);
    byAlias.set(`ms ${last}`, t.id);
    byAlias.set(last, t.id);
  }
  const areaNames = new Map<string, string>();
  for (const a of business.service_areas) areaNames.set(a.name.toLowerCase(), a.id);
  const businessWords = new Set(
    [business.name, ...business.service_areas.map((a) => a.name), ...business.services.map((s) => s.name)]
      .flatMap((n) => n.toLowerCase().split(/[^a-z]+/))
      .filter(Boolean),
  );

  // A word as the aliases spell it: "Mr." → "mr", "Tommy's" → "tommys".
  const aliasKey = (t: Token) => t.normal.replace(/[.']/g, '');

  function technicians(sentence: Sentence): string[] {
    const found: string[] = [];
    const w = sentence.tokens;
    for (let i = 0; i < w.length; i += 1) {
      // Only capitalised words start a name.
      if (!w[i].capital) continue;
      const lower = aliasKey(w[i]);
      // Two-word forms first: "Dave Kowalski", "Maria S", "Mr Olsen"; then a unique first name or a last name.
      const next = w[i + 1] && aliasKey(w[i + 1]) === '.' ? w[i + 2] : w[i + 1];
      const two = next && !next.punct ? byAlias.get(`${lower} ${aliasKey(next)}`) : undefined;
      const id = two ?? (firstNames.get(lower)?.length === 1 ? firstNames.get(lower)![0] : byAlias.get(lower));
      if (id && !found.includes(id)) found.push(id);
      if (two) i += 1;
    }
    return found;
  }

  function areas(sentence: Sentence): string[] {
    const text = ` ${sentence.tokens.map((t) => t.normal).join(' ')} `;
    const found: string[] = [];
    for (const [name, id] of areaNames) if (text.includes(` ${name} `) && !found.includes(id)) found.push(id);
    return found;
  }

  function unknownNames(sentence: Sentence): string[] {
    const out: string[] = [];
    sentence.tokens.forEach((token, i) => {
      if (token.pos !== 'PROPN' || !/^\p{Lu}\p{Ll}+$/u.test(token.text)) return;
      const lower = token.text.toLowerCase();
      if (NOT_PEOPLE.has(lower) || businessWords.has(lower) || byAlias.has(lower) || firstNames.has(lower)) return;
      if (ROLES.has(lower) || WRAPPER_WORDS.has(lower)) return;
      const previous = sentence.tokens[i - 1];
      const following = sentence.tokens[i + 1];
      // "(Original)": a label in brackets; "Doug fir": a wood; "my neighbor George": not the crew.
      if (previous?.normal === '(' && following?.normal === ')') return;
      if (following && SPECIES.has(`${lower} ${following.lower}`)) return;
      if (previous && RELATIONS.has(previous.lower)) return;
      // A capitalised word after another capitalised word is part of a longer name ("Cedar Ridge", "Home Depot").
      if (previous && previous.capital && previous.pos === 'PROPN') return;
      // Followed by a capitalised word: a place or a brand ("Lake Oswego", "State Farm").
      const next = sentence.tokens[i + 1];
      if (next && next.capital && next.pos === 'PROPN') return;
      // "in Hillsdale", "near Tanasbourne", "our Japanese maple", "a Gatorade bottle": places and things.
      if (previous && (PLACE_WORDS.has(previous.normal) || previous.pos === 'DET' || POSSESSIVES.has(previous.normal)))
        return;
      // At the start of a sentence every word is capitalised: a name there is followed by a verb,
      // a possessive, "and" or a comma ("Kevin was great", "Kevin's office", "Doug and his crew").
      const initial = sentence.tokens.slice(0, i).every((t) => t.punct);
      // An English word written in capitals only because it starts the sentence: "Closing went
      // through", "Simple fix", "Nicest guy" (wink's lexicon knows the word or its lemma; few first names).
      if (initial && isLexiconWord(lower)) return;
      if (
        initial &&
        !(
          next &&
          (next.pos === 'AUX' ||
            next.pos === 'VERB' ||
            next.normal === "'s" ||
            next.normal === 'and' ||
            next.normal === ',')
        )
      )
        return;
      if (!out.includes(token.text)) out.push(token.text);
    });
    return out;
  }

  function technicianByName(name: string): string | undefined {
    return byAlias.get(name.toLowerCase());
  }

  // Read through the same tokenizer as the text.
  const serviceTerms = business.services.flatMap((service) => {
    const parts = service.name.split(/\s+and\s+|,\s*/).filter((part) => part.trim().split(/\s+/).length >= 2);
    const phrases = [...new Set([service.id.replace(/-/g, ' '), service.name, ...parts].map((p) => p.toLowerCase()))];
    return phrases.map((phrase) => ({
      id: service.id,
      words: splitSentences(phrase).flatMap((s) => s.tokens.filter((t) => !t.punct)),
    }));
  });
  function services(sentence: Sentence): string[] {
    const words = sentence.tokens.filter((t) => !t.punct);
    const found: string[] = [];
    for (const { id, words: term } of serviceTerms) {
      if (term.length === 0 || found.includes(id)) continue;
      for (let i = 0; i + term.length <= words.length; i += 1) {
        if (term.every((w, k) => sameWord(words[i + k], w))) {
          found.push(id);
          break;
        }
      }
    }
    return found;
  }

  return { technicians, areas, services, unknownNames, technicianByName };
}

function sameWord(token: Token, word: Token): boolean {
  return (
    token.lemma === word.lemma || token.lower === word.lower || token.lemma === word.lower || token.lower === word.lemma
  );
}

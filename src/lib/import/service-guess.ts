/**
 * The services an imported review is about, guessed from its text for the
 * editor to check. Stricter than the insights' entity linker, which counts
 * every mention ("careful with the skylights" makes a skylight review): here a
 * service counts when a sentence says the job was done or wanted ("new
 * gutters", "tarped the roof", "the insurance claim"), and not when the text
 * only mentions the thing near the job ("careful with the skylights", "shingle
 * grit in the gutters", "three companies told us we needed a new roof"). When
 * no sentence says so, the review gets no service and an editor fills it in.
 *
 * Measured on a labelled set of reviews (test/import/service-guess.test.ts,
 * figures in docs/editing.md). The insights keep their own linker: what the
 * site publishes about services does not change with this.
 */
import { splitSentences } from '../insights/sentences.ts';
import type { Business } from '../reviews/schema.ts';

/**
 * How reviews say a job was one of these services, by the service ids of the sample
 * business.yaml (the usual roofing services). A business's own service that is not listed is
 * found by its id and name, as the insights find it.
 */
const PHRASES: Readonly<Record<string, readonly string[]>> = {
  'roof-replacement': [
    'new (?:(?!tpo|epdm|flat|rubber|membrane|torch)\\w+ ){0,2}roof(?!\\w| (?:vents?|jacks?|boots?|fans?)\\b)',
    're-?roof(?:ed|ing|s)?',
    'tor?e? off (?:the |our |my |her |his |their )?(?:old |existing |whole |entire )?(?:roof|shingles|shakes|cedar)',
    'tear-?off',
    'replac(?:e|ed|ing) (?:the |our |my |her |his |their |a |it with a )?(?:whole |entire |full |old |garage |\\w+ )?roof(?!\\w| (?:vents?|jacks?|boots?|fans?|decking)\\b)',
    '(?<!(?:skylight|gutter|window|vent|fan|boot|flashing|tile|shingle|fascia)s? )replacement(?! (?:of|for) (?:the |our |a )?(?:skylight|gutter|window|vent|fan|boot|tile|shingle))',
  ],
  'roof-repair': [
    'patch(?:ed|es|ing)?',
    're-?seal(?:ed|ing)?',
    'vent boots?',
    '(?:missing|blown|loose|cracked|broken|damaged) (?:\\w+ )?(?:shingles?|tiles?)',
    'nail pops?',
    'fix(?:ed)? (?:the|our|a) (?:roof|leak)',
    'repair(?:ed)? (?:the|our) roof',
    'roof (?:was |were )?repaired',
    'structural repair',
    'ridge cap',
    '(?:chimney|valley|step|wall) flashing',
  ],
  'roof-inspection': [
    '(?<!(?:city|final|building|permit|county|re-) ?)inspect(?:ion|ions|ed|ing)?(?! (?:by the city|passed))',
    'roof check',
    'check (?:it|the roof|everything) (?:over )?after',
    'second opinion',
  ],
  gutters: ['(?:rain )?gutters?(?! grit)', 'downspouts?', 'fascia'],
  'storm-damage': [
    'insurance (?:claims?|company|companies|paperwork|part|adjuster|carrier)',
    '(?<!warranty )claims?(?! to)',
    'adjusters?',
    'hail',
    'storm damage',
    'wind damage',
    'state farm|allstate|usaa|farmers insurance|liberty mutual|geico|nationwide',
  ],
  skylights: ['skylights?', 'velux', 'sun ?tunnels?', 'solar tubes?'],
  'flat-roofing': [
    'flat (?:roof|section|part|portion|area)s?',
    'low-? ?slope',
    'tpo',
    'epdm',
    'membrane',
    'torch-? ?down',
    'tar and gravel',
    'modified bitumen',
    'rubber roof',
  ],
  'emergency-tarping': ['tarp(?:s|ed|ing)?', 'emergency (?:line|call|service|visit|number|repair)'],
  'moss-removal': ['moss', 'lichen', 'zinc strips?', 'roof clean(?:ing|ed)', 'clean(?:ed)? the roof'],
  'attic-ventilation': [
    'ventilat(?:ion|ed|e|ing)',
    '(?:ridge|soffit|intake|exhaust|gable|passive|box|attic|static) vents?',
    'attic fans?',
    'bathroom fans?',
    'baffles',
    'roof jacks?',
    'vent(?:ed|ing) (?:straight )?into the attic',
    '(?:condensation|frost) (?:in|on)',
  ],
};

/**
 * What every job starts from ("a leak", "repaired"): a repair only when the review names no
 * other service, whose job it then was ("the skylight was leaking; they replaced it").
 */
const GENERIC: Readonly<Record<string, readonly string[]>> = {
  'roof-repair': [
    '(?<!(?:skylight|gutter|fascia|rafter|structural|emergency)s? )repair(?:ed|s|ing)?(?! (?:the |our )?(?:gutter|skylight))',
    'leak(?:s|ing|ed)?',
  ],
};

/**
 * Words just before a mention that make it a thing near the job, not the job: the crew was
 * careful with it or protected it, did something extra to it, it was found or talked about, a
 * place where debris went.
 */
const INCIDENTAL_BEFORE = new RegExp(
  `\\b(?:${[
    'careful (?:with|around|of)',
    'protect(?:ed|ing|s)?',
    'cover(?:ed|ing|s)?',
    '(?:careful|work(?:ed)?) around',
    'avoid(?:ed|ing)?',
    'without',
    'even',
    'near',
    'next to',
    'into',
    'flagged',
    'noted',
    'noticed',
    'mentioned',
    '(?:would|could|might) have',
    'clogged',
    'passed',
    '(?:quote|estimate|bid|price) (?:on|for)',
    'dented',
    'scratched',
    'sell us',
    'told us',
    'said',
  ].join('|')})\\b[^,;:]*$`,
);

/** How many words before a mention are read for INCIDENTAL_BEFORE. */
const WINDOW = 6;

/**
 * Words just after a mention that make it a place or a step of another job, not the job: "the
 * gutters full of grit", "a replacement quote", "tarped every night" (during a replacement).
 */
/** Right before a mention: "no leaks", "not one broken tile". */
const NONE_BEFORE = /\b(?:no|not one|not a|without any|zero)(?: more)?\s*$/;

const INCIDENTAL_AFTER =
  /^\s*(?:full of|clogged|untouched|intact|spotless|quotes?|estimates?|bids?|(?:every|each) (?:night|evening)|when it (?:rained|drizzled))\b/;

export function guessServices(business: Business): (text: string) => string[] {
  const terms = (phrases: readonly string[]) => new RegExp(`\\b(?:${phrases.join('|')})\\b`, 'g');
  const specific = business.services.map((service) => {
    const words = service.id.split('-').join(' ');
    const name = service.name.toLowerCase().replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    const own = [words, name].map((p) => p.replace(/ /g, '[ -]'));
    return { id: service.id, pattern: terms([...(PHRASES[service.id] ?? []), ...own]) };
  });
  const generic = business.services
    .filter((service) => GENERIC[service.id])
    .map((service) => ({ id: service.id, pattern: terms(GENERIC[service.id]!) }));
  return (text) => {
    const sentences = splitSentences(text).map((s) => s.text.toLowerCase().replace(/[’‘]/g, "'"));
    const found = said(sentences, specific);
    if (found.size === 0) for (const id of said(sentences, generic)) found.add(id);
    return business.services.map((s) => s.id).filter((id) => found.has(id));
  };
}

/** The services whose terms some sentence uses for the job itself. */
function said(sentences: readonly string[], patterns: ReadonlyArray<{ id: string; pattern: RegExp }>): Set<string> {
  const found = new Set<string>();
  for (const sentence of sentences)
    for (const { id, pattern } of patterns) {
      if (found.has(id)) continue;
      for (const match of sentence.matchAll(pattern))
        if (!incidental(sentence, match.index, match.index + match[0].length)) {
          found.add(id);
          break;
        }
    }
  return found;
}

function incidental(sentence: string, start: number, end: number): boolean {
  const before = sentence.slice(0, start).split(/\s+/).filter(Boolean).slice(-WINDOW).join(' ');
  return (
    INCIDENTAL_BEFORE.test(before) ||
    NONE_BEFORE.test(sentence.slice(0, start)) ||
    INCIDENTAL_AFTER.test(sentence.slice(end))
  );
}

/**
 * The roofing domain lexicon: which words name an aspect of the work, and which
 * words carry sentiment in this trade that a general lexicon misses ("leak",
 * "sloppy", "late", "overpriced"). Documented in docs/insights.md; editors and
 * engineers extend it here, and test/insights/evaluate.test.ts guards accuracy.
 *
 * Conventions
 * - A term is one or more words in dictionary form (lemmas), space separated:
 *   "clean up" matches "cleaned up", "cleaning up"; "nail" matches "nails".
 *   Each word matches a token's lemma or its lowercase form, so irregular forms
 *   can be listed as written ("showed up").
 * - The longest term wins at a position and consumes its words: "nail head"
 *   (workmanship) is not also "nail" (cleanup).
 * - A term marked weak (a leading `~`) names an aspect only when nothing else
 *   in the same segment (between commas) does: "the roof is great" is workmanship, but in "the
 *   crew trampled the garden next to the roof" the roof is not the point.
 *   A weak term also needs an opinion: in "we bought the house in 2015 and
 *   the roof was original" no aspect is named.
 * - A term marked contextual (a leading `?`) names its aspect only when a cue
 *   of that aspect (CONTEXT_CUES) is in the same clause: "driveway" is
 *   property care in "they scratched the driveway" or "covered the driveway",
 *   not in "a dumpster in the driveway" or "nails in the driveway" (cleanup).
 * - A term ending in `/n` matches only a noun: a soda "can", not "can't".
 * - NOT_ASPECT_TERMS are phrases that consume their words without naming an
 *   aspect: "fast food" is not timeliness, "broken down" (itemised) not damage.
 */

export const ASPECT_IDS = [
  'workmanship',
  'timeliness',
  'communication',
  'cleanup',
  'price',
  'professionalism',
  'estimate_insurance',
  'warranty',
  'safety',
] as const;

export type AspectId = (typeof ASPECT_IDS)[number];

export interface AspectDefinition {
  id: AspectId;
  label: string;
  description: string;
  terms: readonly string[];
}

export const ASPECTS: readonly AspectDefinition[] = [
  {
    id: 'workmanship',
    label: 'Workmanship and quality',
    description: 'How well the roof, repair or install was done and how it holds up: leaks, flashing, lines, materials.',
    terms: [
      'workmanship', 'craftsmanship', 'quality', 'attention to detail', 'detail', 'well do', 'well build',
      'leak', 'leaky', 'leaking', 'drip', 'dripping', 'water damage', 'stain', 'ceiling stain', 'condensation', 'dry', 'bone dry',
      'flashing', 'seal', 'sealed', 'seam', 'valley', 'ridge', 'ridge cap', 'ridge vent', 'ridge line', 'drip edge', 'pipe boot', 'vent boot',
      'nail head', 'exposed nail', 'shoddy', 'crooked', 'curl', 'curling', 'lift', 'lifting', 'loose', 'rattle', 'whistle', 'overflow',
      'fog', 'fogging', 'soft spot', 'patchy', 'mismatched', 'upside down', 'hold up', 'held up', 'last', 'result', 'end result',
      'finished product', 'finish roof', 'look brand new', 'look great', 'look fantastic', 'look nice', 'look good', 'look amazing', 'look perfect', 'gorgeous', 'beautiful', 'straight', 'neat line',
      'solid job', 'match', 'matched', 'moss treatment', 'ventilation', 'attic fan', 'gutter guard', 'metal roof', 'decking', 'plywood',
      '~roof', '~shingle', '~repair', '~job', '~work', '~install', '~installation', '~gutter', '~skylight', '~vent', '~chimney', '~look',
    ],
  },
  {
    id: 'timeliness',
    label: 'Timeliness and scheduling',
    description: 'Showing up when promised, start dates, delays, how long the job took, emergency response time.',
    terms: [
      'on time', 'late', 'early', 'earlier', 'schedule', 'scheduled', 'scheduling', 'reschedule', 'rescheduling', 'on schedule',
      'ahead of schedule', 'behind schedule', 'delay', 'delayed', 'wait', 'waited', 'waiting', 'prompt', 'promptly', 'punctual',
      'timely', 'timeline', 'quick', 'quickly', 'fast', 'slow', 'show up', 'showed up', 'shown up', 'never come', 'never came',
      'no-show', 'same day', 'next day', 'next morning', 'within hour', 'within a day', 'turnaround', 'take forever', 'took forever',
      'forever', 'drag on', 'dragged on', 'take long', 'took longer', 'longer than', 'start date', 'appointment', 'sooner',
      'right away', 'in and out', 'in a day', 'day and a half', 'disappear', 'disappeared', 'run over', 'ran over', 'week over',
      'efficient', 'efficiently', 'clockwork', 'fit us in', 'peak season', 'leave early', 'left early', 'finished early', 'start on time',
    ],
  },
  {
    id: 'communication',
    label: 'Communication',
    description: 'Calls, texts and emails answered, updates during the job, explanations in plain words, listening.',
    terms: [
      'communication', 'communicate', 'communicative', 'call', 'call back', 'called back', 'return call', 'call ahead', 'phone',
      'voicemail', 'text', 'texted', 'email', 'emailed', 'update', 'updates', 'inform', 'informed', 'in the loop', 'in the dark',
      'explain', 'explained', 'explanation', 'answer', 'answered', 'unanswered', 'question', 'respond', 'responsive', 'unresponsive',
      'reach', 'office', 'office staff', 'listen', 'listened', 'keep us posted', 'straight answer', 'story', 'tell', 'told',
      'photo of the decking', 'send photo', 'sent photo', 'plain english', 'walk us through', 'walked us through', 'chase', 'get back to',
      'got back to', 'status', 'heads up', 'helped us pick', 'help us pick', 'pick up the phone', 'picked up the phone', 'answer the phone',
    ],
  },
  {
    id: 'cleanup',
    label: 'Cleanup',
    description: 'Debris, nails and scraps after the job: magnet sweeps, raking, hauling away, the state of yard and driveway.',
    terms: [
      'clean up', 'cleaned up', 'cleanup', 'clean-up', 'cleaning up', 'cleaning', 'clean', 'cleaner', 'mess', 'messy', 'debris',
      'nail', 'magnet', 'magnet sweep', 'sweep', 'swept', 'tidy', 'trash', 'garbage', 'litter', 'wrapper', 'can/n', '~dumpster', 'haul',
      'hauled', 'haul away', 'rake', 'raked', 'raking', 'scrap', 'scraps', 'granule', 'tar paper', 'leave behind', 'left behind',
      'spotless', 'filthy', 'pick up', 'picked up', 'job site', 'jobsite', 'old gutter', 'old flashing', 'never know they', 'bottle cap',
      'left the property', 'flat tire', 'impeccable', 'sandbox',
    ],
  },
  {
    id: 'price',
    label: 'Price and value',
    description: 'Cost, value for money, fair or hidden charges, deposits, bids compared with others, financing.',
    terms: [
      'price', 'priced', 'pricing', 'overprice', 'overpriced', 'pricey', 'cost', 'costly', 'expensive', 'cheap', 'cheaper', 'cheapest',
      'affordable', 'value', 'worth', 'worth it', 'money', 'dollar', 'thousand', 'bill', 'invoice', 'charge', 'charged', 'fee', 'fees',
      'deposit', 'budget', 'bid', 'bargain', 'financing', 'total', 'paid', 'pay', 'upsell', 'competitor', 'reasonable', 'fair price',
      'by the square', 'no charge', 'for free', 'free of charge', 'up front about cost', 'upfront',
    ],
  },
  {
    id: 'professionalism',
    label: 'Professionalism and crew conduct',
    description: 'How the crew and staff behaved: courtesy, honesty, respect for the home, pressure sales, language, smoking, music.',
    terms: [
      'professional', 'professionalism', 'unprofessional', 'polite', 'courteous', 'respectful', 'respect', 'rude', 'friendly',
      'kind', 'nice', 'nicer', 'honest', 'dishonest', 'pushy', 'pressure', 'high-pressure', 'smoke', 'smoking', 'music', 'curse',
      'cursing', 'swear', 'language', 'manners', 'attitude', 'introduce', 'introduced', 'treat', 'treated', 'pleasure', 'patient',
      'defensive', 'blame', 'blamed', 'salesman', 'sales', 'shrug', 'shrugged', 'booties', 'good morning', 'lunch break',
      'true professional', 'nice crew', 'great people', 'ask before',
      '~crew', '~guy', '~guys', '~worker', '~workers', '~foreman', '~owner', '~people',
    ],
  },
  {
    id: 'estimate_insurance',
    label: 'Estimate and insurance help',
    description: 'Inspections, estimates and quotes, reports, insurance claims, adjusters and paperwork.',
    terms: [
      'estimate', 'estimates', 'quote', 'quoted', 'inspection', 'inspect', 'inspected', 'report', 'insurance', 'insurer', 'claim',
      'adjuster', 'paperwork', 'supplement', 'state farm', 'allstate', 'approve', 'approved', 'approval', 'deny', 'denied',
      'document the', 'hail damage', 'storm damage', 'free inspection', 'free estimate', 'insurance company', 'insurance process',
    ],
  },
  {
    id: 'warranty',
    label: 'Warranty and follow-up',
    description: 'Warranties honoured or not, coming back to fix problems after the job, follow-up checks.',
    terms: [
      'warranty', 'warranties', 'guarantee', 'guaranteed', 'follow up', 'followed up', 'follow-up', 'stand behind', 'stood behind',
      'come back', 'came back', 'back out', 'back the next day', 'callback', 'checkup', 'check-up', 'honor', 'honour', 'under warranty',
      'return visit', 'warranty claim', 'warranty work', 'warranty fix', 'ten-year', 'lifetime', 'workmanship warranty',
      'warranty paperwork', 'warranty registration',
    ],
  },
  {
    id: 'safety',
    label: 'Safety and property care',
    description: 'Harnesses and ladders, tarps and protection, and care for plants, cars, siding, windows and the rest of the property.',
    terms: [
      // care and damage words: safety wherever they occur
      'safety', 'safe', 'harness', 'harnesses', 'tie off', 'tied off', 'roof jack', 'ladder', 'tarp', 'tarped', 'protect', 'protected',
      'plywood over', 'dent', 'dented', 'scratch', 'scratched', 'crack', 'cracked', 'break', 'broke', 'broken', 'bent',
      'trample', 'trampled', 'crush', 'crushed', 'shatter', 'shattered', 'careful', 'carefully', 'nearly hit', 'chute',
      'step through', 'stepped through', 'tar drip', 'drop zone', 'fall protection',
      // the property and the people around it: safety only next to a care or damage cue (CONTEXT_CUES)
      '?cover', '?covered', '?plant', '?garden', '?landscaping', '?flower bed', '?flower beds', '?bush', '?bushes', '?hydrangea',
      '?lavender', '?lawn', '?car', '?siding', '?window', '?patio', '?deck', '?driveway', '?sprinkler', '?kid', '?child', '?dog',
      '?drop', '?dropped', '?fall', '?fell', '?greenhouse', '?pavers', '?furniture', '?potted plant', '?sunroom', '?hood',
      '?ac unit', '?fence', '?mailbox', '?gate',
    ],
  },
];

/**
 * Cues that make a contextual (`?`) term count for its aspect when they occur
 * in the same clause. For safety: the care and damage words, and the property
 * words themselves ("covered the deck": each is the other's cue).
 */
export const CONTEXT_CUES: Readonly<Partial<Record<AspectId, readonly string[]>>> = {
  safety: [
    'protect', 'protected', 'protection', 'cover', 'covered', 'tarp', 'tarped', 'plywood', 'shield', 'careful', 'carefully', 'care',
    'dent', 'dented', 'scratch', 'scratched', 'crack', 'cracked', 'break', 'broke', 'broken', 'bent', 'trample', 'trampled', 'crush',
    'crushed', 'shatter', 'shattered', 'damage', 'damaged', 'ruin', 'ruined', 'destroy', 'destroyed', 'smash', 'smashed', 'hit',
    'hurt', 'injure', 'injured', 'danger', 'dangerous', 'unsafe', 'safe', 'safety', 'stomp', 'stomped', 'flatten', 'flattened',
    'ding', 'dinged', 'chip', 'chipped', 'gouge', 'gouged', 'stain', 'stained', 'tar', 'drop', 'dropped', 'fall', 'fell', 'land', 'landed',
    'plant', 'garden', 'landscaping', 'flower', 'bush', 'hydrangea', 'lavender', 'lawn', 'car', 'siding', 'window', 'patio', 'deck',
    'driveway', 'sprinkler', 'greenhouse', 'pavers', 'furniture', 'sunroom', 'hood', 'fence', 'mailbox', 'gate', 'kid', 'child', 'dog',
  ],
};

/** Phrases that consume their words without naming any aspect (see the conventions above). */
export const NOT_ASPECT_TERMS: readonly string[] = [
  'fast food', 'break down', 'broken down', 'broke down', 'wind pick up', 'window of', 'appointment window', 'time window',
  'arrival window', 'cover letter', 'cover the cost', 'covered the cost', 'cover most', 'covered most', 'pick up the tab',
];

/**
 * Domain valences on the AFINN scale (-5..5): words and phrases whose
 * sentiment in a roofing review differs from, or is missing in, the general
 * lexicon. They override wink's general valence for the same word.
 */
export const DOMAIN_VALENCE: Readonly<Record<string, number>> = {
  // problems with the roof itself
  leak: -3, leaky: -3, leaking: -3, drip: -2, dripping: -2, 'water damage': -3, stain: -2, condensation: -1.5, 'soft spot': -2,
  shoddy: -3, sloppy: -3, crooked: -2, curl: -2, curling: -2, lifting: -1.5, loose: -2, rattle: -2, whistle: -1.5, overflow: -2,
  fog: -1.5, fogging: -1.5, patchy: -2, mismatched: -2, 'upside down': -2, exposed: -1.5, separate: -1.5, separating: -1.5,
  rot: -1, fail: -3, failed: -3, 'caulk over': -2, 'caulked over': -2, wander: -1.5, 'pull away': -2, 'bone dry': 2, dry: 1,
  gorgeous: 3, finally: 1.5, straight: 1, tight: 1.5, neat: 2, solid: 2, 'brand new': 2, 'hold up': 2, 'held up': 2, sharp: 1.5,
  match: 1, 'work well': 2, 'huge difference': 2.5, flashing: 0, flash: 0, color: 0, colour: 0,
  // time
  late: -2, 'on time': 2, 'ahead of schedule': 2.5, 'behind schedule': -2, 'on schedule': 2, delay: -2, delayed: -2, reschedule: -1.5,
  rescheduling: -1.5, waited: -1, 'take forever': -2.5, 'took forever': -2.5, forever: -1.5, 'drag on': -2, 'dragged on': -2,
  slow: -2, prompt: 2, promptly: 2, punctual: 2, timely: 2, quick: 1.5, quickly: 1.5, fast: 1.5, efficient: 2, efficiently: 2,
  'same day': 1.5, 'same afternoon': 1.5, 'same morning': 1.5, 'same week': 1, 'within hour': 1.5, 'within hours': 1.5, 'within an hour': 1.5, 'next day': 1, 'next morning': 1, 'right away': 1.5, clockwork: 2, 'no-show': -3, 'never come': -3,
  'never came': -3, disappear: -2, disappeared: -2, 'ran over': -1.5, 'run over': -1.5, 'week over': -1.5, 'took longer': -1.5,
  'longer than': -1, 'fit us in': 2, sooner: -0.5, 'leave early': -1.5, 'left early': -1.5, 'in and out': 1.5,
  // communication
  voicemail: -1, unanswered: -2, unresponsive: -3, responsive: 2.5, communicative: 2, 'in the loop': 2, 'in the dark': -2.5,
  informed: 1.5, 'call ahead': 1.5, 'called ahead': 1.5, 'straight answer': 1, 'different story': -2, chase: -1.5, 'plain english': 2,
  'easy to reach': 2, listened: 1, 'get back to': 1, 'got back to': 1, 'call back': 1, 'called back': 1, 'follow up': 1,
  'followed up': 1, 'walk us through': 1.5, 'walked us through': 1.5,
  // cleanup
  mess: -2, messy: -2, debris: -1, nail: -1, trash: -1.5, garbage: -1.5, litter: -2, wrapper: -1, filthy: -3, spotless: 3,
  tidy: 2, clean: 2, cleaner: 2, 'clean up': 1, 'cleaned up': 1, 'cleaning up': 1, magnet: 1.5, 'magnet sweep': 1.5,
  impeccable: 3, thorough: 2, 'left behind': -1.5, 'leave behind': -1.5, granule: -1, scrap: -1, scraps: -1, 'flat tire': -2,
  // price
  overprice: -3, overpriced: -3, pricey: -1.5, expensive: -1.5, costly: -1.5, excessive: -2, cheap: 0.5, cheaper: 1, cheapest: 1,
  affordable: 2, reasonable: 2, bargain: 2.5, 'good value': 2.5, 'great value': 3, fair: 2, 'hidden fee': -2.5, 'hidden fees': -2.5,
  'surprise charge': -2, upsell: -1, upfront: 1.5, 'no charge': 2, 'for free': 2, 'free of charge': 2, 'not worth': -2,
  'worth it': 2,
  // conduct
  rude: -3, unprofessional: -3, dishonest: -3, pushy: -2.5, 'high-pressure': -2.5, smoking: -2, cursing: -2, curse: -2,
  defensive: -2, blame: -2, blamed: -2, shrug: -1.5, shrugged: -1.5, courteous: 2.5, polite: 2.5, respectful: 2.5, professional: 2,
  'true professional': 3, honest: 2, patient: 1.5, pleasure: 2, 'blast music': -2, blasted: -2, 'treat our home like': 2.5,
  'treated our home like': 2.5, booties: 1,
  // estimate / insurance
  vague: -2, rushed: -2, denied: -2, deny: -2, approved: 1.5, approve: 1.5, painless: 2.5, 'no pressure': 2, 'no help': -2.5,
  nightmare: -3, 'big help': 2.5, 'kept changing': -2,
  // warranty
  'stand behind': 2.5, 'stood behind': 2.5, worthless: -3, refuse: -2, refused: -2, 'peace of mind': 2.5, 'no questions asked': 2,
  'no hassle': 2, 'good luck': -1.5,
  // property care
  dent: -2, dented: -2, crack: -2, cracked: -2, shatter: -3, shattered: -3, trample: -3, trampled: -3, crush: -2.5, crushed: -2.5,
  bent: -2, broke: -2, broken: -2, 'nearly hit': -3, careful: 2, protect: 1.5, protected: 1.5, 'tar drip': -2, scratch: -1.5,
  scratched: -2, 'plywood over': 1.5, 'fast food': 0, stop: 0, stopped: 0, hole: -2, impossible: -2, 'tear off': 0, 'tear-off': 0, tear: 0, tearing: 0,
  // context words that a general lexicon scores but that say nothing about the company here
  storm: 0, 'ice storm': 0, windstorm: 0, hail: 0, wind: 0, overnight: 0, work: 0, still: 0, pay: 0, paying: 0, right: 1,
  damage: -1, noise: -0.5, stressful: -1, easy: 2, 'go up': -1.5, 'went up': -1.5, 'break down': 1, 'broken down': 1,
  itemized: 1.5, 'line by line': 1.5, harness: 1, harnesses: 1, 'drop zone': 0, apologize: 1, apologized: 1, smoke: -2, smoked: -2,
  'loud music': -2, music: 0, finish: 1, finished: 1, 'no cost': 2, 'stop return': -2.5, 'stopped returning': -2.5,
  'stop answer': -2.5, 'stopped answering': -2.5, 'stop respond': -2.5,
  // climbing is not a price rise; rooms and shingle colours are not opinions
  'go up into': 0, 'go up onto': 0, 'go up on': 0, 'go up the ladder': 0, 'go up in the attic': 0, 'master bath': 0,
  'master bathroom': 0, 'master bedroom': 0, 'master suite': 0, charcoal: 0, 'weathered wood': 0, slate: 0,
  // showing the customer the roof is the transparency reviewers praise
  'show us photo': 1.5, 'show us picture': 1.5, 'show me photo': 1.5, 'show me picture': 1.5, 'send us photo': 1.5,
  'send photo': 1.5, 'send us picture': 1.5,
  // overall verdicts people write in reviews
  avoid: -3, beware: -3, letdown: -3, disappointed: -3, 'never again': -3, 'five star': 3, 'zero star': -3, 'would not recommend': -3,
  recommend: 2, 'highly recommend': 3, 'go back': 1, 'hire again': 2.5, 'use them again': 2.5, 'call them again': 2,
  'look elsewhere': -2.5, 'go elsewhere': -2.5, 'thumbs down': -2.5, 'thumbs up': 2.5, 'to die for': 3, mediocre: -2,
  disappointing: -3, disrespected: -2.5, disrespectful: -2.5, waste: -2, wasted: -2, 'sub-par': -2, subpar: -2,
};

/** Fixed expressions: their valence is taken as is, never flipped by a negator inside them. */
export const FIXED_EXPRESSIONS: Readonly<Record<string, number>> = {
  'could not be happy': 3, 'could not be happier': 3, 'could not have ask for': 3, 'could not beat': 2.5, 'can not beat': 2.5,
  'can not say enough': 3, 'no complaint': 2, 'no problem': 1.5, 'no issue': 1.5, 'not an issue': 1.5, 'no hassle': 2,
  'no pressure': 2, 'no delay': 2, 'no surprise': 1.5, 'no question ask': 2, 'not once': 0, 'without a doubt': 2,
  'not just good': 3, 'not only': 0, 'not cheap': -1.5, 'not worth': -2, 'no help': -2.5, 'zero star': -3,
  'would not recommend': -3, 'would never': -2.5, 'never again': -3, 'nothing leave behind': 2.5,
  'nothing left behind': 2.5, 'have have better': -2, 'had better': -2, 'leave a lot to be desire': -2.5,
  'leaves a lot to be desired': -2.5, 'left a lot to be desired': -2.5, 'to die for': 3, 'never know': 2, 'not even': -1, 'not happy': -2.5,
  'not great': -2, 'not good': -2.5, 'would never know': 2, 'never know they': 2, 'not even a': 0,
  'not bother to': -2, 'not even bother': -2, 'not charge': 2, 'not charge us': 2, 'charge twice': -2, 'charged twice': -2,
  'charge us twice': -2, 'double charge': -2, 'double charged': -2, 'when they say they would': 2, 'when they said they would': 2,
  'know exactly what': 2, 'knew exactly what': 2, 'know what they be do': 2, 'want to like': -2, 'wanted to like': -2,
  'want to love': -2, 'wanted to love': -2, 'not bad': 1.5, 'not too bad': 1.5, 'not so bad': 1.5, 'not disappoint': 2,
  'not disappointed': 2, 'not regret': 2.5, 'not hesitate': 2.5, 'not wait to': 2, 'can not wait': 2, 'would recommend': 2.5,
  'will recommend': 2.5, 'will be back': 2, 'will come back': 2, 'not be back': -2.5, 'not come back': -2.5, 'not go back': -2.5,
  'not return': -2.5, 'nothing but praise': 3, 'nothing but good': 3, 'nothing but great': 3, 'nothing but positive': 3,
  'nothing but compliment': 3, 'nothing but nice': 3, 'no need': 0.5, 'not need': 0.5, 'no hesitation': 2, 'without hesitation': 2, 'not be return': -2.5, 'no longer': -0.5, 'not worth it': -2.5, 'waste of money': -3, 'waste of time': -3,
};

/** Words that flip the valence of what follows, up to NEGATION_WINDOW words or the end of the clause. */
export const NEGATORS: ReadonlySet<string> = new Set([
  'not', "n't", 'no', 'never', 'nobody', 'nothing', 'none', 'neither', 'nor', 'without', 'hardly', 'barely', 'cannot', 'zero',
  'lack', 'lacking',
]);
/** Inside a negation scope these extend it ("no one ever smoked or played loud music"); "and" ends it ("didn't clean up and left"). */
export const NEGATION_EXTENDERS: ReadonlySet<string> = new Set(['or', 'nor']);
export const NEGATION_STOPPERS: ReadonlySet<string> = new Set(['and', 'because', 'so', 'since', 'which', 'while', 'when', 'if']);
/**
 * A negator that negates no opinion word still says something was not done
 * ("they didn't call", "no one told us", "with no explanation"): it counts as
 * this raw valence (AFINN scale) when its scope holds a verb, noun or adjective
 * and no sentiment word.
 */
export const BARE_NEGATION_VALENCE = -1.5;
export const NEGATION_WINDOW = 4;

/** Words that strengthen (> 1) or soften (< 1) the next sentiment-bearing word. */
export const INTENSIFIERS: Readonly<Record<string, number>> = {
  very: 1.5, really: 1.4, extremely: 1.8, super: 1.5, so: 1.3, incredibly: 1.8, absolutely: 1.6, totally: 1.4, completely: 1.4,
  truly: 1.4, highly: 1.5, most: 1.3, exceptionally: 1.8, remarkably: 1.5, way: 1.5, too: 1.3, utterly: 1.8, quite: 1.1,
  slightly: 0.5, somewhat: 0.6, 'a bit': 0.6, 'a little': 0.6, 'kind of': 0.6, 'sort of': 0.6, fairly: 0.8, mostly: 0.8,
};

/**
 * Contrast markers split a sentence into clauses. `after` markers ("but")
 * make the clause after them the one that counts more; `before` markers
 * ("although") introduce the weaker, conceded clause.
 */
export const CONTRAST_MARKERS: Readonly<Record<string, 'after' | 'before'>> = {
  but: 'after', however: 'after', yet: 'after', except: 'after', 'even so': 'after', unfortunately: 'after',
  although: 'before', though: 'before', 'even though': 'before', despite: 'before', whereas: 'after',
};

/**
 * Verbs and words that resolve a problem named in the same clause: "the leak
 * is finally gone", "they fixed the drip". The problem word's negative
 * valence becomes positive unless the resolver is itself negated ("the leak
 * was never fixed").
 */
export const RESOLVERS: ReadonlySet<string> = new Set([
  'fix', 'fixed', 'stop', 'stopped', 'gone', 'solve', 'solved', 'resolve', 'resolved', 'repair', 'repaired', 'seal', 'sealed',
  'finally', 'replace', 'replaced', 'reseal', 'resealed', 'patch', 'patched', 'redo', 'redid', 'redone', 'catch', 'caught', 'find', 'found', 'spot', 'spotted', 'prevent', 'prevented',
]);

/**
 * Verbs of repair and diagnosis that resolve only the condition words that
 * follow them (REPAIR_CONDITION_WINDOW words of the same segment): "replaced a
 * rotted section", "rehung the gutter that was pulling away", "found a loose
 * boot". Together with RESOLVERS they describe the state the roof was in
 * before the company came, not a complaint about the company.
 */
export const REPAIR_VERBS: ReadonlySet<string> = new Set([
  ...RESOLVERS, 'rehang', 'rehung', 'reattach', 'reattached', 're-nail', 're-nailed', 'renail', 'renailed', 'resecure', 'resecured',
  'secure', 'secured', 'tighten', 'tightened', 'swap', 'swapped', 'rebuild', 'rebuilt', 'reflash', 'reflashed', 'remove', 'removed',
  'tear out', 'tore out', 'rip out', 'ripped out', 'restore', 'restored', 'reinforce', 'reinforced', 'straighten', 'straightened',
]);
/** Verbs of inspection: the conditions they report are findings, neither praise nor complaint. */
export const DIAGNOSIS_VERBS: ReadonlySet<string> = new Set([
  'inspect', 'inspected', 'diagnose', 'diagnosed', 'notice', 'noticed', 'point out', 'pointed out', 'identify', 'identified',
  'discover', 'discovered', 'explain', 'explained', 'show', 'showed', 'shown', 'photograph', 'photographed', 'document', 'documented',
]);
/**
 * Words for the physical state of a roof, gutter or deck (damage, wear) that a
 * repair or diagnosis verb before them describes as the pre-existing
 * condition. After a repair verb each counts REPAIRED_CONDITION_VALENCE (a
 * problem found and fixed); after a diagnosis verb, 0.
 */
export const CONDITION_WORDS: ReadonlySet<string> = new Set([
  'rot', 'rotted', 'rotten', 'rotting', 'soft', 'loose', 'crack', 'cracked', 'broken', 'damaged', 'damage', 'worn', 'missing',
  'exposed', 'curl', 'curling', 'curled', 'lifting', 'lift', 'pull away', 'pulling', 'sag', 'sagging', 'buckle', 'buckled', 'torn',
  'rusted', 'rusty', 'brittle', 'deteriorate', 'deteriorated', 'failing', 'failed', 'fail', 'bad', 'leak', 'leaking', 'leaky', 'drip',
  'dripping', 'stain', 'hole', 'moss', 'exposed nail', 'nail head', 'mold', 'mould', 'water damage', 'soft spot', 'dented', 'bent', 'split', 'blown off',
]);
export const REPAIRED_CONDITION_VALENCE = 1;
export const REPAIR_CONDITION_WINDOW = 8;
/** Words after which a state is the present one again, not the repaired one ("replaced it and it's still loose"). */
export const REPAIR_SCOPE_STOPPERS: ReadonlySet<string> = new Set(['still', 'again', 'already', 'now', 'since', 'after', 'later', 'yet']);

/**
 * Negations that intensify instead of negating: "I can't stress enough how
 * good…", "can't recommend them enough", "can't thank Jamal enough". A
 * negated modal (can/could) followed, within the negation window, by one of
 * these verbs and then "enough" negates nothing: the opinion after it is
 * strengthened, or, when there is none, the phrase itself is praise.
 */
export const PRAISE_VERBS: ReadonlySet<string> = new Set([
  'stress', 'say', 'recommend', 'thank', 'praise', 'emphasize', 'emphasise', 'speak', 'express', 'rave', 'tell', 'compliment',
]);
export const PRAISE_ENOUGH_VALENCE = 3;
/** "couldn't be happier", "couldn't ask for better", "could not have been worse": a negated can/could before a comparative is not flipped. */
export const COMPARATIVES: ReadonlySet<string> = new Set([
  'better', 'happier', 'more', 'worse', 'nicer', 'easier', 'smoother', 'best', 'less',
]);
/** Verbs that state an expectation as the reference of a comparison: "slower than I'd hoped" carries no hope. */
export const EXPECTATION_VERBS: ReadonlySet<string> = new Set(['hope', 'hoped', 'expect', 'expected', 'like', 'liked', 'want', 'wanted', 'anticipate', 'anticipated', 'plan', 'planned']);

/** Problems a resolver can resolve: "they found the leak", "the drip stopped", "fixed the soft spot". */
export const PROBLEM_WORDS: ReadonlySet<string> = new Set([
  'leak', 'leaky', 'leaking', 'drip', 'dripping', 'water damage', 'stain', 'condensation', 'soft spot', 'rot', 'problem', 'issue',
  'damage', 'crack', 'cracked', 'hole', 'mess', 'nail', 'debris', 'moss',
]);

/**
 * Synthetic review generator for scale tests. Writes N valid review files
 * (the same format as content/reviews/*.md, checked by src/lib/content/load.ts)
 * using the services, service areas and technicians of content/business.yaml.
 *
 *   npm run generate -- --count 10000 --seed 42 --out /tmp/big/reviews --with-business
 *   CONTENT_DIR=/tmp/big npm run build
 *
 * Deterministic: the same --count and --seed always give byte-identical files.
 * All randomness comes from the seeded PRNG below (mulberry32): no Math.random,
 * no clock. The text is stitched together from sentence fragments so search,
 * filters and the sentiment analyser have realistic words to work on (leak,
 * gutters, cleanup, estimate, adjuster...); it is not meant to read well.
 */
import { copyFileSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { parseYaml } from '../src/lib/content/split-frontmatter.ts';

const USAGE = `Usage: node scripts/generate-reviews.ts --count N --out DIR [--seed S] [--with-business]

Writes N synthetic, valid review files into DIR (a content folder's reviews/ folder).

  --count N          how many reviews to write (positive integer, required)
  --out DIR          folder to write the .md files into; created if missing (required)
  --seed S           integer seed (default 1); same seed and count = identical files
  --with-business    also copy content/business.yaml into DIR's parent folder, making
                     the parent a complete content folder (CONTENT_DIR=<parent>)
  --help             show this help

Files already in DIR with the same names are overwritten; other files are left alone.`;

const ROOT = resolve(import.meta.dirname, '..');
const BUSINESS_YAML = join(ROOT, 'content', 'business.yaml');
const MAX_COUNT = 10_000_000;

// ---------------------------------------------------------------- arguments

function fail(message: string): never {
  process.stderr.write(`generate-reviews: ${message}\n\n${USAGE}\n`);
  process.exit(2);
}

function readArgs() {
  let parsed;
  try {
    parsed = parseArgs({
      args: process.argv.slice(2),
      options: {
        count: { type: 'string' },
        seed: { type: 'string' },
        out: { type: 'string' },
        'with-business': { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
      strict: true,
      allowPositionals: false,
    });
  } catch (error) {
    fail((error as Error).message);
  }
  const { values } = parsed;
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    process.exit(0);
  }
  if (values.count === undefined) fail('--count is required');
  if (!/^\d+$/.test(values.count) || Number(values.count) < 1)
    fail(`--count must be a positive integer, got "${values.count}"`);
  const count = Number(values.count);
  if (count > MAX_COUNT) fail(`--count must be at most ${MAX_COUNT}, got ${count}`);
  const seedText = values.seed ?? '1';
  if (!/^-?\d+$/.test(seedText) || !Number.isSafeInteger(Number(seedText)))
    fail(`--seed must be an integer, got "${seedText}"`);
  if (values.out === undefined || values.out.trim() === '')
    fail('--out is required (the reviews folder to write into)');
  return { count, seed: Number(seedText), out: resolve(values.out), withBusiness: values['with-business'] === true };
}

// ---------------------------------------------------------------- seeded randomness

/** mulberry32: a tiny, fast 32-bit PRNG; good enough for test data. */
function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Folds any safe integer (negative or above 2^32) into a 32-bit PRNG seed. */
function seed32(seed: number): number {
  const high = Math.floor(seed / 4294967296);
  return (Math.imul(high ^ 0x9e3779b9, 0x85ebca6b) ^ seed) >>> 0;
}

let random: () => number = mulberry32(1);
const int = (n: number) => Math.floor(random() * n);
const chance = (p: number) => random() < p;
const pick = <T>(items: readonly T[]): T => items[int(items.length)]!;
function weighted<T>(pairs: ReadonlyArray<readonly [T, number]>): T {
  const total = pairs.reduce((sum, [, w]) => sum + w, 0);
  let r = random() * total;
  for (const [value, w] of pairs) if ((r -= w) < 0) return value;
  return pairs[pairs.length - 1]![0];
}
/** k distinct items, in a random order. */
function sample<T>(items: readonly T[], k: number): T[] {
  const copy = [...items];
  const out: T[] = [];
  while (out.length < k && copy.length > 0) out.push(copy.splice(int(copy.length), 1)[0]!);
  return out;
}

// ---------------------------------------------------------------- the business

interface Named {
  id: string;
  name: string;
}
interface BusinessRefs {
  services: Named[];
  areas: Named[];
  technicians: Named[];
}

function readBusiness(): BusinessRefs {
  const raw = parseYaml(readFileSync(BUSINESS_YAML, 'utf8')) as Record<string, unknown>;
  const list = (key: string): Named[] => {
    const value = raw[key];
    if (!Array.isArray(value) || value.length === 0)
      throw new Error(`${BUSINESS_YAML}: "${key}" must be a non-empty list`);
    return value.map((entry) => ({ id: String(entry.id), name: String(entry.name) }));
  };
  return { services: list('services'), areas: list('service_areas'), technicians: list('technicians') };
}

// ---------------------------------------------------------------- vocabulary

const FIRST_NAMES = [
  'Linda',
  'Sam',
  'Maria',
  'James',
  'Priya',
  'Tom',
  'Angela',
  'Kevin',
  'Mei',
  'Robert',
  'Fatima',
  'Greg',
  'Hannah',
  'Luis',
  'Nora',
  'Owen',
  'Grace',
  'Derek',
  'Aisha',
  'Paul',
  'Rachel',
  'Victor',
  'Yuki',
  'Carlos',
  'Beth',
  'Omar',
  'Ingrid',
  'Tyler',
  'Denise',
  'Raj',
  'Helen',
  'Marcus',
  'Jen',
  'Walt',
  'Sofia',
  'Ben',
  'Carmen',
  'Doug',
  'Emily',
  'Frank',
];
const LAST_INITIALS = 'ABCDEFGHJKLMNOPRSTVWYZ'.split('');
const FAMILY_NAMES = [
  'Okafor',
  'Nguyen',
  'Larsen',
  'Patel',
  'Garcia',
  'Kowalczyk',
  'Bennett',
  'Yamamoto',
  'Morales',
  'Fischer',
  'Haddad',
  'Olsen',
];
const SOURCES = [
  ['google', 70],
  ['website', 8],
  ['email', 6],
  ['yelp', 8],
  ['nextdoor', 8],
] as const;
const RATINGS = [
  [5, 60],
  [4, 18],
  [3, 8],
  [2, 6],
  [1, 8],
] as const;
const BRANDS = [
  'GAF Timberline HDZ',
  'CertainTeed Landmark',
  'Owens Corning Duration',
  'Malarkey Vista',
  'IKO Dynasty',
];

/** Opening sentences per service id; services not listed here use GENERIC_OPENERS. */
const OPENERS: Record<string, string[]> = {
  'roof-replacement': [
    'We had our {age}-year-old roof replaced this {season}: {squares} squares of {brand}.',
    'Full tear-off of {layers} and a new {brand} roof on our house in {area}.',
    'Our old roof was shedding granules into the gutters, so we finally had it replaced.',
    'New roof with ice and water shield in the valleys, new drip edge and a ridge vent.',
  ],
  'roof-repair': [
    'We had a leak around the chimney flashing that kept coming back.',
    'Called about a leak over the kitchen after a week of heavy rain.',
    'A few shingles blew off and a pipe boot was cracked, so we needed a repair.',
    'Water stain on the ceiling turned out to be a nail pop near the ridge.',
  ],
  'roof-inspection': [
    'We needed a roof inspection before selling the house.',
    'Booked an inspection because the roof is {age} years old and we wanted to know where it stands.',
    'Had the roof inspected after buying the place; the report came with photos of every vent and pipe boot.',
  ],
  gutters: [
    'We had new seamless gutters and downspouts installed.',
    'Our gutters were overflowing every storm, so we had them replaced with 6 inch seamless and gutter guards.',
    'Gutter cleaning and a re-pitch of the run over the front door, which always held water.',
  ],
  'storm-damage': [
    'The windstorm took a strip of shingles off the back slope and we filed an insurance claim.',
    'A branch came down on the roof in the storm and the insurance adjuster had to come out.',
    'Storm damage claim: they met the adjuster and documented everything before the deductible conversation.',
  ],
  skylights: [
    'We replaced two old leaking skylights with new Velux units.',
    'New skylight over the stairwell, plus new flashing around it.',
  ],
  'flat-roofing': [
    'Our flat roof over the garage was ponding water, so we had it redone in TPO.',
    'Low-slope roof on the addition was cracked; they replaced the membrane.',
  ],
  'emergency-tarping': [
    'Water was coming through the ceiling at night and we needed an emergency tarp.',
    'Called in the middle of a storm for a tarp after a limb went through the roof.',
  ],
  'moss-removal': [
    'The north side of the roof was covered in moss, so we had it cleaned and treated.',
    'Moss removal and zinc strips along the ridge, done by hand with no pressure washer.',
  ],
  'attic-ventilation': [
    'The upstairs was an oven every summer, so we had the attic ventilation fixed: baffles and a ridge vent.',
    'Bathroom fans were venting into the attic and causing mildew; they ran them out through the roof.',
  ],
};
const GENERIC_OPENERS = [
  'We hired them for {service} at our place in {area}.',
  'Used them for {service} last {season}.',
];

/** Aspect sentences: [positive variants, negative variants]. */
const ASPECTS: Record<string, [string[], string[]]> = {
  workmanship: [
    [
      'The workmanship is excellent and the lines are dead straight.',
      'Quality work; no leaks through the whole rainy season.',
      'They clearly know what they are doing, and the flashing is done right.',
    ],
    [
      'The leak came back after the first big rain.',
      'The shingles along the ridge look crooked and the work feels rushed.',
      "The repair didn't hold and we had to call them back.",
    ],
  ],
  timeliness: [
    [
      'They showed up on time every day and finished when they said they would.',
      'Scheduling was quick and they started the week we asked for.',
      'Done in two days, right on schedule.',
    ],
    [
      'The crew showed up late and the job took a day longer than promised.',
      'Scheduling took forever; we waited six weeks to get started.',
      'They pushed our start date twice.',
    ],
  ],
  communication: [
    [
      'Communication was excellent: a text the night before and updates throughout.',
      'The office answered every question quickly.',
      'We always knew what was happening and when.',
    ],
    [
      'Nobody called back when we left messages.',
      'Communication was poor and we had to chase them for updates.',
      'They never told us the schedule had changed.',
    ],
  ],
  cleanup: [
    [
      'Cleanup was spotless; they ran a magnet over the lawn and not a single nail was left.',
      'The yard was cleaner when they left than when they arrived.',
      'They tarped the plants and hauled everything away at the end of each day.',
    ],
    [
      "They didn't clean up the nails in the driveway.",
      'Cleanup was sloppy and we found shingle scraps in the flower beds.',
      'The dumpster sat on the lawn for a week after the job.',
    ],
  ],
  price: [
    [
      'The price was fair and the final bill matched the estimate.',
      'Good value for the money compared to the other bids.',
      'No surprise charges at all.',
    ],
    [
      'The price was higher than a competitor by quite a bit.',
      'The final invoice had charges we never discussed.',
      'Felt overpriced for what we got.',
    ],
  ],
  professionalism: [
    [
      'The crew was polite, professional and respectful of our home.',
      'Friendly crew who asked before using the outdoor outlet.',
      'Everyone was courteous and kept the music down.',
      'They coordinated with A&B Plumbing on the vent stack, so there were no "surprises".',
    ],
    [
      'The crew was rude and played loud music all day.',
      "Unprofessional: someone parked across the neighbor's driveway all day.",
      'Nobody seemed to be in charge on the site.',
    ],
  ],
  estimate: [
    [
      'The estimate was clear and detailed, line by line.',
      'They helped with the insurance claim and met the adjuster on the roof.',
      'The estimate was free and there was no pressure to sign.',
    ],
    [
      'The estimate was vague and the price went up after tear-off.',
      'They were no help with the insurance adjuster.',
      'It took two weeks just to get an estimate.',
    ],
  ],
  warranty: [
    [
      'When a small leak showed up later, they fixed it under warranty with no hassle.',
      'They came back for a follow-up check a month later.',
      'The warranty paperwork arrived the same week.',
    ],
    [
      'Our warranty claim was ignored for weeks.',
      'They never followed up after the job.',
      'Getting them back out for the warranty repair was a struggle.',
    ],
  ],
  property: [
    [
      'They protected the landscaping and put plywood over the AC unit.',
      'Ladders went on pads and nothing got scratched.',
      'Safety harnesses on everyone and the area was roped off for the kids.',
    ],
    [
      'A ladder cracked one of our windows.',
      'They trampled the garden and broke a sprinkler head.',
      'The dumpster cracked our driveway.',
    ],
  ],
};
const ASPECT_NAMES = Object.keys(ASPECTS);

const TECH_PRAISE = [
  '{tech} was great to work with.',
  '{tech} and the crew did a fantastic job.',
  '{tech} explained everything clearly.',
  'Ask for {tech}.',
  '{tech} went above and beyond.',
];
const TECH_MIXED = [
  '{tech} was friendly, but that was not enough.',
  '{tech} did the work; the office let us down.',
  'I have no complaint about {tech} personally.',
];
const TECH_CRITICISM = [
  '{tech} seemed in a hurry and did not listen.',
  '{tech} told us it was fixed and it was not.',
  'We asked {tech} twice about the problem and nothing happened.',
];

const CLOSERS: Record<number, string[]> = {
  5: [
    'Highly recommend Cedar Ridge.',
    'We would hire them again in a heartbeat.',
    'Five stars, no hesitation.',
    'Thank you!',
    'Best contractor experience we have had.',
  ],
  4: ['Overall a good experience.', 'Would use them again.', 'Minor issues, but happy with the result.', 'Solid work.'],
  3: ['Mixed feelings overall.', 'It was okay.', 'Good roof, frustrating process.', 'Three stars feels fair.'],
  2: ['Not great.', 'I expected better for the price.', 'Probably would not hire again.'],
  1: ['Would not recommend.', 'Avoid.', 'Very disappointed.', 'Look elsewhere.'],
};
const TITLES: Record<number, string[]> = {
  5: ['Great new roof', 'Highly recommend', 'Excellent work', 'Fast and professional', 'Above and beyond'],
  4: ['Good work, minor issues', 'Solid job', 'Happy overall'],
  3: ['Mixed experience', 'Good roof, slow process', 'Okay'],
  2: ['Disappointing', 'Expected better', 'Slow and sloppy'],
  1: ['Would not recommend', 'Never called back', 'Leak not fixed'],
};
const REPLIES: Record<number, string[]> = {
  5: [
    'Thank you so much, {first}! We appreciate you trusting us with your home.',
    'Thanks {first}, we passed this along to the crew.',
  ],
  4: [
    'Thanks for the honest feedback, {first}. We are working on the issues you mentioned.',
    'Thank you {first}, glad the roof turned out well.',
  ],
  3: ["{first}, thank you for the fair review. We're sorry the process was frustrating and we'd like to hear more."],
  2: [
    "{first}, we're sorry we fell short. I've called you to make it right.",
    "{first}, that's not our standard. Please call me directly at the office.",
  ],
  1: [
    "{first}, I'm sorry. There is no excuse for that and I'd like to make it right; please call me directly.",
    "{first}, we let you down. I've refunded the service call and will follow up personally.",
  ],
};

// ---------------------------------------------------------------- dates

const FIRST_DAY = Date.UTC(2021, 0, 1);
const LAST_DAY = Date.UTC(2026, 10, 13); // leaves room for a reply within the week
const SPAN_DAYS = Math.round((LAST_DAY - FIRST_DAY) / 86_400_000);
const STORM_MONTHS = new Set([10, 11, 0, 1, 2]); // Nov–Mar (0-based months, plus late Oct)
const STORM_SERVICES = new Set(['storm-damage', 'emergency-tarping', 'roof-repair']);

const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** A day in the range, busier in recent years (density rises linearly). */
function pickDay(): number {
  return FIRST_DAY + Math.floor(Math.sqrt(random()) * (SPAN_DAYS + 1)) * 86_400_000;
}

// ---------------------------------------------------------------- one review

function fill(template: string, vars: Record<string, string>): string {
  return template.replace(/\{(\w+)\}/g, (_, key: string) => vars[key] ?? key);
}

function slug(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
}

function pickServices(refs: BusinessRefs, month: number): Named[] {
  const storm = STORM_MONTHS.has(month);
  const weights = refs.services.map(
    (s) =>
      [s, STORM_SERVICES.has(s.id) ? (storm ? 4 : 1) : s.id === 'roof-replacement' ? (storm ? 1 : 4) : 1.5] as const,
  );
  const first = weighted(weights);
  if (!chance(0.3)) return [first];
  const second = weighted(weights);
  return second.id === first.id ? [first] : [first, second];
}

function review(index: number, width: number, refs: BusinessRefs): { id: string; file: string } {
  const dayMs = pickDay();
  const date = isoDay(dayMs);
  const month = new Date(dayMs).getUTCMonth();
  const rating = weighted(RATINGS);
  const services = pickServices(refs, month);
  const area = chance(0.9) ? pick(refs.areas) : null;
  const technicians = sample(
    refs.technicians,
    weighted([
      [0, 30],
      [1, 50],
      [2, 20],
    ] as const),
  );
  const family = chance(0.06);
  const first = family ? `The ${pick(FAMILY_NAMES)} family` : pick(FIRST_NAMES);
  const author = family ? first : `${first} ${pick(LAST_INITIALS)}.`;
  const season = STORM_MONTHS.has(month) ? 'winter' : month < 5 ? 'spring' : month < 8 ? 'summer' : 'fall';

  const vars: Record<string, string> = {
    area: area?.name ?? 'town',
    service: services[0]!.name.toLowerCase(),
    season,
    age: String(15 + int(20)),
    squares: String(18 + int(22)),
    brand: pick(BRANDS),
    layers: chance(0.4) ? 'two layers' : 'one layer',
  };

  const sentences: string[] = [fill(pick(OPENERS[services[0]!.id] ?? GENERIC_OPENERS), vars)];
  if (technicians.length > 0) {
    vars.tech = technicians.map((t) => t.name.split(' ')[0]).join(' and ');
    sentences.push(fill(pick(rating >= 4 ? TECH_PRAISE : rating === 3 ? TECH_MIXED : TECH_CRITICISM), vars));
  }
  // Aspects: mostly positive for 5, one complaint for 4, mixed for 3, mostly negative for 1–2.
  const aspects = sample(ASPECT_NAMES, 1 + int(3));
  aspects.forEach((aspect, i) => {
    const positive =
      rating === 5 ? chance(0.95) : rating === 4 ? i > 0 || chance(0.4) : rating === 3 ? i % 2 === 0 : chance(0.12);
    sentences.push(pick(ASPECTS[aspect]![positive ? 0 : 1]));
  });
  sentences.push(pick(CLOSERS[rating]!));
  const body =
    sentences.length >= 5 && chance(0.5)
      ? `${sentences.slice(0, 2).join(' ')}\n\n${sentences.slice(2).join(' ')}`
      : sentences.join(' ');

  const replyChance = rating <= 2 ? 0.7 : rating === 3 ? 0.35 : 0.15;
  const reply = chance(replyChance)
    ? {
        date: isoDay(dayMs + int(7) * 86_400_000),
        text: `${fill(pick(REPLIES[rating]!), { first: first.replace(/^The /, '') })} — Kevin`,
      }
    : null;

  const id = `syn-${String(index).padStart(width, '0')}-${slug(author)}-${services[0]!.id}`;
  const q = JSON.stringify; // a JSON string is a valid YAML double-quoted scalar
  const lines = ['---', `date: ${date}`];
  if (reply)
    lines.push(
      `updated: ${reply.date}T${String(8 + int(10)).padStart(2, '0')}:${String(int(60)).padStart(2, '0')}:00Z`,
    );
  lines.push(`rating: ${rating}`);
  if (chance(0.5)) lines.push(`title: ${q(pick(TITLES[rating]!))}`);
  lines.push(`author: ${q(author)}`);
  lines.push(`technicians: [${technicians.map((t) => q(chance(0.5) ? t.name : t.id)).join(', ')}]`);
  lines.push(`services: [${services.map((s) => s.id).join(', ')}]`);
  if (area) lines.push(`service_area: ${area.id}`);
  lines.push(`source: ${weighted(SOURCES)}`, 'verified: true');
  if (reply) lines.push('response:', `  date: ${reply.date}`, `  text: ${q(reply.text)}`);
  lines.push('---', body, '');
  return { id, file: lines.join('\n') };
}

// ---------------------------------------------------------------- main

function main(): void {
  const args = readArgs();
  const refs = readBusiness();
  random = mulberry32(seed32(args.seed));
  const started = performance.now();

  mkdirSync(args.out, { recursive: true });
  const existing = readdirSync(args.out).filter((name) => name.endsWith('.md')).length;
  if (existing > 0)
    process.stderr.write(
      `generate-reviews: note: ${args.out} already holds ${existing} .md file(s); they will be loaded too\n`,
    );

  const width = Math.max(6, String(args.count).length);
  for (let i = 1; i <= args.count; i++) {
    const { id, file } = review(i, width, refs);
    writeFileSync(join(args.out, `${id}.md`), file);
  }

  if (args.withBusiness) {
    const parent = dirname(args.out);
    const target = join(parent, 'business.yaml');
    if (target !== BUSINESS_YAML) copyFileSync(BUSINESS_YAML, target); // --out content/reviews: already there
  }
  const seconds = ((performance.now() - started) / 1000).toFixed(2);
  console.log(
    `wrote ${args.count} reviews to ${args.out}${args.withBusiness ? ` (+ ${join(dirname(args.out), 'business.yaml')})` : ''} in ${seconds} s (seed ${args.seed})`,
  );
}

main();

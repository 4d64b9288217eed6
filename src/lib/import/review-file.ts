/**
 * A platform review as a review file, written the way the editors' files are:
 * YAML frontmatter (through `yaml`, fields in the schema's order, lists one
 * item per line, quotes only where YAML needs them) and the text below it.
 */
import { stringify } from 'yaml';
import { REVIEW_ID, reviewFrontmatter, type ReviewFrontmatter } from '../content/editor-schema.ts';
import { createLinker } from '../insights/entities.ts';
import { splitSentences } from '../insights/sentences.ts';
import type { Business } from '../reviews/schema.ts';
import type { ImportedReview } from './types.ts';
import { publishedName, type NameOptions } from './names.ts';
import { guessServices } from './service-guess.ts';
import { latestInstant } from './values.ts';

/** A review file's frontmatter as written (the schema's input form: author a plain name). */
export type Frontmatter = Omit<ReviewFrontmatter, 'author'> & { author: string };

/**
 * The fields an editor owns in an imported file: set on the first import (from the platform,
 * or found in the text), then left as the editor has them. The customer's name is one: a
 * business may publish "Linda K." for "Linda Kowalczyk", and a re-import must not undo that.
 */
export const EDITOR_FIELDS = ['title', 'author', 'technicians', 'services', 'service_area', 'verified'] as const;

/** Every frontmatter field, in the order a file lists them: the schema's. */
export const FIELD_ORDER = Object.keys(reviewFrontmatter.shape) as Array<keyof Frontmatter>;

/** The file's bytes: frontmatter, then the text. */
export function reviewFileText(data: Frontmatter, text: string): string {
  const ordered: Record<string, unknown> = {};
  for (const field of FIELD_ORDER) {
    const value = data[field];
    if (value === undefined || value === null) continue;
    ordered[field] = value;
  }
  // lineWidth 0: a long title or reply stays on one line, as an editor typed it.
  return `---\n${stringify(ordered, { lineWidth: 0 })}---\n${text}\n`;
}

/** What the platform says, over what the file had (or nothing, for a new file). */
export function platformFields(
  record: ImportedReview,
  before?: Frontmatter,
): Pick<
  Frontmatter,
  'date' | 'updated' | 'rating' | 'author' | 'source' | 'source_id' | 'source_url' | 'verification' | 'response'
> {
  const updated = latestInstant(record.updated, before?.updated);
  const url = record.source_url ?? before?.source_url;
  return {
    date: record.date,
    ...(updated === undefined ? {} : { updated }),
    rating: record.rating,
    author: record.author,
    source: record.source,
    source_id: record.source_id,
    ...(url === undefined ? {} : { source_url: url }),
    // The platform holds the review under its id: checked as of the platform's own record. A
    // file's existing verification (the office's job match, say) is kept: it says more.
    verification: before?.verification ?? { method: 'platform', checked: (updated ?? record.date).slice(0, 10) },
    // An export that cannot say whether there is a reply (a CSV without the column) keeps the file's.
    response: record.response === undefined ? (before?.response ?? null) : record.response,
  };
}

/**
 * The fields an editor owns, as an import first fills them: the name the review is published
 * under (names.ts), the technicians and service area its text names, found as the insights find
 * them, and the services it says were done (service-guess.ts: stricter than the insights' linker).
 */
export function detectEditorFields(business: Business, nameOptions: NameOptions = {}) {
  const linker = createLinker(business);
  const guess = guessServices(business);
  const names = new Map(business.technicians.map((t) => [t.id, t.name]));
  return (record: ImportedReview): Pick<Frontmatter, 'author' | 'technicians' | 'services' | 'service_area'> => {
    const technicians = new Set<string>();
    const areas = new Set<string>();
    // The title first, as the insights read a review.
    const text = record.title ? `${record.title}.\n${record.text}` : record.text;
    for (const sentence of splitSentences(text)) {
      for (const id of linker.technicians(sentence)) technicians.add(names.get(id)!);
      for (const id of linker.areas(sentence)) areas.add(id);
    }
    return {
      author: publishedName(record.author, record.source, nameOptions),
      technicians: [...technicians],
      services: guess(text),
      service_area: [...areas][0] ?? null,
    };
  };
}

/**
 * A new review's id, as the web form names files: its date and the customer as published, in
 * lowercase ASCII (`2024-03-01-zoe-o`); `-2`, `-3`… when taken. A name with no Latin letter
 * gives the platform instead (`2024-03-01-google-review`). The id is in the review's address,
 * so it is made from the published name, never the platform's full one.
 */
export function newReviewId(
  record: Pick<Frontmatter, 'date' | 'author' | 'source'>,
  taken: ReadonlySet<string>,
): string {
  const slug = (value: string) =>
    value
      .normalize('NFKD')
      .replace(/[\u0300-\u036f]/g, '')
      .toLowerCase()
      .replace(/['’]/g, '')
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 50)
      .replace(/-+$/, '');
  const base = `${record.date}-${slug(record.author) || `${slug(record.source) || 'imported'}-review`}`;
  let id = base;
  for (let n = 2; taken.has(id) || !REVIEW_ID.test(id); n += 1) id = `${base}-${n}`;
  return id;
}

/**
 * The review files already in the content folder, indexed the two ways an
 * imported review is recognised: by platform and platform id (what an import
 * wrote), else by author, date and text (what an editor typed by hand before
 * the platform's export came in).
 */
import { readFileSync } from 'node:fs';
import { authorName, reviewFrontmatter, type ReviewFrontmatter } from '../content/editor-schema.ts';
import { parseMarkdown } from '../content/split-frontmatter.ts';
import type { ReviewFile } from '../content/load.ts';
import { isObject } from './fields.ts';
import type { ImportedReview } from './types.ts';

export interface ExistingReview extends ReviewFile {
  /** The frontmatter as the build reads it; null when the file has a problem (the build reports it). */
  data: ReviewFrontmatter | null;
  body: string;
  /** The file's bytes, to update it in place (absent for a file this run wrote). */
  raw?: string;
  source?: string;
  source_id?: string;
}

export function readExisting(entry: ReviewFile): ExistingReview {
  const raw = readFileSync(entry.absolute, 'utf8');
  try {
    const markdown = parseMarkdown(raw);
    const parsed = reviewFrontmatter.safeParse(markdown.data);
    const loose = isObject(markdown.data) ? markdown.data : {};
    return {
      ...entry,
      data: parsed.success ? parsed.data : null,
      body: markdown.body,
      raw,
      ...(typeof loose.source === 'string' ? { source: loose.source } : {}),
      ...(typeof loose.source_id === 'string' || typeof loose.source_id === 'number'
        ? { source_id: String(loose.source_id) }
        : {}),
    };
  } catch {
    return { ...entry, data: null, body: '' };
  }
}

const key = (source: string, id: string) => `${source.toLowerCase()}\0${id}`;

/** Letters and digits only, lowercase, single spaces: punctuation, case and spacing differ between a platform and a retyped copy. */
function comparableText(text: string): string {
  return text
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

/**
 * One customer's name as a platform shows it and as an editor typed it: equal, or the same
 * first name with one side's last name shortened to its initial ("Frank Zimmerman", "Frank Z.")
 * or left out ("Frank"), or the same last name with one side's first name an initial
 * ("Rosa Castillo", "R. Castillo").
 */
function sameAuthor(a: string, b: string): boolean {
  const x = comparableText(a).split(' ').filter(Boolean);
  const y = comparableText(b).split(' ').filter(Boolean);
  if (x.join(' ') === y.join(' ')) return true;
  if (x.length === 0 || y.length === 0) return false;
  const initialOf = (short: string, long: string) => short.length === 1 && long.startsWith(short);
  const [p, q] = [x.at(-1)!, y.at(-1)!];
  if (x[0] !== y[0])
    return x.length > 1 && y.length > 1 && p === q && (initialOf(x[0]!, y[0]!) || initialOf(y[0]!, x[0]!));
  if (x.length === 1 || y.length === 1) return true;
  return p === q || initialOf(p, q) || initialOf(q, p);
}

export class ContentIndex {
  private readonly byKey = new Map<string, ExistingReview>();
  /** Hand-typed reviews (no source_id) by date. */
  private readonly handTyped = new Map<string, ExistingReview[]>();
  /** Every file by id. */
  readonly all = new Map<string, ExistingReview>();

  constructor(reviews: Iterable<ExistingReview>) {
    for (const review of reviews) this.put(review);
  }

  put(review: ExistingReview): void {
    this.remove(review.id);
    this.all.set(review.id, review);
    if (review.source !== undefined && review.source_id !== undefined)
      this.byKey.set(key(review.source, review.source_id), review);
    else if (review.data) {
      const list = this.handTyped.get(review.data.date) ?? [];
      list.push(review);
      this.handTyped.set(review.data.date, list);
    }
  }

  remove(id: string): void {
    const old = this.all.get(id);
    if (!old) return;
    this.all.delete(id);
    if (
      old.source !== undefined &&
      old.source_id !== undefined &&
      this.byKey.get(key(old.source, old.source_id)) === old
    )
      this.byKey.delete(key(old.source, old.source_id));
    if (old.data) {
      const list = this.handTyped.get(old.data.date)?.filter((r) => r !== old);
      if (list) this.handTyped.set(old.data.date, list);
    }
  }

  /** The file this platform review already has, and how it was recognised. */
  find(record: ImportedReview): { review: ExistingReview; by: 'id' | 'text' } | undefined {
    const byId = this.byKey.get(key(record.source, record.source_id));
    if (byId) return { review: byId, by: 'id' };
    const text = comparableText(record.text);
    const typed = this.handTyped
      .get(record.date)
      ?.find((r) => comparableText(r.body) === text && sameAuthor(authorName(r.data!), record.author));
    return typed ? { review: typed, by: 'text' } : undefined;
  }

  /** The imported reviews of a platform (files with its source and a source_id). */
  fromSource(source: string): ExistingReview[] {
    return [...this.byKey.values()].filter((r) => r.source?.toLowerCase() === source.toLowerCase());
  }
}

/**
 * What `npm run import` remembers from one run to the next, in the content
 * folder's `.import-state.json` (committed with the review files, so that the
 * daily workflow, which starts from a fresh checkout, remembers too):
 *
 * - the problems it has reported, each by its export's scope, its record and
 *   its field: a record reported once does not fail the later runs (they list
 *   it as known), so a scheduler fails once for each new problem, not daily;
 * - which Google location each imported review came from, so that "no longer
 *   in the exports" and `--delete-missing` look only at the location read;
 * - each location's title, for the reports of exports that carry none (the API).
 *
 * No times, everything sorted: the same memory is the same bytes, and a run
 * that changes nothing leaves the file untouched. Written beside its name and
 * renamed into place.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, renameSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';

export const MEMORY_FILE = '.import-state.json';

const ABOUT =
  'npm run import\'s memory (docs/editing.md, "What the import remembers"): commit it with the review files; do not edit it.';

const memorySchema = z.strictObject({
  about: z.string(),
  locations: z.record(z.string(), z.strictObject({ title: z.string().optional(), reviews: z.array(z.string()) })),
  reported: z.array(z.strictObject({ in: z.string(), record: z.string(), field: z.string(), problem: z.string() })),
});

type Reported = z.output<typeof memorySchema>['reported'][number];

/** The memory file cannot be read: a setup problem, said with what to do. */
export class MemoryError extends Error {}

/**
 * A record's identity in its export, stable from one download to the next: the platform's id
 * when it has one, else a digest of the record itself (its position changes as reviews arrive).
 */
export function recordIdentity(id: unknown, record: unknown): string {
  if ((typeof id === 'string' && id.trim() !== '') || typeof id === 'number') return String(id).trim();
  let text: string;
  try {
    text = JSON.stringify(record) ?? String(record);
  } catch {
    // Nested deeper than the stack: such a record is refused whole, always with the same problem.
    text = 'unreadable';
  }
  return `sha256:${digest(text)}`;
}

/** Whether an identity is a platform's id (not a digest standing in for one). */
export function isPlatformId(identity: string): boolean {
  return !identity.startsWith('sha256:');
}

/** The identities of a JSON export's records, by where they are ("record 3"). */
export function listIdentities(list: unknown, id: (item: Record<string, unknown>) => unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (!Array.isArray(list)) return out;
  list.forEach((item, index) => {
    const object = typeof item === 'object' && item !== null && !Array.isArray(item);
    out[`record ${index + 1}`] = recordIdentity(object ? id(item as Record<string, unknown>) : undefined, item);
  });
  return out;
}

function digest(text: string): string {
  return createHash('sha256').update(text).digest('hex').slice(0, 16);
}

const reportedKey = (r: Reported) => `${r.in}\0${r.record}\0${r.field}\0${r.problem}`;

export class ImportMemory {
  private readonly path: string;
  private readonly text: string | undefined;
  private readonly before: Set<string>;
  private reported: Reported[];
  private readonly locations: Map<string, { title?: string; reviews: Set<string> }>;

  private constructor(path: string, text: string | undefined, data: z.output<typeof memorySchema>) {
    this.path = path;
    this.text = text;
    this.reported = data.reported;
    this.before = new Set(data.reported.map(reportedKey));
    this.locations = new Map(
      Object.entries(data.locations).map(([scope, l]) => [
        scope,
        { ...(l.title ? { title: l.title } : {}), reviews: new Set(l.reviews) },
      ]),
    );
  }

  static open(contentDir: string): ImportMemory {
    const path = join(contentDir, MEMORY_FILE);
    if (!existsSync(path)) return new ImportMemory(path, undefined, { about: ABOUT, locations: {}, reported: [] });
    let text: string;
    try {
      text = readFileSync(path, 'utf8');
    } catch (error) {
      throw new MemoryError(`${path} cannot be read: ${(error as Error).message}`);
    }
    let parsed: z.ZodSafeParseResult<z.output<typeof memorySchema>>;
    try {
      parsed = memorySchema.safeParse(JSON.parse(text));
    } catch (error) {
      throw new MemoryError(`${path}: not valid JSON (${(error as Error).message}); ${RESET}`);
    }
    if (!parsed.success)
      throw new MemoryError(`${path}: not what the import writes (${parsed.error.issues[0]!.message}); ${RESET}`);
    return new ImportMemory(path, text, parsed.data);
  }

  /** Whether an earlier run reported this problem of this record. */
  known(scope: string, record: string, field: string, message: string): boolean {
    return this.before.has(reportedKey({ in: scope, record, field, problem: digest(message) }));
  }

  /**
   * The problems this run reported in a scope, which replace the ones remembered there (a record
   * fixed or gone is forgotten); `replace` false adds them (a file of the scope could not be read).
   */
  remember(
    scope: string,
    problems: ReadonlyArray<{ record: string; field: string; message: string }>,
    replace: boolean,
  ): void {
    if (replace) this.reported = this.reported.filter((r) => r.in !== scope);
    const seen = new Set(this.reported.map(reportedKey));
    for (const p of problems) {
      const entry = { in: scope, record: p.record, field: p.field, problem: digest(p.message) };
      if (seen.has(reportedKey(entry))) continue;
      seen.add(reportedKey(entry));
      this.reported.push(entry);
    }
  }

  title(scope: string): string | undefined {
    return this.locations.get(scope)?.title;
  }

  /** The platform ids of the reviews imported from a location. */
  reviewsOf(scope: string): ReadonlySet<string> {
    return this.locations.get(scope)?.reviews ?? new Set();
  }

  /**
   * A location's reviews are these (`replace`), or these too; each belongs to this location only.
   * Its title, when the export gives one.
   */
  place(scope: string, ids: Iterable<string>, replace: boolean, title?: string): void {
    const location = this.locations.get(scope) ?? { reviews: new Set<string>() };
    const reviews = replace ? new Set<string>() : location.reviews;
    for (const id of ids) reviews.add(id);
    for (const [other, l] of this.locations) if (other !== scope) for (const id of reviews) l.reviews.delete(id);
    const named = title ?? location.title;
    this.locations.set(scope, { ...(named ? { title: named } : {}), reviews });
  }

  /** Writes the memory when it changed; returns whether it did. */
  save(): boolean {
    const text = this.serialise();
    if (text === this.text) return false;
    if (this.text === undefined && this.locations.size === 0 && this.reported.length === 0) return false;
    const temp = `${this.path}.${process.pid}.tmp`;
    try {
      writeFileSync(temp, text);
      renameSync(temp, this.path);
    } catch (error) {
      try {
        unlinkSync(temp);
      } catch {
        // Not written, or not ours to remove (a folder at that name).
      }
      throw error;
    }
    return true;
  }

  private serialise(): string {
    const order = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
    const locations = [...this.locations]
      .filter(([, l]) => l.reviews.size > 0 || l.title)
      .sort(([a], [b]) => order(a, b))
      .map(([scope, l]) => [scope, { ...(l.title ? { title: l.title } : {}), reviews: [...l.reviews].sort(order) }]);
    const reported = [...this.reported].sort((a, b) => order(reportedKey(a), reportedKey(b)));
    return `${JSON.stringify({ about: ABOUT, locations: Object.fromEntries(locations), reported }, null, 2)}\n`;
  }
}

const RESET =
  'put back the committed version (git checkout -- it), or delete it: the import then takes every problem as new once, and learns the locations again';

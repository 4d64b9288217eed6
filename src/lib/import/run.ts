/**
 * `npm run import`: export files in, review files out. Per export file, all or
 * nothing: every record is converted, matched with the files already there,
 * and checked with the build's own schema and loader before anything is
 * written; then every new or changed file is written beside its final name
 * and renamed into place. A file with a problem writes nothing (unless
 * `skipInvalid`, which leaves out the records with a problem, each reported).
 */
import { copyFileSync, existsSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { basename, join, relative } from 'node:path';
import type { z } from 'zod';
import type { Business } from '../reviews/schema.ts';
import { authorName, reviewFrontmatter, reviewTextProblem } from '../content/editor-schema.ts';
import { fieldName, type ContentProblem } from '../content/problems.ts';
import {
  createReferenceResolver,
  listReviewFiles,
  loadBusiness,
  readReviewFile,
  REVIEWS_DIR,
  type ReviewFile,
} from '../content/load.ts';
import type { CsvOptions, FormatId, ImportedReview, ImportProblem, ParsedExport, Skipped } from './types.ts';
import { exportFiles, inTakeoutLocation, readExport, type FormatName } from './detect.ts';
import { parseGoogle } from './google.ts';
import { ContentIndex, readExisting } from './existing.ts';
import { updatedReviewFile } from './file-update.ts';
import type { NameOptions } from './names.ts';
import { ImportMemory, isPlatformId, MEMORY_FILE, MemoryError } from './memory.ts';
import { exportLabel, exportScope, type ExportOrigin, type ExportScope } from './scope.ts';
import {
  detectEditorFields,
  EDITOR_FIELDS,
  FIELD_ORDER,
  newReviewId,
  platformFields,
  reviewFileText,
  type Frontmatter,
} from './review-file.ts';

export interface ImportOptions {
  contentDir: string;
  format?: FormatName;
  csv?: CsvOptions;
  /** Delete the imported reviews of a platform that its export no longer has. */
  deleteMissing?: boolean;
  /** Say what would change, write nothing. */
  dryRun?: boolean;
  /** Write an export's valid records even when some have problems (those are skipped, with their problems). */
  skipInvalid?: boolean;
  /** Export paths are shown relative to this folder (default: the working directory). */
  cwd?: string;
  /** Publish new reviews under the names the platforms show, not "Firstname L." (names.ts). */
  fullNames?: boolean;
  /** Google reviews fetched from the API (google-api.ts), one document per location (`accounts/…/locations/…`). */
  google?: Array<{ name: string; location?: string; title?: string; document: unknown }>;
}

interface Change {
  /** The review file, relative to the content folder: reviews/<id>.md */
  file: string;
  /** Where in the export. */
  at: string;
  /** How an existing file was recognised: its platform id, or (typed by hand) author, date and text. */
  by?: 'id' | 'text';
  /** What an update changes, as the office says it: "rating 3 → 4", "text changed", "reply added". */
  what?: string[];
}

interface FileReport {
  file: string;
  /** How the report names it when not by `file`: a Google location by its title (see scope.ts). */
  label?: string;
  format?: FormatId;
  /** False when the export had a problem and nothing of it was written. */
  imported: boolean;
  problems: ImportProblem[];
  /** When the export was not imported because of some records: how many of the others `skipInvalid` would import. */
  importable?: number;
  /** Of those, how many would write a file (new or updated); the others are unchanged. */
  importableChanges?: number;
  added: Change[];
  updated: Change[];
  unchanged: number;
  skipped: Skipped[];
}

export interface ImportReport {
  files: FileReport[];
  /**
   * Imported reviews that the export of their scope (`in`: the platform, and for Google the
   * location, see scope.ts) no longer has; deleted with `deleteMissing`.
   */
  missing: Array<{ file: string; source: string; source_id: string; in: string }>;
  deleted: string[];
  dryRun: boolean;
  /** Whether the import's memory (memory.ts) changed and was written. */
  remembered: boolean;
  /** Why the memory could not be written (the review files were): its problems are new again next time. */
  memoryProblem?: string;
}

/** A problem before any export is read (no business.yaml, a broken memory file): nothing can be imported. */
export class ImportSetupError extends Error {}

interface Plan {
  record: ImportedReview;
  id: string;
  data: Frontmatter;
  kind: 'added' | 'updated';
  by?: 'id' | 'text';
  what?: string[];
}

/** A plan with its frontmatter as the schema read it. */
type CheckedPlan = Plan & { checked: z.output<typeof reviewFrontmatter> };

/** What an import works against: the business, the review files already there, and how new ones are made and checked. */
interface Content {
  business: Business;
  index: ContentIndex;
  detect: ReturnType<typeof detectEditorFields>;
  resolver: ReturnType<typeof createReferenceResolver>;
  reviewsDir: string;
}

/** One export of the run as read, for finding what the platforms no longer have. */
interface ExportRead {
  file: FileReport;
  scope: ExportScope;
  /** The platform ids of its records, those with problems included (they are still on the platform). */
  ids: Set<string>;
}

/** How one export's problems are noted, named by the export's own fields. */
interface ProblemNamer {
  problem: (record: ImportedReview, field: string, message: string) => void;
  exportField: (path: readonly PropertyKey[]) => string;
  textField: string;
}

export function importReviews(paths: readonly string[], options: ImportOptions): ImportReport {
  const content = openContent(options.contentDir, { fullNames: options.fullNames ?? false });
  const memory = openMemory(options.contentDir);
  const report: ImportReport = {
    files: [],
    missing: [],
    deleted: [],
    dryRun: options.dryRun ?? false,
    remembered: false,
  };
  const read: ExportRead[] = [];
  const reported = new Map<
    string,
    { problems: Array<{ record: string; field: string; message: string }>; whole: boolean }
  >();
  for (const input of exportInputs(paths, options)) {
    const parsed = readInput(input);
    const scope = exportScope(parsed, input.name, (key) => memory.title(key));
    const label = exportLabel(scope, input.name, input.origin);
    const file: FileReport = {
      file: input.name,
      ...(label ? { label } : {}),
      format: parsed.format,
      imported: false,
      problems: [...parsed.problems],
      added: [],
      updated: [],
      unchanged: 0,
      skipped: [...parsed.skipped],
    };
    report.files.push(file);
    const identity = (at: string) => parsed.keys?.[at] ?? at;
    const known = (p: ImportProblem) => recordProblem(p) && memory.known(scope.key, identity(p.at), p.field, p.message);
    for (const p of file.problems) p.known = known(p);
    read.push({
      file,
      scope,
      ids: new Set([
        ...parsed.records.map((r) => r.source_id),
        ...Object.values(parsed.keys ?? {}).filter(isPlatformId),
      ]),
    });
    const problems = importExport(parsed, file, content, options, known);
    if (!file.imported && !problems.some((p) => p.at.startsWith('('))) {
      const failed = new Set(problems.map((p) => p.at));
      file.importable = parsed.records.filter((r) => !failed.has(r.at)).length;
    }
    // What the next runs take as known: this run's problems of the scope, which replace the ones
    // remembered when every export of the scope was imported (a record fixed or gone is forgotten).
    const entry = reported.get(scope.key) ?? { problems: [], whole: true };
    reported.set(scope.key, entry);
    entry.whole &&= file.imported && !parsed.partial;
    for (const p of problems.filter(recordProblem))
      entry.problems.push({ record: identity(p.at), field: p.field, message: p.message });
  }
  findMissing(read, content.index, options, report, memory);
  for (const [scope, { problems, whole }] of reported) memory.remember(scope, problems, whole);
  if (!report.dryRun) {
    try {
      report.remembered = memory.save();
    } catch (error) {
      report.memoryProblem = `${MEMORY_FILE} could not be written (${(error as Error).message}): the next run reports this run's problems as new again`;
    }
  }
  return report;
}

/** A problem of one record (not of the file, nor a file that could not be written): one the memory keeps. */
function recordProblem(p: ImportProblem): boolean {
  return !p.at.startsWith('(') && p.field !== '(file)';
}

function openMemory(contentDir: string): ImportMemory {
  try {
    return ImportMemory.open(contentDir);
  } catch (error) {
    if (error instanceof MemoryError) throw new ImportSetupError(error.message);
    throw error;
  }
}

/** The business and the review files the import compares with; a folder that cannot be read stops the run. */
function openContent(contentDir: string, names: NameOptions): Content {
  const setup: ContentProblem[] = [];
  const business = loadBusiness(contentDir, setup);
  if (!business) throw new ImportSetupError(setup.map((p) => `${p.file}: ${p.field}: ${p.message}`).join('\n'));
  let files: ReviewFile[];
  try {
    files = listReviewFiles(contentDir);
  } catch (error) {
    throw new ImportSetupError(`${join(contentDir, REVIEWS_DIR)}: ${(error as Error).message}`);
  }
  return {
    business,
    index: new ContentIndex(files.map(readExisting)),
    detect: detectEditorFields(business, names),
    resolver: createReferenceResolver(business),
    reviewsDir: join(contentDir, REVIEWS_DIR),
  };
}

/** The export files named (folders searched), then the Google API's documents, each with the name the report shows. */
function exportInputs(
  paths: readonly string[],
  options: ImportOptions,
): Array<{ name: string; origin: ExportOrigin; read: () => ParsedExport }> {
  const shown = (file: string) => relative(options.cwd ?? process.cwd(), file) || file;
  return [
    ...exportFiles(paths).map((path) => ({
      name: shown(path),
      origin: inTakeoutLocation(path) ? ('takeout' as const) : ('file' as const),
      read: () => readExport(path, shown(path), options.format, options.csv),
    })),
    ...(options.google ?? []).map(({ name, location, title, document }) => ({
      name,
      origin: 'api' as const,
      read: () => parseGoogle(name, document, location ? { id: location, ...(title ? { title } : {}) } : undefined),
    })),
  ];
}

/**
 * One export, all or nothing: plan every record, keep what may be written, write it. Returns the
 * problems it had (with `skipInvalid` or when known, those records are then listed as skipped).
 */
function importExport(
  parsed: ParsedExport,
  file: FileReport,
  content: Content,
  options: ImportOptions,
  known: (p: ImportProblem) => boolean,
): ImportProblem[] {
  const namer = problemNamer(parsed, file, known);
  const plans = planRecords(latestCopies(parsed.records, file), file, content, namer);
  const writing = plansToWrite(plans, file, options);
  const written = writing && writePlans(writing, file, content, namer, options);
  const problems = [...file.problems];
  if (!written) {
    // Nothing of it is written: its records are counted nowhere but in what the hint says of them.
    const failed = new Set(file.problems.map((p) => p.at));
    file.importableChanges = plans.filter((plan) => !failed.has(plan.record.at)).length;
    file.unchanged = 0;
    return problems;
  }
  file.imported = true;
  skipProblems(file);
  for (const plan of written)
    (plan.kind === 'added' ? file.added : file.updated).push({
      file: `${REVIEWS_DIR}/${plan.id}.md`,
      at: plan.record.at,
      ...(plan.by ? { by: plan.by } : {}),
      ...(plan.what?.length ? { what: plan.what } : {}),
    });
  return problems;
}

function problemNamer(parsed: ParsedExport, file: FileReport, known: (p: ImportProblem) => boolean): ProblemNamer {
  return {
    problem: (record, field, message) => {
      const p: ImportProblem = { file: file.file, at: record.at, field, message };
      file.problems.push({ ...p, known: known(p) });
    },
    exportField: (path) => {
      const name = fieldName(path).replace(/\[\d+\]/g, '');
      return parsed.fields[name] ?? parsed.fields[name.split('.')[0]!] ?? name;
    },
    textField: parsed.fields.text ?? 'text',
  };
}

/** The same review twice in one export (two copies of a location's file): the latest copy counts. */
function latestCopies(records: readonly ImportedReview[], file: FileReport): ImportedReview[] {
  const latest = new Map<string, ImportedReview>();
  for (const record of records) {
    const key = `${record.source}\0${record.source_id}`;
    const other = latest.get(key);
    if (!other) latest.set(key, record);
    else {
      const [keep, drop] = (record.updated ?? '') > (other.updated ?? '') ? [record, other] : [other, record];
      latest.set(key, keep);
      file.skipped.push({
        file: file.file,
        at: drop.at,
        reason: `the same review (${record.source} ${record.source_id}) as ${keep.at}, which is kept`,
      });
    }
  }
  return [...latest.values()];
}

/** What each record would write (a new file, or an existing one updated), checked by the build's schema. */
function planRecords(
  records: readonly ImportedReview[],
  file: FileReport,
  content: Content,
  { problem, exportField, textField }: ProblemNamer,
): CheckedPlan[] {
  const plans: CheckedPlan[] = [];
  const claimed = new Map<string, string>();
  const taken = new Set(content.index.all.keys());
  for (const record of records) {
    const match = content.index.find(record);
    let plan: Plan;
    if (match) {
      const update = planUpdate(record, match, claimed, file, problem);
      if (!update) continue;
      plan = update;
    } else {
      const data = { ...platformFields(record), title: record.title, ...content.detect(record), verified: true };
      const id = newReviewId(data, taken);
      taken.add(id);
      plan = { record, id, data, kind: 'added' };
    }
    // The build's own schema, before anything is written; problems named by the export's fields.
    const checked = reviewFrontmatter.safeParse(plan.data);
    if (!checked.success)
      for (const issue of checked.error.issues) problem(record, exportField(issue.path), issueText(issue));
    const textProblem = reviewTextProblem(record.text);
    if (textProblem) problem(record, textField, textProblem);
    if (checked.success && !textProblem) plans.push({ ...plan, checked: checked.data });
  }
  return plans;
}

/** The update of the file a record was matched with, or undefined when there is none to make (the reason noted). */
function planUpdate(
  record: ImportedReview,
  match: NonNullable<ReturnType<ContentIndex['find']>>,
  claimed: Map<string, string>,
  file: FileReport,
  problem: ProblemNamer['problem'],
): Plan | undefined {
  const existing = match.review;
  if (!existing.data) {
    problem(
      record,
      '(record)',
      `this is the review of ${existing.file}, which has a problem (npm run build names it): fix that file first`,
    );
    return undefined;
  }
  if (claimed.has(existing.id)) {
    file.skipped.push({
      file: file.file,
      at: record.at,
      reason: `${existing.file} is already this export's ${claimed.get(existing.id)}`,
    });
    return undefined;
  }
  claimed.set(existing.id, record.at);
  const before: Frontmatter = { ...existing.data, author: authorName(existing.data) };
  const data = {
    ...platformFields(record, before),
    ...Object.fromEntries(EDITOR_FIELDS.map((field) => [field, before[field]])),
  } as Frontmatter;
  if (canonical(data) === canonical(before) && existing.body === record.text) {
    file.unchanged += 1;
    return undefined;
  }
  if (
    match.by === 'id' &&
    record.updated !== undefined &&
    before.updated !== undefined &&
    record.updated < before.updated
  ) {
    file.skipped.push({
      file: file.file,
      at: record.at,
      reason: `older than ${existing.file} (updated ${before.updated}): left as it is`,
    });
    return undefined;
  }
  return {
    record,
    id: existing.id,
    data,
    kind: 'updated',
    by: match.by,
    what: whatChanged(before, data, existing.body !== record.text),
  };
}

/** An update's changes in the words of the report; the `updated` time only when nothing else changed. */
function whatChanged(before: Frontmatter, after: Frontmatter, textChanged: boolean): string[] {
  const same = (field: (typeof FIELD_ORDER)[number]) =>
    JSON.stringify(before[field] ?? null) === JSON.stringify(after[field] ?? null);
  const what: string[] = [];
  for (const field of FIELD_ORDER) {
    if (field === 'updated' || same(field)) continue;
    const [was, is] = [before[field], after[field]];
    const name = field === 'response' ? 'reply' : field;
    if (field === 'rating') what.push(`rating ${String(was)} → ${String(is)}`);
    else if (was === undefined || was === null) what.push(`${name} added`);
    else if (is === undefined || is === null) what.push(`${name} removed`);
    else what.push(`${name} changed`);
  }
  if (textChanged) what.push('text changed');
  if (what.length === 0 && !same('updated')) what.push('updated time changed');
  return what;
}

/**
 * The plans that may be written: all of them when the export has no problem; those of the records
 * without one when every problem was reported by an earlier run (known), or with `skipInvalid`;
 * none (undefined) otherwise, and never when the file itself has a problem.
 */
function plansToWrite(plans: CheckedPlan[], file: FileReport, options: ImportOptions): CheckedPlan[] | undefined {
  if (file.problems.some((p) => p.at.startsWith('('))) return undefined;
  if (!options.skipInvalid && file.problems.some((p) => !p.known)) return undefined;
  const failedAt = new Set(file.problems.map((p) => p.at));
  return plans.filter((plan) => !failedAt.has(plan.record.at));
}

/** An imported export's problems become its records' reasons to be left out: one line a record, new or known. */
function skipProblems(file: FileReport): void {
  const byRecord = new Map<string, ImportProblem[]>();
  for (const p of file.problems) byRecord.set(p.at, [...(byRecord.get(p.at) ?? []), p]);
  for (const [at, problems] of byRecord)
    file.skipped.push({
      file: file.file,
      at,
      reason: problems.map((p) => `${p.field}: ${p.message}`).join('; '),
      problem: problems.every((p) => p.known) ? 'known' : 'new',
    });
  file.problems = [];
}

/**
 * Writes the plans beside their final names (hidden: the loader skips dot files), checks them with
 * the loader itself, then renames them into place; any problem removes them all. Returns the plans
 * written, or undefined when nothing was.
 */
function writePlans(
  writing: CheckedPlan[],
  file: FileReport,
  { business, resolver, index, reviewsDir }: Content,
  { problem, exportField, textField }: ProblemNamer,
  options: ImportOptions,
): CheckedPlan[] | undefined {
  const temps = writing.map((plan) => ({
    plan,
    temp: join(reviewsDir, `.${plan.id}.md.import-${process.pid}`),
    content:
      plan.kind === 'updated'
        ? updatedReviewFile(index.all.get(plan.id)!, plan.data, plan.record.text)
        : reviewFileText(plan.data, plan.record.text),
  }));
  const kept: typeof temps = [];
  const before = file.problems.length;
  try {
    for (const { temp, content } of temps) writeFileSync(temp, content);
    for (const entry of temps) {
      const { plan, temp } = entry;
      const read = readReviewFile(
        { absolute: temp, file: `${REVIEWS_DIR}/${plan.id}.md`, id: plan.id },
        business,
        resolver,
      );
      for (const p of read.problems)
        problem(plan.record, p.field === '(body)' ? textField : exportField(p.field.split(/[.[]/)), p.message);
      if (read.problems.length === 0) kept.push(entry);
    }
    // What only the loader sees (a reply dated before its review) leaves its record out too.
    if (!options.skipInvalid && file.problems.slice(before).some((p) => !p.known)) return undefined;
    if (!options.dryRun) {
      const failed = renameAll(
        kept.map(({ plan, temp }) => ({ temp, absolute: join(reviewsDir, `${plan.id}.md`), plan })),
      );
      if (failed) {
        problem(failed.plan.record, '(file)', failed.message);
        return undefined;
      }
    }
    for (const { plan } of kept) {
      // A dry run goes on as if written: a later export of the run is compared with what this one would write.
      index.put({
        absolute: join(reviewsDir, `${plan.id}.md`),
        file: `${REVIEWS_DIR}/${plan.id}.md`,
        id: plan.id,
        data: plan.checked,
        body: plan.record.text,
        source: plan.data.source,
        source_id: plan.data.source_id!,
      });
    }
  } finally {
    for (const { temp } of temps) rmSync(temp, { force: true });
  }
  return kept.map(({ plan }) => plan);
}

/**
 * An imported review that the export of its scope no longer has is missing from the platform
 * (deleted there, or by its author): within the scope only (the platform, and for Google the
 * location the memory says the review came from), and not when an export of the scope could not
 * be imported (it may be in there). Deleted with `deleteMissing`. A Google location's reviews are
 * then remembered as those its export has, and those missing but kept.
 */
function findMissing(
  read: readonly ExportRead[],
  index: ContentIndex,
  options: ImportOptions,
  report: ImportReport,
  memory: ImportMemory,
): void {
  const scopes = new Map<string, { scope: ExportScope; ids: Set<string>; complete: boolean }>();
  for (const { file, scope, ids } of read) {
    if (!scope.covers) continue;
    const entry = scopes.get(scope.key) ?? { scope, ids: new Set<string>(), complete: true };
    scopes.set(scope.key, entry);
    if (!file.imported || scope.covers.partial) entry.complete = false;
    if (file.imported) for (const id of ids) entry.ids.add(id);
  }
  for (const { scope, ids, complete } of scopes.values()) {
    const { source, location } = scope.covers!;
    const theirs = location ? memory.reviewsOf(scope.key) : undefined;
    if (complete)
      for (const review of index.fromSource(source)) {
        if (ids.has(review.source_id!) || (theirs && !theirs.has(review.source_id!))) continue;
        report.missing.push({ file: review.file, source, source_id: review.source_id!, in: scope.label });
        if (options.deleteMissing && !options.dryRun) {
          rmSync(review.absolute, { force: true });
          index.remove(review.id);
          report.deleted.push(review.file);
        }
      }
    if (location) {
      const present = new Set(index.fromSource(source).map((r) => r.source_id!));
      const now = [...new Set([...theirs!, ...ids])].filter((id) => present.has(id));
      memory.place(scope.key, now, true, scope.title);
    }
  }
}

/**
 * Renames each written file into place, all or none: when one rename fails (a folder standing at
 * the file's name, no permission), the files already renamed are put back as they were.
 */
function renameAll<T>(
  moves: ReadonlyArray<{ temp: string; absolute: string; plan: T }>,
): { plan: T; message: string } | undefined {
  const done: Array<{ absolute: string; backup?: string }> = [];
  try {
    for (const { temp, absolute, plan } of moves) {
      let backup: string | undefined;
      try {
        if (existsSync(absolute) && statSync(absolute).isFile()) {
          backup = `${temp}.before`;
          copyFileSync(absolute, backup);
        }
        renameSync(temp, absolute);
      } catch (error) {
        if (backup) rmSync(backup, { force: true });
        for (const undo of done.reverse()) {
          if (undo.backup) renameSync(undo.backup, undo.absolute);
          else rmSync(undo.absolute, { force: true });
        }
        done.length = 0;
        return { plan, message: `${REVIEWS_DIR}/${basename(absolute)} could not be written: ${renameProblem(error)}` };
      }
      done.push({ absolute, ...(backup ? { backup } : {}) });
    }
  } finally {
    for (const { backup } of done) if (backup) rmSync(backup, { force: true });
  }
  return undefined;
}

function renameProblem(error: unknown): string {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'EISDIR' || code === 'ENOTEMPTY' || code === 'EEXIST' || code === 'ENOTDIR')
    return 'a folder stands at that name; move it away and import again';
  if (code === 'EACCES' || code === 'EPERM') return 'no permission to write there';
  return (error as Error).message;
}

/** An export read, or refused whole when it is too deeply nested or too large for the stack: the run still ends with its report. */
function readInput(input: { name: string; read: () => ParsedExport }): ParsedExport {
  try {
    return input.read();
  } catch (error) {
    if (!(error instanceof RangeError)) throw error;
    const message = `cannot be read: ${error.message} (a value nested too deeply?)`;
    return {
      format: 'csv',
      records: [],
      fields: {},
      problems: [{ file: input.name, at: '(file)', field: '(file)', message }],
      skipped: [],
    };
  }
}

/** The frontmatter's meaning, whatever its layout: equal strings, equal files for the build. */
function canonical(data: Frontmatter): string {
  return JSON.stringify(FIELD_ORDER.map((field) => data[field] ?? null));
}

function issueText(issue: z.core.$ZodIssue): string {
  return issue.code === 'unrecognized_keys'
    ? `unknown field${issue.keys.length > 1 ? 's' : ''} ${issue.keys.join(', ')}`
    : issue.message;
}

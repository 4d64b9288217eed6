/**
 * The import's account of itself, as the office reads it, and its exit status
 * for a scheduler: 0 when everything importable was imported (problems an
 * earlier run reported are listed as known and do not fail the run), 1 when
 * something new could not be imported. (2, a usage or setup mistake, is the
 * command's: scripts/import.ts.)
 */
import type { ImportReport } from './run.ts';

type FileReport = ImportReport['files'][number];

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** What was written or left as it is, over the exports imported (an export not imported counts only as such). */
export function totals(report: ImportReport) {
  const imported = report.files.filter((f) => f.imported);
  const sum = (pick: (f: FileReport) => number) => imported.reduce((n, f) => n + pick(f), 0);
  return {
    added: sum((f) => f.added.length),
    updated: sum((f) => f.updated.length),
    unchanged: sum((f) => f.unchanged),
    skipped: sum((f) => f.skipped.length),
    rejected: report.files.length - imported.length,
  };
}

/**
 * The problems the report lists, new and known: each problem of an export not imported, and each
 * record an imported export left out for its problems.
 */
function problemCounts(report: ImportReport): { new: number; known: number } {
  let fresh = 0;
  let known = 0;
  for (const file of report.files) {
    for (const p of file.problems)
      if (p.known) known += 1;
      else fresh += 1;
    for (const skip of file.skipped)
      if (skip.problem === 'known') known += 1;
      else if (skip.problem === 'new') fresh += 1;
  }
  return { new: fresh, known };
}

/** 1 when something new could not be imported (or what was reported could not be remembered), else 0. */
export function exitStatus(report: ImportReport): 0 | 1 {
  return problemCounts(report).new > 0 || report.files.some((f) => !f.imported) || report.memoryProblem ? 1 : 0;
}

const KNOWN = ' (known: reported by an earlier import)';
/** A record `--skip-invalid` left out for a problem no earlier run reported: it fails this run, not the next. */
const NEW = ' (new problem)';

export function formatReport(report: ImportReport): string {
  const lines: string[] = [];
  for (const file of report.files) {
    const name = file.label ?? file.file;
    if (!file.imported) {
      lines.push(
        `${name}: not imported, nothing ${report.dryRun ? 'would be ' : ''}written (${plural(file.problems.length, 'problem')}):`,
      );
      for (const p of file.problems) lines.push(`  ${p.at}, ${p.field}: ${p.message}${p.known ? KNOWN : ''}`);
      if (file.importable) lines.push(`  ${importableHint(file)}`);
      continue;
    }
    lines.push(
      `${file.label ?? `${file.file} (${file.format})`}: ${file.added.length} new, ${file.updated.length} updated, ${file.unchanged} unchanged, ${file.skipped.length} skipped`,
    );
    for (const change of file.added) lines.push(`  new       ${change.file}  (${change.at})`);
    for (const change of file.updated)
      lines.push(
        `  updated   ${change.file}  (${change.at}${change.by === 'text' ? ', typed by hand before: recognised by author, date and text' : ''}${change.what ? `: ${change.what.join(', ')}` : ''})`,
      );
    for (const skip of file.skipped)
      lines.push(
        `  skipped   ${skip.at}: ${skip.reason}${skip.problem === 'known' ? KNOWN : skip.problem === 'new' ? NEW : ''}`,
      );
  }
  const scopes = [...new Set(report.missing.map((m) => m.in))];
  for (const scope of scopes) {
    const deleted = report.deleted.length > 0;
    lines.push(
      deleted
        ? `No longer in the exports of ${scope}, deleted:`
        : `No longer in the exports of ${scope}, kept (--delete-missing ${report.dryRun ? 'would delete' : 'deletes'} them):`,
    );
    for (const m of report.missing.filter((x) => x.in === scope))
      lines.push(`  ${m.file}  (${m.source} ${m.source_id})`);
  }
  if (report.memoryProblem) lines.push(report.memoryProblem);
  lines.push(summary(report));
  return `${lines.join('\n')}\n`;
}

/** How to import the other records of an export some records blocked, or that there is nothing more in it. */
function importableHint(file: FileReport): string {
  const n = file.importable!;
  const bad = new Set(file.problems.map((p) => p.at)).size;
  if (file.importableChanges === 0)
    return `The other ${plural(n, 'record')} ${n === 1 ? 'has' : 'have'} no problem and ${n === 1 ? 'is' : 'are'} already imported, unchanged: nothing more to import from this file.`;
  return `The other ${n} record${n === 1 ? ' has' : 's have'} no problem: run again with --skip-invalid to import ${n === 1 ? 'it' : 'them'} (the ${bad === 1 ? 'one' : bad} above ${bad === 1 ? 'is' : 'are'} listed as skipped, not written).`;
}

/** The run in one line, its parts the sums of the lines above it. */
function summary(report: ImportReport): string {
  const t = totals(report);
  const problems = problemCounts(report);
  const parts = [`${t.added} new, ${t.updated} updated, ${t.unchanged} unchanged, ${t.skipped} skipped`];
  if (report.missing.length > 0)
    parts[0] += `, ${report.missing.length} missing${report.deleted.length > 0 ? ' (deleted)' : ''}`;
  if (t.rejected > 0) parts.push(`${plural(t.rejected, 'file')} not imported`);
  if (problems.new > 0) parts.push(`${plural(problems.new, 'new problem')}`);
  if (problems.known > 0)
    parts.push(`${plural(problems.known, 'known problem')} (reported before; not failing the run)`);
  const advice =
    t.added + t.updated > 0 && !report.dryRun ? ' Review the files (git status), then build or commit to publish.' : '';
  return `${report.dryRun ? 'Dry run, nothing written: ' : ''}${parts.join('; ')}.${advice}`;
}

/** The import's account of itself, as the office reads it. */
import type { ImportReport } from './run.ts';

export function totals(report: ImportReport) {
  const sum = (pick: (f: ImportReport['files'][number]) => number) => report.files.reduce((n, f) => n + pick(f), 0);
  return {
    added: sum((f) => f.added.length),
    updated: sum((f) => f.updated.length),
    unchanged: sum((f) => f.unchanged),
    skipped: sum((f) => f.skipped.length),
    rejected: report.files.filter((f) => !f.imported).length,
  };
}

export function formatReport(report: ImportReport): string {
  const lines: string[] = [];
  for (const file of report.files) {
    if (!file.imported) {
      lines.push(
        `${file.file}: not imported, nothing ${report.dryRun ? 'would be ' : ''}written (${file.problems.length} problem${file.problems.length === 1 ? '' : 's'}):`,
      );
      for (const p of file.problems) lines.push(`  ${p.at}, ${p.field}: ${p.message}`);
      if (file.importable) {
        const bad = new Set(file.problems.map((p) => p.at)).size;
        lines.push(
          `  The other ${file.importable} record${file.importable === 1 ? ' has' : 's have'} no problem: run again with --skip-invalid to import ${file.importable === 1 ? 'it' : 'them'} (the ${bad === 1 ? 'one' : bad} above ${bad === 1 ? 'is' : 'are'} listed as skipped, not written).`,
        );
      }
      continue;
    }
    lines.push(
      `${file.file} (${file.format}): ${file.added.length} new, ${file.updated.length} updated, ${file.unchanged} unchanged, ${file.skipped.length} skipped`,
    );
    for (const change of file.added) lines.push(`  new       ${change.file}  (${change.at})`);
    for (const change of file.updated)
      lines.push(
        `  updated   ${change.file}  (${change.at}${change.by === 'text' ? ', typed by hand before: recognised by author, date and text' : ''}${change.what ? `: ${change.what.join(', ')}` : ''})`,
      );
    for (const skip of file.skipped) lines.push(`  skipped   ${skip.at}: ${skip.reason}`);
  }
  if (report.missing.length > 0) {
    const deleted = report.deleted.length > 0;
    lines.push(
      deleted
        ? 'No longer in the exports, deleted:'
        : `No longer in the exports, kept (--delete-missing ${report.dryRun ? 'would delete' : 'deletes'} them):`,
    );
    for (const m of report.missing) lines.push(`  ${m.file}  (${m.source} ${m.source_id})`);
  }
  const t = totals(report);
  lines.push(
    `${report.dryRun ? 'Dry run, nothing written: ' : ''}${t.added} new, ${t.updated} updated, ${t.unchanged} unchanged, ${t.skipped} skipped` +
      (report.missing.length > 0
        ? `, ${report.missing.length} missing${report.deleted.length > 0 ? ' (deleted)' : ''}`
        : '') +
      (t.rejected > 0 ? `; ${t.rejected} file${t.rejected === 1 ? '' : 's'} not imported` : '') +
      (t.added + t.updated > 0 && !report.dryRun
        ? `. Review the files (git status), then build or commit to publish.`
        : '.'),
  );
  return `${lines.join('\n')}\n`;
}

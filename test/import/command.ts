/**
 * What `npm run import -- FILE…` prints and exits with, run in the test's own
 * process: the command is importReviews, then formatReport and exitStatus
 * (scripts/import.ts), and a Node process per run costs a second of CPU. An
 * exception here is the stack trace the command would print. The command's
 * own part (each option, usage and setup mistakes, exit status 2) is run as a
 * command: import.test.ts, known-problems.test.ts and
 * ../import-routine/messages.test.ts.
 */
import { resolve } from 'node:path';
import { exitStatus, formatReport } from '../../src/lib/import/report.ts';
import { importReviews, type ImportOptions } from '../../src/lib/import/run.ts';

/** `files` as given on the command line, relative to `cwd` (where the command runs). */
export function importCommand(
  cwd: string,
  files: string[],
  options: Omit<ImportOptions, 'cwd'>,
): { status: number; stdout: string } {
  const report = importReviews(
    files.map((file) => resolve(cwd, file)),
    { cwd, ...options },
  );
  return { status: exitStatus(report), stdout: formatReport(report) };
}

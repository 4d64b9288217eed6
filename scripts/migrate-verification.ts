/**
 * One-off: gives every review file written before verification was recorded its
 * `verification` block, inferred from what the file says. A file with a platform id
 * (source_id) was imported: `platform`. A file without one was typed in by the office,
 * which checks a typed review against its completed jobs: `job`, except `source: email`,
 * the customer's answer to the office's follow-up email after a job: `invitation`.
 * The day checked is the review's own date. Files that already have the block are left as they are.
 *
 *   node scripts/migrate-verification.ts content [more content folders…]
 */
import { readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseMarkdown } from '../src/lib/content/split-frontmatter.ts';

function methodOf(data: Record<string, unknown>): 'platform' | 'job' | 'invitation' {
  if (typeof data.source_id === 'string') return 'platform';
  return data.source === 'email' ? 'invitation' : 'job';
}

function migrateFile(path: string): boolean {
  const text = readFileSync(path, 'utf8');
  let data: Record<string, unknown>;
  try {
    ({ data } = parseMarkdown(text) as { data: Record<string, unknown> });
  } catch {
    return false; // a file the build refuses anyway: its mistake is reported there, not here
  }
  if (data.verification !== undefined || data.verified !== true) return false;
  const line = /^verified: true[ \t]*$/m;
  if (!line.test(text)) throw new Error(`${path}: no "verified: true" line to put verification after`);
  const block = `verified: true\nverification:\n  method: ${methodOf(data)}\n  checked: ${String(data.date)}`;
  const tmp = `${path}.tmp`;
  writeFileSync(tmp, text.replace(line, block));
  renameSync(tmp, path);
  return true;
}

function walk(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? walk(join(dir, entry.name)) : entry.name.endsWith('.md') ? [join(dir, entry.name)] : [],
  );
}

for (const folder of process.argv.slice(2)) {
  const files = walk(join(folder, 'reviews'));
  const changed = files.filter(migrateFile).length;
  console.log(`${folder}: ${changed} of ${files.length} review files given a verification`);
}

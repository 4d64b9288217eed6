/**
 * npm run import -- FILE_OR_FOLDER… : platform exports in, review files out
 * (src/lib/import). See docs/editing.md, "Import reviews".
 */
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { contentDir } from '../src/lib/config/site.ts';
import { CSV_FIELDS, type CsvField } from '../src/lib/import/csv.ts';
import { FORMAT_NAMES, type FormatName } from '../src/lib/import/detect.ts';
import { fetchGoogleReviews, GoogleApiError, googleSettingsFromEnv } from '../src/lib/import/google-api.ts';
import { exitStatus, formatReport } from '../src/lib/import/report.ts';
import { ImportSetupError, importReviews } from '../src/lib/import/run.ts';

const USAGE = `Usage: npm run import -- [options] FILE_OR_FOLDER...
       npm run import -- --google [options]

Reads review exports and writes one file per review into the content folder's reviews/.
Formats (detected, or named with --format):
  google      Google Business Profile: an API reviews.list response, or Takeout's reviews.json
              (a folder: every reviews.json under it, one per location)
  trustpilot  Trustpilot's JSON or CSV export
  csv         any other platform's reviews as CSV, columns: ${CSV_FIELDS.join(', ')}

Options:
  --format NAME          ${FORMAT_NAMES.join(' | ')}
  --map FIELD=COLUMN     a CSV field's column, e.g. --map rating=Stars (repeatable)
  --source NAME          where a generic CSV's reviews were written (yelp, facebook, email…), when it has no source column
  --content-dir DIR      the content folder (default: CONTENT_DIR, else content/)
  --delete-missing       delete imported reviews that the platform's export no longer has
  --full-names           publish new reviews under the full names the platforms show (default: "Firstname L.")
  --skip-invalid         import an export's valid records even when some have problems (those are reported, not written)
  --dry-run              say what would change, write nothing
  --google               also fetch every review of GOOGLE_LOCATIONS from the Business Profile API, with
                         GOOGLE_ACCESS_TOKEN or GOOGLE_CLIENT_ID + GOOGLE_CLIENT_SECRET + GOOGLE_REFRESH_TOKEN
  --help                 this text

Exit status: 0 when everything importable was imported (records whose problems an earlier run
reported are listed as known, and do not fail the run), 1 when something new could not be
imported (a new problem, an export not imported) or the Google API refused or failed, 2 for a
usage or setup mistake (an option, a file that is not there, a content folder or its
.import-state.json that cannot be read, GOOGLE_* settings missing or malformed).`;

function fail(message: string): never {
  process.stderr.write(`import: ${message}\n\n${USAGE}\n`);
  process.exit(2);
}

let args;
try {
  args = parseArgs({
    args: process.argv.slice(2),
    options: {
      format: { type: 'string' },
      map: { type: 'string', multiple: true },
      source: { type: 'string' },
      'content-dir': { type: 'string' },
      'delete-missing': { type: 'boolean' },
      'skip-invalid': { type: 'boolean' },
      'full-names': { type: 'boolean' },
      'dry-run': { type: 'boolean' },
      google: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
    allowPositionals: true,
    strict: true,
  });
} catch (error) {
  fail((error as Error).message);
}
const { values, positionals } = args;
if (values.help) {
  process.stdout.write(`${USAGE}\n`);
  process.exit(0);
}
if (positionals.length === 0 && !values.google) fail('name at least one export file or folder, or --google');
if (values.format !== undefined && !(FORMAT_NAMES as readonly string[]).includes(values.format))
  fail(`--format must be one of ${FORMAT_NAMES.join(', ')}, got "${values.format}"`);
const map: Partial<Record<CsvField, string>> = {};
for (const entry of values.map ?? []) {
  const match = /^([a-z_]+)=(.+)$/.exec(entry);
  if (!match || !(CSV_FIELDS as readonly string[]).includes(match[1]!))
    fail(`--map takes FIELD=COLUMN with FIELD one of ${CSV_FIELDS.join(', ')}, got "${entry}"`);
  map[match[1] as CsvField] = match[2]!;
}

/** A setup mistake: said plainly, without the usage text, exit status 2. */
function setupFailed(message: string): never {
  process.stderr.write(`import: ${message}\n`);
  process.exit(2);
}

let googleSettings: ReturnType<typeof googleSettingsFromEnv> | undefined;
try {
  if (values.google) googleSettings = googleSettingsFromEnv();
} catch (error) {
  if (!(error instanceof GoogleApiError)) throw error;
  setupFailed(`Google Business Profile API: ${error.message}`);
}

try {
  const google = googleSettings
    ? (await fetchGoogleReviews(googleSettings)).map(({ location, title, document }) => ({
        name: `Google API ${location}`,
        location,
        ...(title ? { title } : {}),
        document,
      }))
    : [];
  const report = importReviews(
    positionals.map((p) => resolve(p)),
    {
      contentDir: resolve(values['content-dir'] ?? contentDir()),
      ...(values.format ? { format: values.format as FormatName } : {}),
      csv: { map, ...(values.source ? { source: values.source } : {}) },
      deleteMissing: values['delete-missing'] ?? false,
      skipInvalid: values['skip-invalid'] ?? false,
      fullNames: values['full-names'] ?? false,
      dryRun: values['dry-run'] ?? false,
      google,
    },
  );
  // exitCode, not exit(): a long report to a pipe is written out before the process ends.
  process.stdout.write(formatReport(report));
  process.exitCode = exitStatus(report);
} catch (error) {
  if (error instanceof GoogleApiError) {
    process.stderr.write(`import: Google Business Profile API: ${error.message}\n`);
    process.exitCode = 1;
  } else if (error instanceof ImportSetupError) {
    setupFailed(`the content folder cannot be read:\n${error.message}`);
  } else if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
    setupFailed((error as Error).message);
  } else throw error;
}

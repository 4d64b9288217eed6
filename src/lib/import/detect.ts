/**
 * Which export a file is, from its name and its contents, unless the office
 * says (`--format`), and the files a folder holds (a Google Takeout folder has
 * one reviews.json per location, under account-…/location-…/).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, dirname, extname, join } from 'node:path';
import { isTrustpilotCsv, parseCsv } from './csv.ts';
import { notUtf8Problem } from './encoding.ts';
import { isGoogleExport, isTakeoutLocationData, parseGoogle, takeoutTitle } from './google.ts';
import { isTrustpilotExport, parseTrustpilotJson } from './trustpilot.ts';
import type { CsvOptions, ExportLocation, ParsedExport } from './types.ts';

/** What `--format` takes: a platform, or the generic CSV. */
export const FORMAT_NAMES = ['google', 'trustpilot', 'csv'] as const;
export type FormatName = (typeof FORMAT_NAMES)[number];

const EXPORT_EXTENSIONS = new Set(['.json', '.csv']);
/** Takeout's file of a location's details beside its reviews.json: read for the location's title, not as an export. */
const TAKEOUT_LOCATION_DATA = 'additionaldata.json';

/** The export files of the paths given: files as they are, folders searched for .json and .csv files (in name order). */
export function exportFiles(paths: readonly string[]): string[] {
  const out: string[] = [];
  for (const path of paths) {
    if (statSync(path).isDirectory()) out.push(...folderFiles(path));
    else out.push(path);
  }
  return out;
}

function folderFiles(dir: string): string[] {
  const out: string[] = [];
  const entries = readdirSync(dir, { withFileTypes: true }).sort((a, b) =>
    a.name < b.name ? -1 : a.name > b.name ? 1 : 0,
  );
  for (const entry of entries) {
    if (entry.name.startsWith('.') || entry.name.toLowerCase() === TAKEOUT_LOCATION_DATA) continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...folderFiles(path));
    else if (EXPORT_EXTENSIONS.has(extname(entry.name).toLowerCase())) out.push(path);
  }
  return out;
}

/** Reads one export file into records, detecting its format unless `format` is given. */
export function readExport(file: string, shown: string, format?: FormatName, csv: CsvOptions = {}): ParsedExport {
  const failed = (message: string): ParsedExport => ({
    format: 'csv',
    records: [],
    fields: {},
    problems: [{ file: shown, at: '(file)', field: '(file)', message }],
    skipped: [],
  });
  let bytes: Buffer;
  try {
    bytes = readFileSync(file);
  } catch (error) {
    return failed(`cannot be read: ${(error as Error).message}`);
  }
  const text = bytes.toString('utf8').replace(/^\uFEFF/, '');
  const extension = extname(file).toLowerCase();
  const looksJson = extension === '.json' || (extension !== '.csv' && /^\s*[[{]/.test(text));
  const encoding = notUtf8Problem(bytes, !looksJson || format === 'csv');
  if (encoding) return failed(encoding);
  if (looksJson && format !== 'csv') {
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch (error) {
      return failed(`not valid JSON: ${(error as Error).message}`);
    }
    if (format === 'google' || (format === undefined && isGoogleExport(json)))
      return parseGoogle(shown, json, takeoutLocation(file));
    if (format === 'trustpilot' || (format === undefined && isTrustpilotExport(json)))
      return parseTrustpilotJson(shown, json);
    if (isTakeoutLocationData(json))
      return failed(
        "Takeout's details of a location (its title), not its reviews: import the reviews.json beside it, or the whole folder",
      );
    return failed(
      'unknown format: not a Google Business Profile reviews list or Takeout reviews.json, nor a Trustpilot export (name one with --format)',
    );
  }
  if (format === 'google') return failed('a Google export is JSON (reviews.list or Takeout reviews.json), not CSV');
  if (extension !== '.csv' && format === undefined)
    return failed('unknown format: expected a .json or .csv export (or name it with --format)');
  const trustpilot = format === 'trustpilot' || (format === undefined && isTrustpilotCsv(text));
  return parseCsv(shown, text, trustpilot ? 'trustpilot-csv' : 'csv', csv);
}

const TAKEOUT_LOCATION_FOLDER = /^location-(\S+)$/;

/** Whether a file is in a Takeout location folder (`…/location-<id>/`). */
export function inTakeoutLocation(file: string): boolean {
  return TAKEOUT_LOCATION_FOLDER.test(basename(dirname(file)));
}

/**
 * The location of a file in a Takeout folder (`…/account-<id>/location-<id>/reviews.json`), with
 * the title its `additionalData.json` gives; undefined for a file elsewhere.
 */
function takeoutLocation(file: string): Partial<ExportLocation> | undefined {
  const folder = TAKEOUT_LOCATION_FOLDER.exec(basename(dirname(file)))?.[1];
  if (!folder) return undefined;
  let title: string | undefined;
  try {
    const data = readdirSync(dirname(file)).find((name) => name.toLowerCase() === TAKEOUT_LOCATION_DATA);
    if (data) title = takeoutTitle(JSON.parse(readFileSync(join(dirname(file), data), 'utf8').replace(/^\uFEFF/, '')));
  } catch {
    // A title is a help for reading the report: without one the location is named by its id.
  }
  return { id: `locations/${folder}`, ...(title ? { title } : {}) };
}

/**
 * Which export a file is, from its name and its contents, unless the office
 * says (`--format`), and the files a folder holds (a Google Takeout folder has
 * one reviews.json per location, under account-…/location-…/).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { extname, join } from 'node:path';
import { isTrustpilotCsv, parseCsv } from './csv.ts';
import { notUtf8Problem } from './encoding.ts';
import { isGoogleExport, parseGoogle } from './google.ts';
import { isTrustpilotExport, parseTrustpilotJson } from './trustpilot.ts';
import type { CsvOptions, ParsedExport } from './types.ts';

/** What `--format` takes: a platform, or the generic CSV. */
export const FORMAT_NAMES = ['google', 'trustpilot', 'csv'] as const;
export type FormatName = (typeof FORMAT_NAMES)[number];

const EXPORT_EXTENSIONS = new Set(['.json', '.csv']);

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
    if (entry.name.startsWith('.')) continue;
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
    if (format === 'google' || (format === undefined && isGoogleExport(json))) return parseGoogle(shown, json);
    if (format === 'trustpilot' || (format === undefined && isTrustpilotExport(json)))
      return parseTrustpilotJson(shown, json);
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

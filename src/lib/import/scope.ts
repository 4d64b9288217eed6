/**
 * What an export speaks for. A Google export (a Takeout location folder, the
 * API's list of one location) is the full list of one location's reviews; a
 * Trustpilot export the business's Trustpilot reviews; a generic CSV only the
 * rows someone put in it (one month's Yelp reviews). "No longer in the
 * exports" and `--delete-missing` look only within that scope: the imported
 * reviews of the same platform and, for Google, the same location.
 */
import { basename } from 'node:path';
import type { ParsedExport } from './types.ts';

export interface ExportScope {
  /** What the memory keeps the scope's problems and reviews under: "google locations/11", "trustpilot", "csv yelp.csv". */
  key: string;
  /** The scope as the report names it: "Cedar Ridge Roofing – Tigard (Google location 11)". */
  label: string;
  /**
   * The review files the export speaks for: of this platform (and, with `location`, of the
   * memory's list of the location); none for a generic CSV. `partial`: one page of a longer list,
   * which speaks for its own records only.
   */
  covers?: { source: string; location?: boolean; partial?: boolean };
  /** A Google location: its id as shown ("Google location 11") and its title, from this export or remembered. */
  place?: string;
  title?: string;
}

/** Where an export came from: a file of a Takeout location folder, the API, or a file named as it is. */
export type ExportOrigin = 'takeout' | 'api' | 'file';

/**
 * The scope of an export; `remembered` gives a location's title learnt from an earlier export
 * (an API list has none).
 */
export function exportScope(
  parsed: ParsedExport,
  name: string,
  remembered: (key: string) => string | undefined,
): ExportScope {
  if (parsed.format === 'google') {
    // A list whose reviews name no location, saved by hand: it speaks for no location, so nothing is missing from it.
    if (!parsed.location) return { key: 'google', label: 'Google' };
    const key = `google ${parsed.location.id}`;
    const title = parsed.location.title ?? remembered(key);
    const place = `Google location ${parsed.location.id.replace(/^locations\//, '')}`;
    return {
      key,
      label: title ? `${title} (${place})` : place,
      covers: { source: 'google', location: true, ...(parsed.partial ? { partial: true } : {}) },
      place,
      ...(title ? { title } : {}),
    };
  }
  if (parsed.format === 'trustpilot-json' || parsed.format === 'trustpilot-csv')
    return { key: 'trustpilot', label: 'Trustpilot', covers: { source: 'trustpilot' } };
  return { key: `csv ${basename(name)}`, label: name };
}

/**
 * How the report names one export: a file of a Takeout location folder, or the API's list, by
 * its location (its title, the id in parentheses), not by a path of ids; Takeout's further pages
 * (reviews-001.json…) by their name too. Undefined for a file named as it is: by that name.
 */
export function exportLabel(scope: ExportScope, name: string, origin: ExportOrigin): string | undefined {
  if (origin === 'file' || !scope.place) return undefined;
  const page = origin === 'takeout' && basename(name).toLowerCase() !== 'reviews.json' ? basename(name) : undefined;
  if (scope.title) return `${scope.title} (${[scope.place, page].filter(Boolean).join(', ')})`;
  return page ? `${scope.place} (${page})` : scope.place;
}

/**
 * Conditional GET (RFC 9110 §13). If-None-Match wins over If-Modified-Since
 * (§13.2.2); If-None-Match uses weak comparison (§13.1.2), so a CDN that weakens
 * our strong ETag after compressing still gets its 304.
 */
export interface Validators {
  etag: string;
  /** An HTTP date (IMF-fixdate), or undefined where the resource has none. */
  lastModified?: string;
}

/**
 * `variantSuffixes` lists suffixes that mark other encodings of the same
 * content (`"abc-gz"`), which match too: the client's copy is the same data.
 */
export function isNotModified(
  headers: { get(name: string): string | null },
  validators: Validators,
  variantSuffixes: readonly string[] = [],
): boolean {
  const ifNoneMatch = headers.get('if-none-match');
  if (ifNoneMatch !== null) return etagListMatches(ifNoneMatch, validators.etag, variantSuffixes);
  const ifModifiedSince = headers.get('if-modified-since');
  if (ifModifiedSince !== null && validators.lastModified) {
    const since = Date.parse(ifModifiedSince);
    const modified = Date.parse(validators.lastModified);
    // An unparseable date is ignored, as §13.1.3 requires.
    if (!Number.isNaN(since) && !Number.isNaN(modified)) return modified <= since;
  }
  return false;
}

function etagListMatches(header: string, etag: string, variantSuffixes: readonly string[]): boolean {
  const trimmed = header.trim();
  if (trimmed === '*') return true;
  const ours = opaque(etag, variantSuffixes);
  return trimmed.split(',').some((candidate) => opaque(candidate.trim(), variantSuffixes) === ours);
}

function opaque(tag: string, variantSuffixes: readonly string[]): string {
  let value = tag.startsWith('W/') ? tag.slice(2) : tag;
  for (const suffix of variantSuffixes) {
    if (value.endsWith(`${suffix}"`)) {
      value = `${value.slice(0, -suffix.length - 1)}"`;
      break;
    }
  }
  return value;
}

/** RFC 3339 instant → IMF-fixdate, as Last-Modified wants it. */
export function httpDate(instant: string): string {
  return new Date(instant).toUTCString();
}

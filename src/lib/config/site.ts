/**
 * The site's public base URL (SITE_URL), used for feeds, WebSub topics and
 * permalinks. It is part of the content of the build: the same content and the
 * same SITE_URL give the same bytes.
 */
export const DEFAULT_SITE_URL = 'http://localhost:4321';

export function siteUrl(env: Record<string, string | undefined> = process.env): string {
  const raw = env.SITE_URL?.trim() || DEFAULT_SITE_URL;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new Error(`SITE_URL must be an absolute http(s) URL, got "${raw}"`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new Error(`SITE_URL must be http or https, got "${raw}"`);
  return url.origin;
}

/** Where the editors' content lives (CONTENT_DIR, default `content/`). */
export function contentDir(env: Record<string, string | undefined> = process.env): string {
  return env.CONTENT_DIR?.trim() || 'content';
}

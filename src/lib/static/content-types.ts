/** Content types of what the build writes, charset included where it is text. */
const BY_EXTENSION: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  // The Atom feed has its own entry below; other XML (the sitemap) is generic.
  '.xml': 'application/xml; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.svg': 'image/svg+xml; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  // The numbers behind the trends charts (RFC 4180 and RFC 7111's header parameter).
  '.csv': 'text/csv; charset=utf-8; header=present',
  // The /admin form's config: Decap CMS reads it as YAML by its type.
  '.yml': 'text/yaml; charset=utf-8',
  '.webmanifest': 'application/manifest+json; charset=utf-8',
  '.ico': 'image/x-icon',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.webp': 'image/webp',
  '.avif': 'image/avif',
  '.woff2': 'font/woff2',
};

/** Paths whose type is not told by the extension alone. */
const BY_PATH: Record<string, string> = {
  '/api/feed.json': 'application/feed+json; charset=utf-8',
  '/feed.xml': 'application/atom+xml; charset=utf-8',
};

export function contentTypeFor(path: string): string {
  if (BY_PATH[path]) return BY_PATH[path];
  const dot = path.lastIndexOf('.');
  return (dot >= 0 && BY_EXTENSION[path.slice(dot).toLowerCase()]) || 'application/octet-stream';
}

export function isCompressible(contentType: string): boolean {
  return /^(text\/|application\/(json|feed\+json|atom\+xml|xml|manifest\+json|javascript)|image\/svg\+xml)/.test(
    contentType,
  );
}

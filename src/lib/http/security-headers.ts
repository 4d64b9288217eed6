/**
 * The headers every answer carries, on the Node server and in the Netlify and
 * Vercel rules alike: no MIME sniffing of what we label, and no full URL of our
 * pages leaking to other origins. The editor (/admin/) may not be framed, so
 * no other site can overlay it and trick a signed-in editor into a click. The
 * public pages stay frameable: the widget is a script, not a frame, but a site
 * showing its reviews page in a frame risks nothing of ours.
 */
const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'strict-origin-when-cross-origin',
};

const NO_FRAMING: Readonly<Record<string, string>> = {
  'x-frame-options': 'DENY',
  'content-security-policy': "frame-ancestors 'none'",
};

/** The security headers for an answer at `path` (canonical). */
export function securityHeadersFor(path: string): Readonly<Record<string, string>> {
  return path === '/admin' || path.startsWith('/admin/') ? { ...SECURITY_HEADERS, ...NO_FRAMING } : SECURITY_HEADERS;
}

/**
 * The embed snippet the owner copies from /widget, from the site's public URL
 * and the attributes chosen there. Used by the page at build time and by its
 * script as the owner changes a setting, so both always print the same text.
 */
import type { WidgetAttribute } from './options.ts';

export type SnippetAttributes = Partial<Record<WidgetAttribute, string>>;

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' };
const escapeAttribute = (value: string) => value.replace(/[&<>"]/g, (c) => ESCAPES[c]!);

/** `site`: the public base URL (SITE_URL), e.g. `https://reviews.example.com`. */
export function widgetSnippet(site: string, attributes: SnippetAttributes = {}): string {
  const home = new URL('/', site).href;
  const widget = new URL('/widget.js', site).href;
  const attrs = Object.entries(attributes)
    .filter(([, value]) => value !== undefined && value !== '')
    .map(([name, value]) => ` ${name}="${escapeAttribute(value!)}"`)
    .join('');
  return [
    `<script type="module" src="${escapeAttribute(widget)}"></script>`,
    `<roofing-reviews${attrs}>`,
    `  <a href="${escapeAttribute(home)}">Read our verified customer reviews</a>`,
    `</roofing-reviews>`,
  ].join('\n');
}

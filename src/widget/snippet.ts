/**
 * The embed snippet the owner copies from /widget, from the site's public URL
 * and the attributes chosen there. Used by the page at build time and by its
 * script as the owner changes a setting, so both always print the same text.
 *
 * Inside the element is the rating as of when the snippet was made, as a
 * link: what visitors without JavaScript and crawlers that read raw HTML see;
 * the widget replaces it with live figures.
 */
import { LABELS, type Locale } from './locales/index.ts';
import { readOptions, type WidgetAttribute } from './options.ts';
import { reservedHeight } from './reserve.ts';

export type SnippetAttributes = Partial<Record<WidgetAttribute, string>>;

/** The figures the fallback states; without them it is a plain link. */
export interface SnippetSummary {
  ratingValue: number;
  reviewCount: number;
}

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' };
const escapeHtml = (value: string) => value.replace(/[&<>"]/g, (c) => ESCAPES[c]!);

function snippetFallbackText(locale: string | undefined, summary?: SnippetSummary): string {
  const known = locale !== undefined && Object.hasOwn(LABELS, locale) ? (locale as Locale) : 'en';
  const labels = LABELS[known];
  if (!summary) return labels.fallback;
  const value = new Intl.NumberFormat(known, { minimumFractionDigits: 1, maximumFractionDigits: 1 });
  return labels.summary(value.format(summary.ratingValue), new Intl.NumberFormat(known).format(summary.reviewCount));
}

/** The element's space, kept from the page's first paint (reserve.ts); none for attributes the widget rejects. */
export function reservation(attributes: SnippetAttributes): string | undefined {
  const read = readOptions({ getAttribute: (name) => attributes[name as WidgetAttribute] ?? null });
  if (!read.ok) return undefined;
  return `display:block;font-size:var(--roofing-reviews-font-size,medium);min-height:${reservedHeight(read.options.layout, read.options.limit)}`;
}

/** `site`: the public base URL (SITE_URL), e.g. `https://reviews.example.com`. */
export function widgetSnippet(site: string, attributes: SnippetAttributes = {}, summary?: SnippetSummary): string {
  const home = new URL('/', site).href;
  const style = reservation(attributes);
  const widget = new URL('/widget.js', site).href;
  const attrs = Object.entries(attributes)
    .filter(([, value]) => value !== undefined && value !== '')
    .map(([name, value]) => ` ${name}="${escapeHtml(value!)}"`)
    .join('');
  return [
    `<script type="module" src="${escapeHtml(widget)}"></script>`,
    `<roofing-reviews${attrs}${style ? ` style="${style}"` : ''}>`,
    `  <a href="${escapeHtml(home)}">${escapeHtml(snippetFallbackText(attributes.locale, summary))}</a>`,
    `</roofing-reviews>`,
  ].join('\n');
}

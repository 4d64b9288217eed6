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
import { reservation, type Reservation } from './reserve.ts';

export type SnippetAttributes = Partial<Record<WidgetAttribute, string>>;

/** The figures the fallback states; without them it is a plain link. */
export interface SnippetSummary {
  ratingValue: number;
  reviewCount: number;
  /** The platform of the business's review link, for the collector's reservation. */
  platform?: string;
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

/** The element's room, kept from the page's first paint (reserve.ts); none for attributes the widget rejects. */
export function snippetReservation(attributes: SnippetAttributes, summary?: SnippetSummary): Reservation | undefined {
  const read = readOptions({ getAttribute: (name) => attributes[name as WidgetAttribute] ?? null });
  if (!read.ok) return undefined;
  const { layout, limit, locale } = read.options;
  return reservation(layout, limit, locale, { reviewCount: summary?.reviewCount, platform: summary?.platform });
}

/** `site`: the public base URL (SITE_URL), e.g. `https://reviews.example.com`. */
export function widgetSnippet(site: string, attributes: SnippetAttributes = {}, summary?: SnippetSummary): string {
  const home = new URL('/', site).href;
  const room = snippetReservation(attributes, summary);
  const widget = new URL('/widget.js', site).href;
  const attrs = Object.entries(attributes)
    .filter(([, value]) => value !== undefined && value !== '')
    .map(([name, value]) => ` ${name}="${escapeHtml(value!)}"`)
    .join('');
  const style = (css: string | undefined) => (css ? ` style="${css}"` : '');
  return [
    `<script type="module" src="${escapeHtml(widget)}"></script>`,
    `<roofing-reviews${attrs}${style(room?.element)}>`,
    `  <a href="${escapeHtml(home)}"${style(room?.link)}>${escapeHtml(snippetFallbackText(attributes.locale, summary))}</a>`,
    `</roofing-reviews>`,
  ].join('\n');
}

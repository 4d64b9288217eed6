/**
 * The widget's three states as DOM: loading (placeholders shaped like the
 * layout at the most its reviews can take), the reviews, and the quiet
 * fallback link. Every piece of data enters as text through h()
 * (dom.ts); hrefs are the site's own links or the business's review link.
 */
import type { SiteLinks } from '../lib/feeds/links.ts';
import type { WidgetReview } from '../lib/widget/dataset.ts';
import { startCarousel } from './carousel.ts';
import type { WidgetData } from './data.ts';
import { h } from './dom.ts';
import { formatsFor, type Formats } from './format.ts';
import type { WidgetOptions } from './options.ts';

const FIVE_STARS = '★★★★★';

/** Stars for a value out of 5: one image to assistive technology, two layers of glyphs to the eye. */
function stars(value: number, label: string, { part }: { part: string }): HTMLElement {
  const fill = h('span', { class: 'fill', 'aria-hidden': 'true' }, FIVE_STARS);
  fill.style.width = `${(Math.min(5, Math.max(0, value)) / 5) * 100}%`;
  return h(
    'span',
    { class: 'stars', role: 'img', 'aria-label': label, part },
    h('span', { 'aria-hidden': 'true' }, FIVE_STARS),
    fill,
  );
}

const bar = () => h('span', { class: 'bar' });

/**
 * A named group, not a region landmark: a page may hold several widgets, and
 * landmarks must be told apart by name (axe: landmark-unique), groups need not.
 */
function box(options: WidgetOptions, label: string, ...children: HTMLElement[]): HTMLElement {
  return h(
    'div',
    {
      class: `box ${options.layout} ${options.theme}`,
      role: 'group',
      part: 'box',
      lang: options.locale,
      'aria-label': label,
    },
    ...children,
  );
}

/** The reviews, then the footer line; while loading, room for `limit` of the longest reviews (styles.ts). */
function body(options: WidgetOptions, list: HTMLElement, foot: HTMLElement): HTMLElement {
  const element = h('div', { class: 'body' }, list, foot);
  element.style.setProperty('--_rows', String(options.layout === 'carousel' ? 1 : options.limit));
  return element;
}

export function renderLoading(options: WidgetOptions): HTMLElement {
  const { labels } = formatsFor(options.locale);
  const hidden = h('p', { class: 'vh' }, labels.loading);
  let content: HTMLElement[];
  if (options.layout === 'badge') content = [h('p', { class: 'row' }, bar(), hidden)];
  else if (options.layout === 'collector') content = [h('p', { class: 'cta ghost' }, bar(), hidden)];
  else {
    // Placeholder cards as high as a card can get (the grid's in its own columns); list and compact reserve theirs in .body.
    const count = options.layout === 'grid' ? options.limit : options.layout === 'carousel' ? 1 : 0;
    const cards = Array.from({ length: count }, () => h('li', { class: 'review ghost' }));
    content = [
      head(
        h('p', { class: 'name' }, bar()),
        h('p', { class: 'rating' }, bar()),
        h('p', { class: 'about clip' }, bar()),
      ),
      ...(options.layout === 'carousel' ? [h('div', { class: 'controls' })] : []),
      body(options, h('ul', { class: 'reviews' }, ...cards), h('p', { class: 'foot' }, bar(), hidden)),
    ];
  }
  const loading = box(options, labels.customerReviews, ...content);
  loading.setAttribute('aria-busy', 'true');
  return loading;
}

function head(...children: HTMLElement[]): HTMLElement {
  return h('div', { class: 'head', part: 'header' }, ...children);
}

function reviewItem(review: WidgetReview, options: WidgetOptions, f: Formats, links: SiteLinks): HTMLElement {
  const { labels } = f;
  const date = h('time', { datetime: review.date, part: 'review-date', class: 'clip' }, f.day(review.date));
  const link = h(
    'a',
    { href: links.review(review.id), part: 'review-link', class: 'end' },
    labels.fullReview,
    h('span', { class: 'vh' }, labels.by(review.author.name)),
  );
  const reviewStars = stars(review.rating, labels.stars(String(review.rating)), { part: 'review-stars' });
  const author = h('span', { class: 'clip', part: 'review-author' }, review.author.name);
  const withTitle = options.layout !== 'compact';
  return h(
    options.layout === 'carousel' ? 'div' : 'li',
    { class: 'review', part: 'review' },
    h('p', { class: 'row' }, reviewStars, date),
    withTitle && review.title ? h('p', { class: 'title clip', part: 'review-title' }, review.title) : null,
    h('p', { class: review.title || !withTitle ? 'text' : 'text untitled', part: 'review-text' }, review.text),
    h('p', { class: 'row' }, author, link),
  );
}

export function renderReviews(data: WidgetData, options: WidgetOptions, links: SiteLinks): HTMLElement {
  const f = formatsFor(options.locale);
  const { labels } = f;
  const rating = f.rating(data.ratingValue);
  const count = f.count(data.reviewCount);
  const label = labels.reviewsOf(data.business.name);
  const ratingStars = stars(data.ratingValue, labels.rated(rating), { part: 'stars' });
  const value = h('span', { class: 'value', part: 'rating', 'aria-hidden': 'true' }, rating);
  const countLink = h('a', { href: links.home, part: 'count' }, labels.reviews(data.reviewCount, count));

  if (options.layout === 'badge') return box(options, label, h('p', { class: 'row' }, ratingStars, value, countLink));
  if (options.layout === 'collector') {
    const write = data.business.write_review!;
    return box(
      options,
      label,
      h(
        'p',
        { class: 'cta' },
        h('a', { href: write.url, part: 'collector', rel: 'noopener' }, labels.reviewUs(write.platform)),
      ),
    );
  }

  const items = data.reviews.map((review) => reviewItem(review, options, f, links));
  const list =
    data.reviews.length > 0
      ? h('ul', { class: 'reviews', part: 'list', role: 'list', 'aria-label': labels.newest }, ...items)
      : h('p', { class: 'muted', part: 'empty' }, labels.empty);
  const header = head(
    h('p', { class: 'name', part: 'name' }, data.business.name),
    h('p', { class: 'rating' }, ratingStars, value, countLink),
    h(
      'p',
      { class: 'about clip' },
      h('a', { href: new URL('/about-reviews', links.home).href, part: 'about' }, labels.aboutReviews),
    ),
  );
  const foot = h('p', { class: 'foot' }, h('a', { href: links.home, part: 'see-all' }, labels.seeAll(count)));
  if (options.layout === 'carousel' && data.reviews.length > 0) {
    const { controls, slides } = startCarousel(items, labels);
    return box(options, label, header, controls, body(options, slides, foot));
  }
  return box(options, label, header, body(options, list, foot));
}

/**
 * The quiet fallback: whatever the owner put inside the element (the
 * snippet's rating and link) through a slot, or the widget's own link when it is empty.
 */
export function renderFallback(links: SiteLinks, options?: WidgetOptions): HTMLElement {
  const { labels } = formatsFor(options?.locale ?? 'en');
  return h('p', { part: 'fallback' }, h('slot', {}, h('a', { href: links.home }, labels.fallback)));
}

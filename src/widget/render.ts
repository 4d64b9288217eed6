/**
 * The widget's three states as DOM: loading (the final height, reserved),
 * the reviews, and the quiet fallback link. Every piece of data enters as
 * text through h() (dom.ts); hrefs are built from the site's own links.
 */
import type { SiteLinks } from '../lib/feeds/links.ts';
import type { Review } from '../lib/reviews/schema.ts';
import type { WidgetData } from './data.ts';
import { h } from './dom.ts';
import { formatDay, formatRating, plural } from './format.ts';
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

/**
 * A named group, not a region landmark: a page may hold several widgets, and
 * landmarks must be told apart by name (axe: landmark-unique), groups need not.
 */
function box(options: WidgetOptions, label: string, ...children: HTMLElement[]): HTMLElement {
  return h(
    'div',
    { class: `box ${options.layout}`, role: 'group', part: 'box', lang: 'en', 'aria-label': label },
    ...children,
  );
}

/** The space of `limit` reviews, whether they came yet or not (see styles.ts). */
function body(options: WidgetOptions, ...children: HTMLElement[]): HTMLElement {
  const element = h('div', { class: 'body' }, ...children);
  element.style.setProperty('--_rows', String(options.limit));
  return element;
}

export function renderLoading(options: WidgetOptions): HTMLElement {
  const loading = box(
    options,
    'Customer reviews',
    h(
      'div',
      { class: 'head', part: 'header' },
      h('p', { class: 'name' }, h('span', { class: 'bar' })),
      h('p', { class: 'row' }, h('span', { class: 'bar' })),
    ),
    body(options, h('p', { class: 'vh' }, 'Loading customer reviews…')),
  );
  loading.setAttribute('aria-busy', 'true');
  return loading;
}

function reviewItem(review: Review, options: WidgetOptions, links: SiteLinks): HTMLElement {
  const date = h('time', { datetime: review.date, part: 'review-date' }, formatDay(review.date));
  const link = h(
    'a',
    { href: links.review(review.id), part: 'review-link', class: 'end' },
    'Full review',
    h('span', { class: 'vh' }, ` by ${review.author.name}`),
  );
  const reviewStars = stars(review.rating, `${review.rating} out of 5 stars`, { part: 'review-stars' });
  const author = h('span', { class: 'clip', part: 'review-author' }, review.author.name);
  const text = (extraLine = false) =>
    h('p', { class: extraLine ? 'text untitled' : 'text', part: 'review-text' }, review.text);
  if (options.layout === 'compact') {
    return h(
      'li',
      { class: 'review', part: 'review' },
      h('p', { class: 'row' }, reviewStars, author, h('span', { class: 'end' }, date)),
      text(),
      h('p', { class: 'row' }, link),
    );
  }
  return h(
    'li',
    { class: 'review', part: 'review' },
    h('p', { class: 'row' }, reviewStars, date),
    // A review without a title gives its line to the text, so every review has the same height.
    review.title ? h('p', { class: 'title clip', part: 'review-title' }, review.title) : null,
    text(!review.title),
    h('p', { class: 'row' }, author, link),
  );
}

export function renderReviews(data: WidgetData, options: WidgetOptions, links: SiteLinks): HTMLElement {
  const rating = formatRating(data.ratingValue);
  const list =
    data.reviews.length > 0
      ? h(
          'ul',
          { class: 'reviews', part: 'list', role: 'list', 'aria-label': 'Newest reviews' },
          ...data.reviews.map((review) => reviewItem(review, options, links)),
        )
      : h('p', { class: 'muted', part: 'empty' }, 'No reviews to show yet.');
  return box(
    options,
    `Customer reviews of ${data.business.name}`,
    h(
      'div',
      { class: 'head', part: 'header' },
      h('p', { class: 'name clip', part: 'name' }, h('span', {}, data.business.name)),
      h(
        'p',
        { class: 'row' },
        stars(data.ratingValue, `Rated ${rating} out of 5`, { part: 'stars' }),
        h('span', { class: 'value', part: 'rating', 'aria-hidden': 'true' }, rating),
        h(
          'a',
          { href: links.home, part: 'count', class: 'clip' },
          plural(data.reviewCount, 'verified review', 'verified reviews'),
        ),
      ),
    ),
    body(options, list),
  );
}

/**
 * The quiet fallback: whatever the owner put inside the element (the
 * snippet's link) through a slot, or the widget's own link when it is empty.
 */
export function renderFallback(links: SiteLinks): HTMLElement {
  return h(
    'p',
    { part: 'fallback' },
    h('slot', {}, h('a', { href: links.home }, 'Read our verified customer reviews')),
  );
}

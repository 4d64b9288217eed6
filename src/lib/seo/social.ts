/**
 * Open Graph and Twitter card tags: what a chat app or social network shows
 * when someone shares a link to the site. Every page's card names the business
 * and its rating; a review's card carries that review's own rating and an
 * excerpt. Made from the dataset alone (no clock), so the same content gives
 * the same bytes. Values are plain text: the page escapes them as attributes.
 */
import { reviewHeading } from '../format/review-heading.ts';
import { displayDate } from '../format/dates.ts';
import type { AggregateRating, Business, Review, ReviewsDataset } from '../reviews/schema.ts';

export interface SocialCard {
  /** og:site_name: the business, on every page. */
  siteName: string;
  title: string;
  description: string;
  /** The page's canonical URL, when it has one (not the 404 page). */
  url?: string;
  type: 'website' | 'article';
  /** article:published_time / modified_time, for a review. */
  published?: string;
  modified?: string;
  /** Label and value pairs shown under the card by unfurlers that read twitter:label1/data1 (Slack). */
  facts: ReadonlyArray<{ label: string; value: string }>;
}

/** One `<meta>`: Open Graph names its key `property`, Twitter `name`. */
export type MetaTag = { property: string; content: string } | { name: string; content: string };

/** Description lengths past which the common unfurlers cut anyway. */
const DESCRIPTION_MAX = 300;
const EXCERPT_MAX = 200;

export function ratingSentence(rating: AggregateRating): string {
  if (rating.review_count === 0) return 'No verified customer reviews are published yet.';
  const reviews = rating.review_count === 1 ? 'review' : 'reviews';
  return `Rated ${rating.rating_value.toFixed(1)} out of 5 from ${rating.review_count} verified customer ${reviews}.`;
}

/** The card of any page of the site: the page's title, and the business's rating first in the description. */
export function siteCard(
  dataset: Pick<ReviewsDataset, 'business' | 'aggregate_rating'>,
  page: { title: string; description?: string; url?: string },
): SocialCard {
  const { business, aggregate_rating: rating } = dataset;
  return {
    siteName: business.name,
    title: page.title,
    description: excerpt(
      [ratingSentence(rating), page.description ?? business.description].filter(Boolean).join(' '),
      DESCRIPTION_MAX,
    ),
    ...(page.url ? { url: page.url } : {}),
    type: 'website',
    facts:
      rating.review_count > 0
        ? [
            { label: 'Rating', value: `${rating.rating_value.toFixed(1)} out of 5` },
            { label: 'Verified reviews', value: String(rating.review_count) },
          ]
        : [],
  };
}

/** A review's own card: its title and stars, who wrote it and the start of what they wrote. */
export function reviewCard(review: Review, business: Business, url: string): SocialCard {
  const title = reviewHeading(review);
  return {
    siteName: business.name,
    title: `${title} (${review.rating} out of 5)`,
    description: `${review.author.name} rated ${business.name} ${review.rating} out of 5 on ${displayDate(review.date)}: ${excerpt(review.text, EXCERPT_MAX)}`,
    url,
    type: 'article',
    published: review.date,
    // The default `updated` is the review's own day: only a later change is a modification.
    ...(review.updated !== `${review.date}T00:00:00Z` ? { modified: review.updated } : {}),
    facts: [
      {
        label: 'Rating',
        value: `${'★'.repeat(review.rating)}${'☆'.repeat(5 - review.rating)} ${review.rating} out of 5`,
      },
      { label: 'Business', value: business.name },
    ],
  };
}

export function socialMetaTags(card: SocialCard): MetaTag[] {
  const tags: MetaTag[] = [
    { property: 'og:type', content: card.type },
    { property: 'og:site_name', content: card.siteName },
    { property: 'og:title', content: card.title },
    { property: 'og:description', content: card.description },
    { property: 'og:locale', content: 'en_US' },
  ];
  if (card.url) tags.push({ property: 'og:url', content: card.url });
  if (card.published) tags.push({ property: 'article:published_time', content: card.published });
  if (card.modified) tags.push({ property: 'article:modified_time', content: card.modified });
  // `summary`, the card without a large image: the site has no picture to show, and
  // summary_large_image without one renders as an empty frame on some networks.
  tags.push(
    { name: 'twitter:card', content: 'summary' },
    { name: 'twitter:title', content: card.title },
    { name: 'twitter:description', content: card.description },
  );
  card.facts.slice(0, 2).forEach((fact, index) => {
    tags.push(
      { name: `twitter:label${index + 1}`, content: fact.label },
      { name: `twitter:data${index + 1}`, content: fact.value },
    );
  });
  return tags;
}

/**
 * The start of a text on one line, cut at a word boundary with an ellipsis when
 * it is longer than `max` characters (code points, so no emoji is split).
 */
export function excerpt(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  const chars = [...flat];
  if (chars.length <= max) return flat;
  const cut = chars.slice(0, max - 1).join('');
  const space = cut.lastIndexOf(' ');
  // A word longer than a third of the room is cut inside rather than dropped whole.
  const head = space > (max * 2) / 3 ? cut.slice(0, space) : cut;
  return `${head.replace(/[\s.,;:!?-]+$/, '')}…`;
}

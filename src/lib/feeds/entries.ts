/**
 * What a feed says about one review, shared by the Atom and JSON Feed writers so
 * both formats carry the same titles, summaries and dates.
 */
import type { Review } from '../reviews/schema.ts';

export const FEED_SIZE = 50;

export function newestForFeed(reviews: readonly Review[]): Review[] {
  // reviews.json is already newest first; the feed is its head.
  return reviews.slice(0, FEED_SIZE);
}

export function entryTitle(review: Review): string {
  const stars = `${review.rating} star${review.rating === 1 ? '' : 's'}`;
  return review.title ? `${review.title} (${stars}, ${review.author.name})` : `${stars} from ${review.author.name}`;
}

export function publishedInstant(review: Review): string {
  return `${review.date}T00:00:00Z`;
}

export function replyText(review: Review): string | null {
  return review.response ? `Reply from the owner (${review.response.date}): ${review.response.text}` : null;
}

/**
 * What heads a review: its title, or, without one, its first words (the
 * author's name is on the next line already). Cut at the end of the first
 * sentence or after HEADING_WORDS words, whichever comes first.
 */
import type { Review } from '../reviews/schema.ts';

const HEADING_WORDS = 8;

export function reviewHeading(review: Pick<Review, 'title' | 'text'>): string {
  if (review.title) return review.title;
  const words = review.text
    .trim()
    .split(/\s+/)
    .slice(0, HEADING_WORDS + 1);
  const heading: string[] = [];
  for (const word of words.slice(0, HEADING_WORDS)) {
    heading.push(word);
    if (/[.!?]["”')]*$/.test(word)) return heading.join(' ').replace(/[.]+$/, '');
  }
  const cut = heading.join(' ').replace(/[,;:.\-–—]+$/, '');
  return words.length > HEADING_WORDS ? `${cut}…` : cut;
}

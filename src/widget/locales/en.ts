/** English: the widget's words. A new language is a copy of this file, translated, listed in index.ts. */
import type { Labels } from './labels.ts';

const en: Labels = {
  customerReviews: 'Customer reviews',
  reviewsOf: (name) => `Customer reviews of ${name}`,
  loading: 'Loading customer reviews…',
  reviews: (count, n) => `${n} ${count === 1 ? 'verified review' : 'verified reviews'}`,
  rated: (value) => `Rated ${value} out of 5`,
  stars: (value) => `${value} out of 5 stars`,
  summary: (value, n) => `★ ${value} from ${n} verified reviews`,
  newest: 'Newest reviews',
  fullReview: 'Full review',
  by: (name) => ` by ${name}`,
  empty: 'No reviews to show yet.',
  seeAll: (n) => `See all ${n} reviews`,
  reviewUs: (platform) => `Review us on ${platform}`,
  fallback: 'Read our verified customer reviews',
  aboutReviews: 'How reviews are verified',
  carousel: 'Newest reviews, one at a time',
  slide: (i, n) => `${i} of ${n}`,
  previous: 'Previous review',
  next: 'Next review',
  pause: 'Stop automatic rotation',
  play: 'Start automatic rotation',
};
export default en;

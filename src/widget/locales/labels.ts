/**
 * The words of one language. Figures arrive already formatted for the
 * locale (`n`, `value`); `count` is the raw number, for choosing a plural.
 */
export interface Labels {
  customerReviews: string;
  reviewsOf: (businessName: string) => string;
  loading: string;
  reviews: (count: number, n: string) => string;
  rated: (value: string) => string;
  stars: (value: string) => string;
  /** The snippet's text fallback: the rating and count as of when it was copied. */
  summary: (value: string, n: string) => string;
  newest: string;
  fullReview: string;
  /** Appended, visually hidden, to "Full review" so each link says whose review it opens. */
  by: (author: string) => string;
  empty: string;
  seeAll: (n: string) => string;
  reviewUs: (platform: string) => string;
  fallback: string;
  /** The header's link to the site's page on how reviews are verified, published and removed. */
  aboutReviews: string;
  carousel: string;
  slide: (index: string, total: string) => string;
  previous: string;
  next: string;
  pause: string;
  play: string;
}

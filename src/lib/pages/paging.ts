/**
 * How the review list is paged (/reviews/page/N): the list pages and the
 * sitemap that names them must agree on the count.
 */
export const REVIEWS_PER_PAGE = 25;

/** Pages of the list: at least one, which says that no review is published yet. */
export function reviewPageCount(reviewCount: number): number {
  return Math.max(1, Math.ceil(reviewCount / REVIEWS_PER_PAGE));
}

/**
 * A review's place in the list the visitor came from (list-context.ts), or in
 * every review newest first: the way back to that list's page, and the
 * previous and next reviews in it.
 */
import type { ReviewIndex } from '../reviews/review-index.ts';
import type { ListContext } from './list-context.ts';
import { REVIEWS_PER_PAGE } from './paging.ts';
import { filtersHref, orderedPositions } from './review-filters.ts';

export interface Neighbours {
  /** The list page holding the review. */
  back: string;
  /** Whether the list is narrowed or re-ordered (the back link then says so). */
  narrowed: boolean;
  previous?: { position: number; context: ListContext };
  next?: { position: number; context: ListContext };
}

/** The list page: static for every review newest first, the filtered list otherwise. */
function listHref(context: ListContext): string {
  return Object.keys(context.filters).length === 0
    ? `/reviews/page/${context.page}`
    : filtersHref(context.filters, context.page);
}

export function neighbours(index: ReviewIndex, position: number, context: ListContext | undefined): Neighbours {
  const at = (place: number, filters: ListContext['filters']) => ({
    filters,
    page: Math.floor(place / REVIEWS_PER_PAGE) + 1,
  });
  if (context && Object.keys(context.filters).length > 0) {
    const ordered = orderedPositions(index, context.filters);
    const place = ordered.indexOf(position);
    if (place >= 0) {
      return {
        back: listHref(at(place, context.filters)),
        narrowed: true,
        ...(place > 0 ? { previous: { position: ordered[place - 1]!, context: at(place - 1, context.filters) } } : {}),
        ...(place + 1 < ordered.length
          ? { next: { position: ordered[place + 1]!, context: at(place + 1, context.filters) } }
          : {}),
      };
    }
  }
  // Every review, newest first: the position is the place.
  return {
    back: listHref(at(position, {})),
    narrowed: false,
    ...(position > 0 ? { previous: { position: position - 1, context: at(position - 1, {}) } } : {}),
    ...(position + 1 < index.length ? { next: { position: position + 1, context: at(position + 1, {}) } } : {}),
  };
}

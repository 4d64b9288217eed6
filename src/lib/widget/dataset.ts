/**
 * widget.json: what an unfiltered widget shows and nothing more (the business's
 * name, services, technicians and review link, the aggregate, the newest
 * reviews with their text cut to what the widget's lines can hold). Its size
 * does not grow with the number of reviews, so a visitor's first view of the
 * owner's page costs the same at 165 reviews as at 100,000.
 */
import { z } from 'zod';
import { aggregateRating, business, review, type ReviewsDataset } from '../reviews/schema.ts';

/** The most reviews one widget shows (its `limit` attribute's maximum). */
const WIDGET_MAX_REVIEWS = 10;

/** More than the widget's longest clamp (five lines of its widest layout) can show; CSS ellipsises the rest. */
const WIDGET_TEXT_CHARS = 360;

const widgetReview = review
  .pick({ id: true, date: true, rating: true, title: true, text: true, author: true })
  .meta({ id: 'WidgetReview' });

export const widgetDataset = z
  .object({
    business: business.pick({ name: true, services: true, technicians: true, write_review: true }),
    aggregate_rating: aggregateRating.pick({ rating_value: true, review_count: true }),
    reviews: z.array(widgetReview).max(WIDGET_MAX_REVIEWS).describe('Newest first, text cut at a word with "…".'),
    updated: z.string(),
  })
  .meta({ id: 'WidgetDataset' });

export type WidgetReview = z.infer<typeof widgetReview>;
export type WidgetDataset = z.infer<typeof widgetDataset>;

/** Cut at the last space within `max` characters (or at `max` when there is none), marked with "…". */
export function cutText(text: string, max = WIDGET_TEXT_CHARS): string {
  if (text.length <= max) return text;
  const head = text.slice(0, max);
  const space = head.lastIndexOf(' ');
  return `${(space > max / 2 ? head.slice(0, space) : head).trimEnd()}…`;
}

export function buildWidgetDataset(dataset: ReviewsDataset): WidgetDataset {
  const { name, services, technicians, write_review } = dataset.business;
  return {
    business: { name, services, technicians, ...(write_review ? { write_review } : {}) },
    aggregate_rating: {
      rating_value: dataset.aggregate_rating.rating_value,
      review_count: dataset.aggregate_rating.review_count,
    },
    reviews: dataset.reviews.slice(0, WIDGET_MAX_REVIEWS).map((r) => ({
      id: r.id,
      date: r.date,
      rating: r.rating,
      ...(r.title ? { title: r.title } : {}),
      text: cutText(r.text),
      author: { name: r.author.name },
    })),
    // Last, like reviews.json's: the static manifest reads it as Last-Modified.
    updated: dataset.updated,
  };
}

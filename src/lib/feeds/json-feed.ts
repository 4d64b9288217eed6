/**
 * JSON Feed 1.1 (https://www.jsonfeed.org/version/1.1/). Written here rather than
 * with the `feed` package, whose 6.0.0 writes version 1.0 and has no `hubs`.
 */
import type { ReviewsDataset } from '../reviews/schema.ts';
import { entryTitle, newestForFeed, publishedInstant, replyText } from './entries.ts';
import { siteLinks } from './links.ts';

export const JSON_FEED_VERSION = 'https://jsonfeed.org/version/1.1';

export function jsonFeed(dataset: ReviewsDataset, site: string) {
  const links = siteLinks(site);
  const { business } = dataset;
  return {
    version: JSON_FEED_VERSION,
    title: `${business.name}: newest verified reviews`,
    home_page_url: links.home,
    feed_url: links.jsonFeed,
    description: `The ${newestForFeed(dataset.reviews).length} newest verified customer reviews of ${business.name}.`,
    language: 'en-US',
    authors: [{ name: business.name, url: business.url }],
    hubs: [{ type: 'WebSub', url: links.hub }],
    items: newestForFeed(dataset.reviews).map((review) => {
      const reply = replyText(review);
      return {
        id: links.reviewTag(review.id, review.date),
        url: links.review(review.id),
        title: entryTitle(review),
        content_text: reply ? `${review.text}\n\n${reply}` : review.text,
        summary: review.text.length > 200 ? `${review.text.slice(0, 197).trimEnd()}…` : review.text,
        date_published: publishedInstant(review),
        date_modified: review.updated,
        authors: [{ name: review.author.name }],
        tags: review.services,
        _review: {
          id: review.id,
          rating: review.rating,
          technicians: review.technicians,
          services: review.services,
          service_area: review.service_area,
          source: review.source,
          ...(review.source_id === undefined ? {} : { source_id: review.source_id }),
          ...(review.source_url === undefined ? {} : { source_url: review.source_url }),
          verification: review.verification,
        },
      };
    }),
  };
}

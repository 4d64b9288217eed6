/**
 * The Atom feed (RFC 4287) through the `feed` package. Review text is plain text
 * that may hold anything, so it is HTML-escaped before it goes into the package's
 * type="html" CDATA sections (which also removes any `]]>`), and characters XML
 * 1.0 forbids are dropped.
 */
import { Feed } from 'feed';
import { sourceName } from '../format/sources.ts';
import type { Review, ReviewsDataset } from '../reviews/schema.ts';
import { entryTitle, newestForFeed, publishedInstant, replyText } from './entries.ts';
import { siteLinks } from './links.ts';

export function atomFeed(dataset: ReviewsDataset, site: string): string {
  const links = siteLinks(site);
  const { business } = dataset;
  const feed = new Feed({
    id: links.atomFeed,
    title: `${business.name}: newest verified reviews`,
    description: `The newest verified customer reviews of ${business.name}.`,
    link: links.home,
    feed: links.atomFeed,
    hub: links.hub,
    language: 'en-US',
    updated: new Date(dataset.updated),
    generator: false,
    author: { name: xmlText(business.name), link: business.url },
    copyright: `Reviews © their authors; published by ${xmlText(business.name)}`,
  });
  for (const review of newestForFeed(dataset.reviews)) {
    feed.addItem({
      id: links.reviewTag(review.id, review.date),
      link: links.review(review.id),
      title: html(entryTitle(review)),
      date: new Date(review.updated),
      published: new Date(publishedInstant(review)),
      content: entryHtml(review),
      author: [{ name: xmlText(review.author.name) }],
      category: review.services.map((id) => ({ name: id, term: id })),
    });
  }
  return `${feed.atom1()}\n`;
}

function entryHtml(review: Review): string {
  const paragraphs = review.text.split(/\n{2,}/).map((p) => `<p>${html(p)}</p>`);
  const stars = `<p>Rating: ${review.rating} of 5</p>`;
  const reply = replyText(review);
  return [
    stars,
    ...paragraphs,
    ...(reply ? [`<blockquote><p>${html(reply)}</p></blockquote>`] : []),
    ...provenance(review),
  ].join('');
}

/** An imported review says where it was first posted, as its page does. */
function provenance(review: Review): string[] {
  if (review.source_id === undefined) return [];
  const name = html(sourceName(review.source));
  return [
    `<p>Originally posted on ${review.source_url ? `<a href="${html(review.source_url)}">${name}</a>` : name}</p>`,
  ];
}

const XML_FORBIDDEN =
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

function xmlText(value: string): string {
  return value.replace(XML_FORBIDDEN, '');
}

function html(value: string): string {
  return xmlText(value).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

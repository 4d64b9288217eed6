/**
 * schema.org structured data: the business as a RoofingContractor (a
 * LocalBusiness) with its address, geo, telephone, hours and profiles, plus its
 * AggregateRating and reviews, for the home page; one Review with the business
 * as its itemReviewed for a review's own page. Both name the business by the
 * same `@id`, so a crawler joins them into one entity.
 *
 * The rating and review nodes stay although Google shows no stars for them:
 * reviews of a LocalBusiness on its own site are "self-serving" in its
 * review-snippet guidelines, so not eligible for a review snippet, and Google
 * says they need not be removed. They describe what the page shows, which any
 * other reader of schema.org may use; docs/structured-data.md says what a
 * search engine does and does not show.
 */
import type { ReviewLeaf, RoofingContractorLeaf, WithContext } from 'schema-dts';
import type { Business, Review, ReviewsDataset } from '../reviews/schema.ts';

/*
 * Typed with schema-dts, so a misspelt or misplaced property fails `tsc`.
 * Optional properties are written as `value || undefined` in their place:
 * JSON.stringify leaves an undefined property out, so the key order and the
 * bytes are what they would be with the property absent.
 */

/** What identifies the business wherever it appears: enough for a reader of one review's page alone. */
function businessIdentity(business: Business) {
  return {
    '@type': 'RoofingContractor',
    // The node id: the business's own site's URL, not ours, so it stays put if this site moves.
    '@id': `${business.url}#business`,
    name: business.name,
    url: business.url,
    telephone: business.telephone,
    address: {
      '@type': 'PostalAddress',
      streetAddress: business.address.street,
      addressLocality: business.address.locality,
      addressRegion: business.address.region,
      postalCode: business.address.postal_code,
      addressCountry: business.address.country,
    },
  } satisfies RoofingContractorLeaf;
}

function reviewNode(review: Review, url: string) {
  return {
    '@type': 'Review',
    url,
    datePublished: review.date,
    name: review.title || undefined,
    reviewBody: review.text,
    author: { '@type': 'Person', name: review.author.name },
    reviewRating: { '@type': 'Rating', ratingValue: review.rating, bestRating: 5, worstRating: 1 },
  } satisfies ReviewLeaf;
}

export function businessJsonLd(
  dataset: ReviewsDataset,
  reviews: readonly Review[],
  reviewUrl: (id: string) => string,
): WithContext<RoofingContractorLeaf> {
  const { business, aggregate_rating: rating } = dataset;
  const { address, ...identity } = businessIdentity(business);
  return {
    '@context': 'https://schema.org',
    ...identity,
    description: business.description || undefined,
    email: business.email,
    address,
    geo: business.geo
      ? { '@type': 'GeoCoordinates', latitude: business.geo.latitude, longitude: business.geo.longitude }
      : undefined,
    openingHoursSpecification: business.opening_hours?.length
      ? business.opening_hours.map((hours) => ({
          '@type': 'OpeningHoursSpecification',
          dayOfWeek: hours.days,
          opens: hours.opens,
          closes: hours.closes,
        }))
      : undefined,
    sameAs: business.profiles?.length ? business.profiles : undefined,
    foundingDate: business.founded || undefined,
    areaServed: business.service_areas.map((area) => ({ '@type': 'City', name: area.name })),
    makesOffer: business.services.map((service) => ({
      '@type': 'Offer',
      itemOffered: { '@type': 'Service', name: service.name },
    })),
    aggregateRating:
      rating.review_count > 0
        ? {
            '@type': 'AggregateRating',
            ratingValue: rating.rating_value,
            reviewCount: rating.review_count,
            bestRating: rating.best_rating,
            worstRating: rating.worst_rating,
          }
        : undefined,
    review: reviews.map((review) => reviewNode(review, reviewUrl(review.id))),
  };
}

/**
 * One review's page: the Review itself, with the business it is about. The
 * business's reply is left out: schema.org has no property for an owner's answer
 * to a review, and a `comment` would read as another customer's.
 */
export function reviewJsonLd(review: Review, business: Business, url: string): WithContext<ReviewLeaf> {
  return {
    '@context': 'https://schema.org',
    ...reviewNode(review, url),
    '@id': url,
    // `updated` defaults to the review's own day at midnight: only a later change is a modification.
    dateModified: review.updated !== `${review.date}T00:00:00Z` ? review.updated : undefined,
    itemReviewed: businessIdentity(business),
  };
}

/**
 * JSON for inside a <script> element. Review text is untrusted: `<`, `>` and
 * `&` become \u escapes so no text (`</script>`, `<!--`) can end the element or
 * change how the HTML parser reads it; U+2028/2029 are escaped for old parsers.
 */
export function scriptSafeJson(value: unknown): string {
  return JSON.stringify(value).replace(
    /[<>&\u2028\u2029]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

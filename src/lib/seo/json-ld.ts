/**
 * schema.org structured data for the home page: the business as a
 * RoofingContractor (a LocalBusiness) with its AggregateRating and reviews.
 */
import type { Review, ReviewsDataset } from '../reviews/schema.ts';

export function businessJsonLd(dataset: ReviewsDataset, reviews: readonly Review[], reviewUrl: (id: string) => string) {
  const { business, aggregate_rating: rating } = dataset;
  return {
    '@context': 'https://schema.org',
    '@type': 'RoofingContractor',
    '@id': `${business.url}#business`,
    name: business.name,
    ...(business.description ? { description: business.description } : {}),
    url: business.url,
    telephone: business.telephone,
    email: business.email,
    address: {
      '@type': 'PostalAddress',
      streetAddress: business.address.street,
      addressLocality: business.address.locality,
      addressRegion: business.address.region,
      postalCode: business.address.postal_code,
      addressCountry: business.address.country,
    },
    ...(business.geo ? { geo: { '@type': 'GeoCoordinates', latitude: business.geo.latitude, longitude: business.geo.longitude } } : {}),
    ...(business.founded ? { foundingDate: business.founded } : {}),
    areaServed: business.service_areas.map((area) => ({ '@type': 'City', name: area.name })),
    makesOffer: business.services.map((service) => ({ '@type': 'Offer', itemOffered: { '@type': 'Service', name: service.name } })),
    ...(rating.review_count > 0
      ? {
          aggregateRating: {
            '@type': 'AggregateRating',
            ratingValue: rating.rating_value,
            reviewCount: rating.review_count,
            bestRating: rating.best_rating,
            worstRating: rating.worst_rating,
          },
        }
      : {}),
    review: reviews.map((review) => ({
      '@type': 'Review',
      url: reviewUrl(review.id),
      datePublished: review.date,
      ...(review.title ? { name: review.title } : {}),
      reviewBody: review.text,
      author: { '@type': 'Person', name: review.author.name },
      reviewRating: { '@type': 'Rating', ratingValue: review.rating, bestRating: 5, worstRating: 1 },
    })),
  };
}

/**
 * JSON for inside a <script> element. Review text is untrusted: `<`, `>` and
 * `&` become \u escapes so no text (`</script>`, `<!--`) can end the element or
 * change how the HTML parser reads it; U+2028/2029 are escaped for old parsers.
 */
export function scriptSafeJson(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

/**
 * The home page's JSON-LD over HTTP, as a crawler reads it: one block that
 * parses, the business as a RoofingContractor with what business.yaml sets
 * (address, geo, telephone, hours, profiles) and nothing it leaves out, no raw
 * `<` or `>` whatever the reviews hold.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startServer, type RunningServer } from '../helpers/server.ts';
import type { ReviewsDataset } from '../../src/lib/reviews/schema.ts';

let content: RunningServer;
let small: RunningServer;

before(async () => {
  [content, small] = await Promise.all([startServer('content'), startServer('small')]);
});
after(() => Promise.all([content?.stop(), small?.stop()]));

/** Each JSON-LD block's text as served: every `<` inside one is a \u escape, so the first `</script>` ends it. */
function jsonLdTexts(html: string): string[] {
  return [...html.matchAll(/<script type="application\/ld\+json">(.*?)<\/script>/gs)].map(
    (match) => match[1] as string,
  );
}

async function home(server: RunningServer) {
  const [html, dataset] = await Promise.all([
    fetch(`${server.url}/`).then((r) => r.text()),
    fetch(`${server.url}/reviews.json`).then((r) => r.json() as Promise<ReviewsDataset>),
  ]);
  const texts = jsonLdTexts(html);
  assert.equal(texts.length, 1, 'one JSON-LD block');
  return { html, text: texts[0]!, ld: JSON.parse(texts[0]!), dataset };
}

describe('home page JSON-LD', () => {
  it('describes the business as a RoofingContractor with address, geo, telephone, hours and sameAs profiles', async () => {
    const { ld, dataset } = await home(small);
    const { business } = dataset;
    assert.equal(ld['@context'], 'https://schema.org');
    assert.equal(ld['@type'], 'RoofingContractor');
    assert.equal(ld['@id'], `${business.url}#business`);
    assert.equal(ld.name, business.name);
    assert.equal(ld.telephone, business.telephone);
    assert.deepEqual(ld.address, {
      '@type': 'PostalAddress',
      streetAddress: business.address.street,
      addressLocality: business.address.locality,
      addressRegion: business.address.region,
      postalCode: business.address.postal_code,
      addressCountry: business.address.country,
    });
    assert.deepEqual(ld.geo, {
      '@type': 'GeoCoordinates',
      latitude: business.geo!.latitude,
      longitude: business.geo!.longitude,
    });
    assert.deepEqual(ld.openingHoursSpecification, [
      {
        '@type': 'OpeningHoursSpecification',
        dayOfWeek: ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday'],
        opens: '07:00',
        closes: '17:00',
      },
      { '@type': 'OpeningHoursSpecification', dayOfWeek: ['Saturday'], opens: '08:00', closes: '12:00' },
    ]);
    assert.deepEqual(ld.sameAs, business.profiles);
    assert.ok(ld.sameAs.length > 0, 'the fixture sets profiles');
  });

  it('shows the hours and profiles it marks up on the page itself', async () => {
    const { html, dataset } = await home(small);
    assert.match(html, /Monday–Friday 07:00–17:00/);
    assert.match(html, /Saturday 08:00–12:00/);
    for (const url of dataset.business.profiles!) assert.ok(html.includes(`href="${url}"`), url);
  });

  it('leaves out what business.yaml does not set', async () => {
    const { ld, dataset } = await home(content);
    assert.equal(dataset.business.profiles, undefined, 'the sample content sets no profiles');
    assert.equal('sameAs' in ld, false);
    assert.equal(ld['@type'], 'RoofingContractor');
  });

  it('keeps the rating and reviews it shows, as data, with hostile review text escaped', async () => {
    const { text, ld, dataset } = await home(small);
    assert.equal(ld.aggregateRating['@type'], 'AggregateRating');
    assert.equal(ld.aggregateRating.reviewCount, dataset.aggregate_rating.review_count);
    assert.doesNotMatch(text, /[<>]/, 'no raw < or > inside the script element');
    assert.match(text, /\\u003c\/script\\u003e\\u003cscript\\u003e/);
    const hostile = ld.review.find((r: { reviewBody: string }) => r.reviewBody.includes('__pwned'));
    assert.equal(hostile.reviewBody, dataset.reviews.find((r) => r.id === '2025-06-02-hostile-text')!.text);
  });
});

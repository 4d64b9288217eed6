/**
 * Exports written as the platforms document them (Google Business Profile API
 * v4 Review resources, in a reviews.list page or Takeout's reviews.json;
 * Trustpilot's review objects and CSV), for the import tests.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

export interface GoogleReview {
  name: string;
  reviewId: string;
  reviewer: { displayName?: string; profilePhotoUrl?: string; isAnonymous?: boolean };
  starRating: string;
  comment?: string;
  createTime: string;
  updateTime: string;
  reviewReply?: { comment: string; updateTime: string };
}

const STARS = ['ONE', 'TWO', 'THREE', 'FOUR', 'FIVE'];

export function googleReview(
  account: string,
  location: string,
  id: string,
  fields: Partial<GoogleReview> & { stars?: number } = {},
): GoogleReview {
  const { stars = 5, ...rest } = fields;
  return {
    name: `accounts/${account}/locations/${location}/reviews/${id}`,
    reviewId: id,
    reviewer: {
      displayName: 'Customer',
      profilePhotoUrl: 'https://lh3.googleusercontent.com/a/photo',
      isAnonymous: false,
    },
    starRating: STARS[stars - 1]!,
    comment: 'Good work.',
    createTime: '2025-06-01T16:04:05.123456Z',
    updateTime: '2025-06-01T16:04:05.123456Z',
    ...rest,
  };
}

/** Google Takeout: one reviews.json per location, under account-<id>/location-<id>/. */
export function writeTakeout(root: string, locations: Record<string, GoogleReview[]>, account = '1045'): string[] {
  return Object.entries(locations).map(([location, reviews]) => {
    const file = `${root}/Google Business Profile/account-${account}/location-${location}/reviews.json`;
    writeJson(file, { reviews });
    return file;
  });
}

/** One page of accounts.locations.reviews.list. */
export function googleListPage(reviews: GoogleReview[], extra: Record<string, unknown> = {}) {
  const rated = reviews.map((r) => STARS.indexOf(r.starRating) + 1).filter((n) => n > 0);
  return {
    reviews,
    averageRating: rated.reduce((a, b) => a + b, 0) / Math.max(1, rated.length),
    totalReviewCount: reviews.length,
    ...extra,
  };
}

export function trustpilotReview(id: string, fields: Record<string, unknown> = {}) {
  return {
    id,
    consumer: { id: `c-${id}`, displayName: 'Customer', displayLocation: 'Portland, OR', numberOfReviews: 1 },
    businessUnit: { id: 'bu-1', identifyingName: 'cedarridgeroofing.example', displayName: 'Cedar Ridge Roofing' },
    stars: 5,
    title: 'Great',
    text: 'Good work.',
    language: 'en',
    createdAt: '2025-06-01T16:04:05Z',
    updatedAt: null,
    companyReply: null,
    isVerified: true,
    status: 'active',
    ...fields,
  };
}

/** A CSV file from rows of cells, quoted where RFC 4180 needs it. */
export function writeCsv(file: string, header: string[], rows: Array<Array<string | number>>): string {
  const cell = (value: string | number) =>
    /[",\r\n]/.test(String(value)) ? `"${String(value).replace(/"/g, '""')}"` : String(value);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, [header, ...rows].map((row) => row.map(cell).join(',')).join('\r\n') + '\r\n');
  return file;
}

export function writeJson(file: string, value: unknown): string {
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, `${JSON.stringify(value, null, 2)}\n`);
  return file;
}

/** `count` Google reviews, deterministic: names, stars, replies and text vary with the index. */
export function manyGoogleReviews(count: number, location = '1'): GoogleReview[] {
  const firsts = ['Ana', 'Ben', 'Chloé', 'Dmitri', 'Eve', 'Farah', 'Gus', 'Hana', 'Ivan', 'Jo'];
  const texts = [
    'Dave Kowalski and his crew replaced our roof in Tigard. Tidy and on time.',
    'Maria came out for an inspection and found the leak by the chimney.',
    'The new gutters are great, Tommy was careful with the flower beds.',
    'Skylight installed in a day, no drips since.',
    'They were late twice and the cleanup was poor.',
  ];
  return Array.from({ length: count }, (_, i) => {
    const day = new Date(Date.UTC(2020, 0, 1) + (i % 2000) * 86_400_000).toISOString().slice(0, 10);
    return googleReview('1045', location, `g${location}-${i}`, {
      stars: (i % 5) + 1,
      reviewer: { displayName: `${firsts[i % 10]} ${String.fromCharCode(65 + (i % 26))}.` },
      comment: `${texts[i % texts.length]} (#${i})`,
      createTime: `${day}T15:00:00Z`,
      updateTime: `${day}T15:00:00Z`,
      ...(i % 3 === 0
        ? { reviewReply: { comment: `Thank you, ${firsts[i % 10]}!`, updateTime: `${day}T18:30:00Z` } }
        : {}),
    });
  });
}

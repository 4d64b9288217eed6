/**
 * Google Business Profile reviews: the API's `accounts.locations.reviews.list`
 * response (`{ reviews, averageRating, totalReviewCount, nextPageToken }`) and
 * Google Takeout's per-location `reviews.json` (`{ reviews }`) hold the same
 * Review resources (API v4):
 *
 *   { name: "accounts/{a}/locations/{l}/reviews/{id}", reviewId,
 *     reviewer: { displayName, profilePhotoUrl, isAnonymous },
 *     starRating: "ONE" … "FIVE" | "STAR_RATING_UNSPECIFIED",
 *     comment, createTime, updateTime, reviewReply: { comment, updateTime } }
 *
 * Google publishes no address of a single review, so these reviews have no source_url.
 */
import {
  firstRecord,
  isObject,
  NO_TEXT,
  optionalString,
  personName,
  parseRecords,
  requiredString,
  type RecordReader,
} from './fields.ts';
import { listIdentities } from './memory.ts';
import type { ExportLocation, ImportedReview, ParsedExport } from './types.ts';
import { calendarDate, latestInstant, plainText, utcInstant, ValueError } from './values.ts';

const STARS: Readonly<Record<string, number>> = { ONE: 1, TWO: 2, THREE: 3, FOUR: 4, FIVE: 5 };

/** Review-file field → Google's field. */
const GOOGLE_FIELDS = {
  date: 'createTime',
  updated: 'updateTime',
  rating: 'starRating',
  text: 'comment',
  author: 'reviewer.displayName',
  source_id: 'reviewId',
  response: 'reviewReply',
  'response.date': 'reviewReply.updateTime',
  'response.text': 'reviewReply.comment',
} as const;

/** Whether a parsed JSON document looks like a reviews.list response or a Takeout reviews.json. */
export function isGoogleExport(json: unknown): boolean {
  const first = firstRecord(json);
  if (first)
    return (
      'starRating' in first || 'reviewId' in first || (typeof first.name === 'string' && /\/reviews\//.test(first.name))
    );
  // An API page of a location with no reviews: only the figures.
  return (
    isObject(json) &&
    ('totalReviewCount' in json || 'averageRating' in json) &&
    !('reviews' in json && !Array.isArray(json.reviews))
  );
}

/**
 * `where`: the location as the export's folder or the API request names it, with its title when
 * Takeout gives one (`additionalData.json`); the reviews' own names say it first.
 */
export function parseGoogle(file: string, json: unknown, where?: Partial<ExportLocation>): ParsedExport {
  const list = isObject(json) ? (json.reviews ?? []) : json;
  const parsed = parseRecords(file, 'google', GOOGLE_FIELDS, list, readReview);
  const named = Array.isArray(list)
    ? list.map((item) => (isObject(item) ? locationOf(item.name) : undefined)).find(Boolean)
    : undefined;
  const id = named ?? locationOf(where?.id);
  const title = where?.title && (!where.id || locationOf(where.id) === id) ? where.title : undefined;
  return {
    ...parsed,
    keys: listIdentities(
      list,
      (item) => item.reviewId ?? (typeof item.name === 'string' ? item.name.split('/').at(-1) : undefined),
    ),
    ...(id ? { location: { id, ...(title ? { title } : {}) } } : {}),
    ...(isObject(json) && typeof json.nextPageToken === 'string' && json.nextPageToken !== '' ? { partial: true } : {}),
  };
}

/**
 * A location as `locations/<id>`, from a review's resource name (`accounts/1/locations/2/reviews/3`)
 * or a location's (`accounts/1/locations/2`): the location id alone names it, whichever account
 * manages it.
 */
function locationOf(name: unknown): string | undefined {
  if (typeof name !== 'string') return undefined;
  const match = /(?:^|\/)locations\/([^/\s]+)(?:\/|$)/.exec(name);
  return match ? `locations/${match[1]}` : undefined;
}

/**
 * A location's title in Takeout's `additionalData.json` (beside its reviews.json): the
 * `LISTING_NAME` attribute, `{ attributes: [{ id: { attributeType }, values: [{ datum: { listingName: { text } } }] }] }`.
 */
export function takeoutTitle(json: unknown): string | undefined {
  const attributes = isObject(json) && Array.isArray(json.attributes) ? json.attributes : [];
  for (const attribute of attributes) {
    if (!isObject(attribute) || !isObject(attribute.id) || attribute.id.attributeType !== 'LISTING_NAME') continue;
    for (const value of Array.isArray(attribute.values) ? attribute.values : []) {
      const text =
        isObject(value) && isObject(value.datum) && isObject(value.datum.listingName)
          ? value.datum.listingName.text
          : undefined;
      const title =
        typeof text === 'string' ? optionalString(text.replace(/[\u0000-\u001f\u007f-\u009f\s]+/g, ' ')) : undefined;
      if (title) return title.slice(0, 120);
    }
  }
  return undefined;
}

/** Whether a parsed JSON document is Takeout's `additionalData.json` of a location (not reviews). */
export function isTakeoutLocationData(json: unknown): boolean {
  return isObject(json) && Array.isArray(json.attributes) && !('reviews' in json);
}

function readReview(reader: RecordReader, item: Record<string, unknown>): ImportedReview | string | undefined {
  const id = reader.read(
    'reviewId',
    item.reviewId ?? (typeof item.name === 'string' ? item.name.split('/').at(-1) : undefined),
    requiredString('missing: the review has neither reviewId nor name'),
  );
  const rating = reader.read('starRating', item.starRating, (value) => {
    if (typeof value === 'string' && STARS[value] !== undefined) return STARS[value];
    if (value === undefined || value === 'STAR_RATING_UNSPECIFIED')
      throw new ValueError('no star rating (STAR_RATING_UNSPECIFIED): a review without stars cannot be published here');
    throw new ValueError(`"${String(value)}" is not a star rating (ONE … FIVE)`);
  });
  const created = reader.read('createTime', item.createTime, utcInstant);
  const changed = item.updateTime === undefined ? undefined : reader.read('updateTime', item.updateTime, utcInstant);
  const comment = reader.read('comment', item.comment, plainText);
  const text = comment === undefined ? undefined : customersWords(comment);
  const reviewer = isObject(item.reviewer) ? item.reviewer : {};
  const name = reader.read('reviewer.displayName', reviewer.displayName, personName);
  // An anonymous reviewer is shown by Google as "A Google User".
  const author = name ?? 'A Google user';
  let response: ImportedReview['response'] = null;
  let replyTime: string | undefined;
  if (item.reviewReply !== undefined && item.reviewReply !== null) {
    const reply = isObject(item.reviewReply) ? item.reviewReply : {};
    const replyText = reader.read('reviewReply.comment', reply.comment, plainText);
    replyTime = reader.read('reviewReply.updateTime', reply.updateTime, utcInstant);
    if (replyText && replyTime) response = { date: calendarDate(replyTime), text: replyText };
    else if (replyText === '') reader.problem('reviewReply.comment', 'the reply has no text');
  }
  if (
    reader.problems.length > 0 ||
    id === undefined ||
    rating === undefined ||
    created === undefined ||
    text === undefined
  )
    return undefined;
  if (text === '') return NO_TEXT;
  // The last change the readers saw: the review's own edit or the reply, whichever is later.
  const updated = latestInstant(created, changed, replyTime)!;
  return {
    source: 'google',
    source_id: id,
    date: created.slice(0, 10),
    updated,
    rating,
    text,
    author,
    response,
    at: reader.at,
  };
}

/**
 * The customer's own words of a comment Google translated: Google sends
 * "(Translated by Google) <translation>\n\n(Original)\n<original>", or the
 * original first and "(Translated by Google) <translation>" after it. The
 * translation is Google's, not the customer's, so it is dropped.
 */
function customersWords(comment: string): string {
  const original = /^\(Translated by Google\)[\s\S]*?\n\s*\(Original\)\s*\n?([\s\S]+)$/.exec(comment);
  if (original) return original[1]!.trim();
  const before = /^([\s\S]+?)\n\s*\(Translated by Google\)[\s\S]*$/.exec(comment);
  if (before) return before[1]!.trim();
  return comment;
}

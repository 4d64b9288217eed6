/**
 * Trustpilot service reviews as its business API and JSON exports give them:
 * `{ reviews: [ { id, stars, title, text, language, createdAt, updatedAt,
 * consumer: { displayName }, companyReply: { text, createdAt, updatedAt },
 * status } ] }` (or the list alone). Instants without a zone are UTC, as
 * Trustpilot writes them. Every review has a public page: source_url.
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
import type { ImportedReview, ParsedExport } from './types.ts';
import { calendarDate, latestInstant, plainText, starRating, utcInstant } from './values.ts';

const TRUSTPILOT_FIELDS = {
  date: 'createdAt',
  updated: 'updatedAt',
  rating: 'stars',
  title: 'title',
  text: 'text',
  author: 'consumer.displayName',
  source_id: 'id',
  source_url: 'id',
  response: 'companyReply',
  'response.date': 'companyReply.createdAt',
  'response.text': 'companyReply.text',
} as const;

/** The public page of a Trustpilot review. */
export function trustpilotReviewUrl(id: string): string {
  return `https://www.trustpilot.com/reviews/${encodeURIComponent(id)}`;
}

export function isTrustpilotExport(json: unknown): boolean {
  const first = firstRecord(json);
  return first !== undefined && 'stars' in first && ('consumer' in first || 'createdAt' in first);
}

export function parseTrustpilotJson(file: string, json: unknown): ParsedExport {
  const list = isObject(json) ? json.reviews : json;
  return {
    ...parseRecords(file, 'trustpilot-json', TRUSTPILOT_FIELDS, list, readReview),
    keys: listIdentities(list, (item) => item.id),
  };
}

function readReview(reader: RecordReader, item: Record<string, unknown>): ImportedReview | string | undefined {
  if (typeof item.status === 'string' && item.status !== 'active')
    return `status "${item.status}" on Trustpilot: not published there`;
  const id = reader.read('id', item.id, requiredString('missing: every Trustpilot review has an id'));
  const rating = reader.read('stars', item.stars, starRating);
  const created = reader.read('createdAt', item.createdAt, utcInstant);
  const changed = item.updatedAt == null ? undefined : reader.read('updatedAt', item.updatedAt, utcInstant);
  const title = reader.read('title', item.title, (value) => optionalString(plainText(value)));
  const text = reader.read('text', item.text, plainText);
  const consumer = isObject(item.consumer) ? item.consumer : {};
  const author = reader.read('consumer.displayName', consumer.displayName, personName) ?? 'A Trustpilot user';
  let response: ImportedReview['response'] = null;
  let replyChanged: string | undefined;
  if (item.companyReply != null) {
    const reply = isObject(item.companyReply) ? item.companyReply : {};
    const replyText = reader.read('companyReply.text', reply.text, plainText);
    const replyCreated = reader.read('companyReply.createdAt', reply.createdAt ?? reply.updatedAt, utcInstant);
    replyChanged =
      reply.updatedAt == null ? replyCreated : reader.read('companyReply.updatedAt', reply.updatedAt, utcInstant);
    if (replyText && replyCreated) response = { date: calendarDate(replyCreated), text: replyText };
    else if (replyText === '') reader.problem('companyReply.text', 'the reply has no text');
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
  return {
    source: 'trustpilot',
    source_id: id,
    source_url: trustpilotReviewUrl(id),
    date: created.slice(0, 10),
    updated: latestInstant(created, changed, replyChanged)!,
    rating,
    title,
    text,
    author,
    response,
    at: reader.at,
  };
}

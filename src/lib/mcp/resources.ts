/**
 * The resources of /mcp: the two datasets and one review by id (a template).
 * Every URI is also the address of the same JSON on the web, which is where a
 * client fetches a dataset too large for one MCP answer (see budget.ts).
 */
import { recordsOf } from '../reviews/review-index.ts';
import {
  UNTRUSTED_TEXT,
  type McpContext,
  type ResourceDefinition,
  type ResourceTemplateDefinition,
} from './definitions.ts';

export interface Resource {
  definition: ResourceDefinition;
  /** The resource's JSON text. */
  text(): string;
  /** Its size in bytes, when known without making the text. */
  size?(): number;
}

export function resourcesFor(context: McpContext): Resource[] {
  const { content, links } = context;
  const records = () => recordsOf(content.dataset);
  // Measured on first use (only the number is kept): a read refused for its size makes no text.
  let datasetBytes: number | undefined;
  const resources: Resource[] = [
    {
      definition: {
        name: 'reviews.json',
        uri: links.reviewsJson,
        title: 'All reviews',
        description:
          'The full dataset: business, aggregate rating and every review, newest first. Too large for one MCP answer on a big ' +
          `dataset: the read then fails with the URL to fetch it from. ${UNTRUSTED_TEXT}`,
        mimeType: 'application/json',
      },
      text: () => records().datasetJson(),
      size: () => (datasetBytes ??= Buffer.byteLength(records().datasetJson())),
    },
  ];
  const insights = content.insights;
  if (insights) {
    resources.push({
      definition: {
        name: 'insights.json',
        uri: links.insightsJson,
        title: 'Insights',
        description: `Aspect sentiment, entities, topics, FAQ and summary, with example sentences quoted from reviews. ${UNTRUSTED_TEXT}`,
        mimeType: 'application/json',
      },
      text: () => JSON.stringify(insights),
    });
  }
  const moderation = content.moderation;
  if (moderation) {
    resources.push({
      definition: {
        name: 'moderation.json',
        uri: links.moderationJson,
        title: 'Moderation log',
        description:
          'Every review taken down (id, rating, day, reason from a fixed list; never its text or author) and the counts: ' +
          'published reviews by verification method, removals by reason and by rating. How reviews are handled: /about-reviews.',
        mimeType: 'application/json',
      },
      text: () => JSON.stringify(moderation),
    });
  }
  return resources;
}

export function reviewTemplate(context: McpContext): ResourceTemplateDefinition {
  return {
    name: 'review',
    uriTemplate: `${context.links.home}reviews/{id}.json`,
    title: 'One review',
    description: `One review by id, as JSON (the record of reviews.json). ${UNTRUSTED_TEXT}`,
    mimeType: 'application/json',
  };
}

/** The JSON of the review a `{home}reviews/{id}.json` URI names; undefined for any other URI or an unknown id. */
export function readReviewUri(context: McpContext, uri: string): string | undefined {
  const prefix = `${context.links.home}reviews/`;
  if (!uri.startsWith(prefix) || !uri.endsWith('.json')) return undefined;
  const encoded = uri.slice(prefix.length, -'.json'.length);
  if (encoded === '' || /[/?#]/.test(encoded)) return undefined;
  let id: string;
  try {
    id = decodeURIComponent(encoded);
  } catch {
    return undefined;
  }
  const index = context.index();
  const position = index.byId(id);
  return position === undefined ? undefined : new TextDecoder().decode(index.records.json(position));
}

/**
 * The one table of what the MCP server offers: read-only tools and resources
 * over the same dataset, index and query schema as the REST endpoints, so a
 * model and an HTTP client get the same reviews for the same question.
 *
 * Built once per process (definitions, JSON Schemas, instructions), and free
 * of any SDK: the 2025-era server (legacy-server.ts, SDK v1) and the
 * 2026-07-28 server (modern-server.ts, SDK v2) both answer from it, so every
 * protocol revision sees the same tools, descriptions, schemas and answers.
 *
 * Arguments are validated here, not by an SDK: a bad call answers a tool
 * result with `isError: true` whose text is the REST API's 400 body
 * (`{ "error": "invalid_request", "issues": [...] }`, each issue naming its
 * parameter), so a model can correct itself the same way an HTTP client does.
 */
import { z } from 'zod';
import { siteLinks } from '../feeds/links.ts';
import { boundIssues, validate } from '../http/issues.ts';
import { getReviewIndex, recordsOf, type DatasetSource } from '../reviews/review-index.ts';
import { searchQuery, sinceDate, type SearchQuery } from '../reviews/query.ts';
import { searchResponse, sinceResponse } from '../reviews/responses.ts';
import { aggregateRating, business, review } from '../reviews/schema.ts';
import { searchReviews } from '../reviews/search.ts';
import { reviewsSince, SINCE_PAGE_SIZE } from '../reviews/since.ts';
import { toolJsonSchema } from './json-schema.ts';
import { ResultMemo } from './result-memo.ts';

export interface McpContent {
  site: string;
  dataset: DatasetSource;
  /**
   * The insights dataset once it is built; its tool and resource exist only then.
   * `schema`: its zod schema (the tool's output schema), when known.
   */
  insights?: { schema?: z.ZodType; data: Record<string, unknown> };
}

export const SERVER_INFO = { name: 'roofing-reviews', version: '1.0.0' } as const;

type JsonObject = Record<string, unknown>;

/** A tool as tools/list shows it (the same object in every revision). */
export interface ToolDefinition {
  name: string;
  title: string;
  description: string;
  inputSchema: JsonObject & { type: 'object' };
  outputSchema: JsonObject & { type: 'object' };
  annotations: { title: string; readOnlyHint: true; destructiveHint: false; idempotentHint: true; openWorldHint: false };
}

export interface ToolResult {
  structuredContent?: JsonObject;
  content: Array<{ type: 'text'; text: string }>;
  isError?: true;
}

export interface ResourceDefinition {
  name: string;
  uri: string;
  title: string;
  description: string;
  mimeType: 'application/json';
}

export interface ResourceTemplateDefinition {
  name: string;
  uriTemplate: string;
  title: string;
  description: string;
  mimeType: 'application/json';
}

export interface ResourceContents {
  contents: Array<{ uri: string; mimeType: 'application/json'; text: string }>;
}

export interface McpCatalog {
  readonly instructions: string;
  readonly tools: readonly ToolDefinition[];
  readonly resources: readonly ResourceDefinition[];
  readonly resourceTemplates: readonly ResourceTemplateDefinition[];
  /** The tool's answer; undefined when no tool has that name (a protocol error, not a tool result). */
  callTool(name: string, args: unknown): ToolResult | undefined;
  /** The resource's contents; undefined when no resource has that URI. */
  readResource(uri: string): ResourceContents | undefined;
}

const READ_ONLY = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false } as const;

const NO_ARGUMENTS = z.strictObject({});
const BUSINESS_OUTPUT = z.object({ business, aggregate_rating: aggregateRating });
const REVIEW_INPUT = z.strictObject({
  id: z.string('id must be a review id (a string)').min(1, 'id must not be empty').max(200, 'id may be at most 200 characters').describe('The review id.'),
});
const REVIEW_OUTPUT = z.object({ review });
const SINCE_INPUT = z.strictObject({ date: sinceDate });
const INSIGHTS_OUTPUT = z.object({ updated: z.string().optional() }).loose();

interface ToolEntry {
  definition: ToolDefinition;
  input: z.ZodType;
  run: (args: any) => ToolResult;
}

interface ResourceEntry {
  definition: ResourceDefinition;
  /** The resource's JSON text. */
  text: () => string;
}

/** The catalog of one content build. Everything here runs once per process. */
export function createCatalog(content: McpContent): McpCatalog {
  const { dataset } = content;
  const links = siteLinks(content.site);
  const index = () => getReviewIndex(dataset);
  const tools = new Map<string, ToolEntry>();
  const tool = <I extends z.ZodType>(
    name: string,
    config: { title: string; description: string; input: I; output: z.ZodType },
    run: (args: z.output<I>) => ToolResult,
  ) => {
    tools.set(name, {
      definition: {
        name,
        title: config.title,
        description: config.description,
        inputSchema: toolJsonSchema(config.input, 'input'),
        outputSchema: toolJsonSchema(config.output, 'output'),
        annotations: { title: config.title, ...READ_ONLY },
      },
      input: config.input,
      run,
    });
  };

  tool(
    'get_business',
    {
      title: 'Business information',
      description:
        'Returns the business: name, contact details, address, licence numbers, and the lists of services, service areas and ' +
        'technicians with their ids, plus the aggregate rating (average, count, distribution by stars). ' +
        'Call it first to learn the service ids and technician names that search_reviews accepts. Takes no arguments: {}.',
      input: NO_ARGUMENTS,
      output: BUSINESS_OUTPUT,
    },
    () => result({ business: dataset.business, aggregate_rating: dataset.aggregate_rating }),
  );

  tool(
    'search_reviews',
    {
      title: 'Search reviews',
      description:
        'Finds verified reviews, newest first. All filters combine with AND; every argument is optional. ' +
        '`rating` exact stars (1-5), `min_rating` at least that many, `since`/`until` dates YYYY-MM-DD (inclusive), ' +
        '`query` case-insensitive text substring, `mentions_technician` a technician name or id, `mentions_service` a service id ' +
        '(see get_business), `limit` 1-100 (default 20). Returns `total` matches before the limit, `count` returned, and the reviews. ' +
        'Same arguments and answers as GET /api/reviews/search. ' +
        'Examples: {"rating": 1, "limit": 5}; {"min_rating": 4, "mentions_service": "gutters"}; {"query": "leak", "since": "2024-01-01"}.',
      input: searchQuery,
      output: searchResponse,
    },
    (args: SearchQuery) => result(searchReviews(index(), args)),
  );

  tool(
    'get_review',
    {
      title: 'Get one review',
      description:
        'Returns one review by its id (the `id` in search results, also the slug of its /reviews/{id} page), with its text, rating, ' +
        'date, technicians, services, service area and the business reply. Example: {"id": "2024-05-03-maria-g-full-replacement"}.',
      input: REVIEW_INPUT,
      output: REVIEW_OUTPUT,
    },
    ({ id }) => {
      const position = index().byId(id);
      if (position === undefined) return errorResult({ error: 'not_found', message: `No review has the id ${JSON.stringify(id)}. Ids come from search_reviews or reviews_since results.` });
      return result({ review: index().records.review(position) });
    },
  );

  tool(
    'reviews_since',
    {
      title: 'Reviews since a date',
      description:
        `Returns the reviews dated on or after \`date\` (YYYY-MM-DD), oldest first, one page at a time (whole days, at most ${SINCE_PAGE_SIZE} reviews unless one day has more): the incremental-sync listing, the same as ` +
        'GET /api/reviews/since/{date}. While `has_more` is true, call again with `date` = `next_date` for the next page; each review comes once. Example: {"date": "2025-01-01"}. For a bounded or filtered list use search_reviews.',
      input: SINCE_INPUT,
      output: sinceResponse,
    },
    ({ date }) => result(reviewsSince(index(), date)),
  );

  const resources = new Map<string, ResourceEntry>();
  resources.set(links.reviewsJson, {
    definition: {
      name: 'reviews.json',
      uri: links.reviewsJson,
      title: 'All reviews',
      description: 'The full dataset: business, aggregate rating and every review, newest first.',
      mimeType: 'application/json',
    },
    // The text of reviews.json, from the records' bytes: no object of 100k reviews is made for it.
    text: () => recordsOf(dataset).datasetJson(),
  });

  if (content.insights) addInsights(content.insights, links.insightsJson, tool, resources);

  // One review by id: `{home}reviews/{id}.json`.
  const reviewPrefix = `${links.home}reviews/`;
  const resourceTemplates: ResourceTemplateDefinition[] = [
    {
      name: 'review',
      uriTemplate: `${reviewPrefix}{id}.json`,
      title: 'One review',
      description: 'One review by id, as JSON (the record of reviews.json).',
      mimeType: 'application/json',
    },
  ];

  const instructions =
    `Verified customer reviews of ${dataset.business.name}, a roofing contractor. ` +
    'Use search_reviews to find reviews by rating, date range, text, technician or service; reviews_since to sync new ones; ' +
    'get_review for one review by id; get_business for services, areas and technicians (their ids are what the filters take)' +
    (content.insights ? '; get_insights for sentiment by aspect, technician, service and area, topics, FAQ and a summary.' : '.');

  // The dataset never changes inside a process: an answer is computed and serialised once per
  // distinct call, then reused (bounded; see result-memo.ts).
  const memo = new ResultMemo<ToolResult | ResourceContents>();
  const toolDefinitions = [...tools.values()].map((entry) => entry.definition);

  return {
    instructions,
    tools: toolDefinitions,
    resources: [...resources.values()].map((entry) => entry.definition),
    resourceTemplates,
    callTool(name, args) {
      const entry = tools.get(name);
      if (!entry) return undefined;
      const parsed = validate(entry.input, args ?? {});
      if (!parsed.ok) return errorResult({ error: 'invalid_request', issues: boundIssues(parsed.issues) });
      // The parsed value is in the schema's key order, whatever order the client sent.
      return memo.get(`tool ${name} ${JSON.stringify(parsed.value)}`, () => entry.run(parsed.value), resultSize) as ToolResult;
    },
    readResource(uri) {
      const entry = resources.get(uri);
      if (entry) return memo.get(`resource ${uri}`, () => contents(uri, entry.text()), resultSize) as ResourceContents;
      const id = reviewIdOf(uri, reviewPrefix);
      if (id === undefined) return undefined;
      const position = index().byId(id);
      return position === undefined ? undefined : contents(uri, new TextDecoder().decode(index().records.json(position)));
    },
  };
}

type Tool = <I extends z.ZodType>(name: string, config: { title: string; description: string; input: I; output: z.ZodType }, run: (args: z.output<I>) => ToolResult) => void;

function addInsights(insights: NonNullable<McpContent['insights']>, uri: string, tool: Tool, resources: Map<string, ResourceEntry>) {
  // Sections are the parts that hold structure; scalars (`updated`, counts) come with every answer.
  const sections = Object.keys(insights.data).filter((key) => typeof insights.data[key] === 'object' && insights.data[key] !== null);
  const scalars = Object.fromEntries(Object.entries(insights.data).filter(([key]) => !sections.includes(key)));
  const section = sections.length > 0 ? z.enum(sections as [string, ...string[]], `section must be one of ${sections.join(', ')}`) : z.never();
  tool(
    'get_insights',
    {
      title: 'Review insights',
      description:
        'Returns the sentiment insights computed from the review text: `aspects` (workmanship, scheduling, communication, cleanup, ' +
        'price and more: mentions, positive/neutral/negative, score -1..1 and example sentences), `entities` (technicians, services, ' +
        'service areas with review counts, average rating and sentiment), `topics`, `faq` and the editorial `summary`. ' +
        `Pass {"section": "aspects"} for one section (${sections.join(', ')}), or {} for all. The same data as /insights.json.`,
      input: z.strictObject({ section: section.optional().describe('One section of the insights; all when omitted.') }),
      // One section answers a part of the dataset: every section optional.
      output: insights.schema instanceof z.ZodObject ? insights.schema.partial() : INSIGHTS_OUTPUT,
    },
    ({ section: wanted }: { section?: string }) => result(wanted ? { ...scalars, [wanted]: insights.data[wanted] } : insights.data),
  );
  resources.set(uri, {
    definition: { name: 'insights.json', uri, title: 'Insights', description: 'Aspect sentiment, entities, topics, FAQ and summary.', mimeType: 'application/json' },
    text: () => JSON.stringify(insights.data),
  });
}

/** The id in `{prefix}{id}.json`, percent-decoded; undefined for any other URI. */
function reviewIdOf(uri: string, prefix: string): string | undefined {
  if (!uri.startsWith(prefix) || !uri.endsWith('.json')) return undefined;
  const encoded = uri.slice(prefix.length, -'.json'.length);
  if (encoded === '' || /[/?#]/.test(encoded)) return undefined;
  try {
    return decodeURIComponent(encoded);
  } catch {
    return undefined;
  }
}

function contents(uri: string, text: string): ResourceContents {
  return { contents: [{ uri, mimeType: 'application/json', text }] };
}

function result(value: object): ToolResult {
  return { structuredContent: value as JsonObject, content: [{ type: 'text', text: JSON.stringify(value) }] };
}

function errorResult(value: object): ToolResult {
  return { isError: true, content: [{ type: 'text', text: JSON.stringify(value) }] };
}

/**
 * An answer's size for the memo's budget: its serialised text, and for a tool's structured content the
 * objects too. Reviews are parsed from their bytes for each answer (records.ts), so those objects are the
 * answer's own: V8 holds about 1.6 bytes of objects per byte of their JSON (90 MB for the 57.6 MB of
 * reviews.json at 100k), counted here as twice the text.
 */
function resultSize(value: ToolResult | ResourceContents): number {
  if ('contents' in value) return value.contents.reduce((sum, part) => sum + part.text.length, 0);
  const text = value.content.reduce((sum, part) => sum + part.text.length, 0);
  return value.structuredContent ? 3 * text : text;
}

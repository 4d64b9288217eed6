/**
 * The MCP server: read-only tools and resources over the same dataset, index
 * and query schema as the REST endpoints, so a model and an HTTP client get the
 * same reviews for the same question.
 *
 * Arguments are validated here, not by the SDK: a bad call answers a tool
 * result with `isError: true` whose text is the REST API's 400 body
 * (`{ "error": "invalid_request", "issues": [...] }`, each issue naming its
 * parameter), so a model can correct itself the same way an HTTP client does.
 */
import { McpServer, ResourceTemplate } from '@modelcontextprotocol/sdk/server/mcp.js';
import { CallToolRequestSchema, ErrorCode, ListToolsRequestSchema, McpError, type CallToolResult, type Tool } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { siteLinks } from '../feeds/links.ts';
import { toolJsonSchema } from './json-schema.ts';
import { getReviewIndex } from '../reviews/index.ts';
import { validate, type Issue } from '../http/issues.ts';
import { searchQuery, sinceDate, type SearchQuery } from '../reviews/query.ts';
import { searchResponse, sinceResponse } from '../reviews/responses.ts';
import { aggregateRating, business, review, type ReviewsDataset } from '../reviews/schema.ts';
import { searchReviews } from '../reviews/search.ts';
import { reviewsSince } from '../reviews/since.ts';

export interface McpContent {
  site: string;
  dataset: ReviewsDataset;
  /**
   * The insights dataset once it is built; its tool and resource exist only then.
   * `schema`: its zod schema (the tool's output schema), when known.
   */
  insights?: { schema?: z.ZodType; data: Record<string, unknown> };
}

const READ_ONLY = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false } as const;

export const SERVER_INFO = { name: 'roofing-reviews', version: '1.0.0' };

const NO_ARGUMENTS = z.strictObject({});
const BUSINESS_OUTPUT = z.object({ business, aggregate_rating: aggregateRating });
const REVIEW_INPUT = z.strictObject({
  id: z.string('id must be a review id (a string)').min(1, 'id must not be empty').max(200, 'id may be at most 200 characters').describe('The review id.'),
});
const REVIEW_OUTPUT = z.object({ review });
const SINCE_INPUT = z.strictObject({ date: sinceDate });
const INSIGHTS_OUTPUT = z.object({ updated: z.string().optional() }).loose();
/** get_insights' schemas depend on the sections present: made once per insights dataset. */
const insightsSchemas = new WeakMap<object, { input: z.ZodType<{ section?: string }>; output: z.ZodType }>();

interface ToolEntry {
  input: z.ZodType;
  definition: Tool;
  run: (args: any) => CallToolResult | Promise<CallToolResult>;
}

export function createMcpServer(content: McpContent): McpServer {
  const { dataset } = content;
  const links = siteLinks(content.site);
  const server = new McpServer(SERVER_INFO, {
    capabilities: { tools: {}, resources: {} },
    instructions:
      `Verified customer reviews of ${dataset.business.name}, a roofing contractor. ` +
      'Use search_reviews to find reviews by rating, date range, text, technician or service; reviews_since to sync new ones; ' +
      'get_review for one review by id; get_business for services, areas and technicians (their ids are what the filters take)' +
      (content.insights ? '; get_insights for sentiment by aspect, technician, service and area, topics, FAQ and a summary.' : '.'),
  });
  const tools = new Map<string, ToolEntry>();
  const register = <I extends z.ZodType>(
    name: string,
    config: { title: string; description: string; inputSchema: I; outputSchema: z.ZodType },
    run: (args: z.output<I>) => CallToolResult | Promise<CallToolResult>,
  ) => {
    const annotations = { title: config.title, ...READ_ONLY };
    const definition: Tool = {
      name,
      title: config.title,
      description: config.description,
      inputSchema: toolJsonSchema(config.inputSchema, 'input'),
      outputSchema: toolJsonSchema(config.outputSchema, 'output'),
      annotations,
    };
    tools.set(name, { input: config.inputSchema, definition, run });
    server.registerTool(
      name,
      { ...config, inputSchema: config.inputSchema as any, outputSchema: config.outputSchema as any, annotations },
      run as any,
    );
  };

  register(
    'get_business',
    {
      title: 'Business information',
      description:
        'Returns the business: name, contact details, address, licence numbers, and the lists of services, service areas and ' +
        'technicians with their ids, plus the aggregate rating (average, count, distribution by stars). ' +
        'Call it first to learn the service ids and technician names that search_reviews accepts. Takes no arguments: {}.',
      inputSchema: NO_ARGUMENTS,
      outputSchema: BUSINESS_OUTPUT,
    },
    () => result({ business: dataset.business, aggregate_rating: dataset.aggregate_rating }),
  );

  register(
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
      inputSchema: searchQuery,
      outputSchema: searchResponse,
    },
    (args: SearchQuery) => result(searchReviews(getReviewIndex(dataset), args)),
  );

  register(
    'get_review',
    {
      title: 'Get one review',
      description:
        'Returns one review by its id (the `id` in search results, also the slug of its /reviews/{id} page), with its text, rating, ' +
        'date, technicians, services, service area and the business reply. Example: {"id": "2024-05-03-maria-g-full-replacement"}.',
      inputSchema: REVIEW_INPUT,
      outputSchema: REVIEW_OUTPUT,
    },
    ({ id }) => {
      const found = getReviewIndex(dataset).byId(id);
      if (!found) return errorResult({ error: 'not_found', message: `No review has the id ${JSON.stringify(id)}. Ids come from search_reviews or reviews_since results.` });
      return result({ review: found });
    },
  );

  register(
    'reviews_since',
    {
      title: 'Reviews since a date',
      description:
        'Returns every review dated on or after `date` (YYYY-MM-DD), oldest first: the incremental-sync listing, the same as ' +
        'GET /api/reviews/since/{date}. Example: {"date": "2025-01-01"}. For a bounded or filtered list use search_reviews.',
      inputSchema: SINCE_INPUT,
      outputSchema: sinceResponse,
    },
    ({ date }) => result(reviewsSince(getReviewIndex(dataset), date)),
  );

  server.registerResource(
    'reviews.json',
    links.reviewsJson,
    { title: 'All reviews', description: 'The full dataset: business, aggregate rating and every review, newest first.', mimeType: 'application/json' },
    async (uri) => ({ contents: [{ uri: uri.href, mimeType: 'application/json', text: JSON.stringify(dataset) }] }),
  );

  server.registerResource(
    'review',
    new ResourceTemplate(`${links.home}reviews/{id}.json`, { list: undefined }),
    { title: 'One review', description: 'One review by id, as JSON (the record of reviews.json).', mimeType: 'application/json' },
    async (uri, { id }) => {
      const found = getReviewIndex(dataset).byId(String(id));
      if (!found) throw new McpError(ErrorCode.InvalidParams, `No review has the id ${JSON.stringify(id)}`);
      return { contents: [{ uri: uri.href, mimeType: 'application/json', text: JSON.stringify(found) }] };
    },
  );

  if (content.insights) registerInsights(server, register, content.insights, links.insightsJson);

  // Our own tools/list and tools/call: self-contained object schemas (json-schema.ts), and
  // validation that answers the REST API's issues (see the top of this file).
  server.server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: [...tools.values()].map((tool) => tool.definition) }));
  server.server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const tool = tools.get(request.params.name);
    if (!tool) throw new McpError(ErrorCode.InvalidParams, `Unknown tool ${JSON.stringify(request.params.name)}; the tools are ${[...tools.keys()].join(', ')}`);
    const parsed = validate(tool.input, request.params.arguments ?? {});
    if (!parsed.ok) return invalidArguments(parsed.issues);
    return tool.run(parsed.value);
  });
  return server;
}

type Register = <I extends z.ZodType>(
  name: string,
  config: { title: string; description: string; inputSchema: I; outputSchema: z.ZodType },
  run: (args: z.output<I>) => CallToolResult | Promise<CallToolResult>,
) => void;

function registerInsights(server: McpServer, register: Register, insights: NonNullable<McpContent['insights']>, uri: string) {
  // Sections are the parts that hold structure; scalars (`updated`, counts) come with every answer.
  const sections = Object.keys(insights.data).filter((key) => typeof insights.data[key] === 'object' && insights.data[key] !== null);
  const scalars = Object.fromEntries(Object.entries(insights.data).filter(([key]) => !sections.includes(key)));
  let schemas = insightsSchemas.get(insights.data);
  if (!schemas) {
    const section = sections.length > 0 ? z.enum(sections as [string, ...string[]], `section must be one of ${sections.join(', ')}`) : z.never();
    schemas = {
      input: z.strictObject({ section: section.optional().describe('One section of the insights; all when omitted.') }),
      // One section answers a part of the dataset: every section optional.
      output: insights.schema instanceof z.ZodObject ? insights.schema.partial() : INSIGHTS_OUTPUT,
    };
    insightsSchemas.set(insights.data, schemas);
  }
  register(
    'get_insights',
    {
      title: 'Review insights',
      description:
        'Returns the sentiment insights computed from the review text: `aspects` (workmanship, scheduling, communication, cleanup, ' +
        'price and more: mentions, positive/neutral/negative, score -1..1 and example sentences), `entities` (technicians, services, ' +
        'service areas with review counts, average rating and sentiment), `topics`, `faq` and the editorial `summary`. ' +
        `Pass {"section": "aspects"} for one section (${sections.join(', ')}), or {} for all. The same data as /insights.json.`,
      inputSchema: schemas.input,
      outputSchema: schemas.output,
    },
    ({ section }) => result(section ? { ...scalars, [section]: insights.data[section] } : insights.data),
  );
  server.registerResource(
    'insights.json',
    uri,
    { title: 'Insights', description: 'Aspect sentiment, entities, topics, FAQ and summary.', mimeType: 'application/json' },
    async (resourceUri) => ({ contents: [{ uri: resourceUri.href, mimeType: 'application/json', text: JSON.stringify(insights.data) }] }),
  );
}

function result(value: object): CallToolResult {
  return { structuredContent: value as Record<string, unknown>, content: [{ type: 'text', text: JSON.stringify(value) }] };
}

function errorResult(value: object): CallToolResult {
  return { isError: true, content: [{ type: 'text', text: JSON.stringify(value) }] };
}

/** The REST API's 400 body, as the text of an error result. */
function invalidArguments(issues: Issue[]): CallToolResult {
  return errorResult({ error: 'invalid_request', issues });
}

/**
 * /openapi.json against the real server: the document is well-formed OpenAPI
 * 3.1 (required fields, every $ref resolves, every path of the contract, unique
 * operationIds), and every status it documents that a client can provoke is
 * what the server really answers — status, content type, headers, and a body
 * that validates against the documented schema (and against the zod schema it
 * was generated from, where there is one).
 *
 * No JSON Schema validator is a direct dependency, so bodies are checked by a
 * compact checker below (type, const, enum, required, properties — strict:
 * a key the schema does not list is a drift — items, bounds, patterns, anyOf).
 */
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { relative, resolve } from 'node:path';
import { after, before, describe, it, type TestContext } from 'node:test';
import { z } from 'zod';
import { deref, operationsOf, resolvePointer } from '../../src/components/api-reference.ts';
import { openApiJson } from '../../src/lib/api/openapi/document.ts';
import type { JsonObject, JsonSchema, OpenApiDocument, Operation } from '../../src/lib/api/openapi/document-types.ts';
import { errorResponse, messageError } from '../../src/lib/http/errors-schema.ts';
import { insightsDataset } from '../../src/lib/insights/schema.ts';
import { searchQuery, sinceDate } from '../../src/lib/reviews/query.ts';
import { searchResponse, sinceResponse } from '../../src/lib/reviews/responses.ts';
import { review, reviewsDataset } from '../../src/lib/reviews/schema.ts';
import { BUILDS, ROOT, type BuildName } from '../helpers/builds.ts';
import { bytesOf, conditional } from '../helpers/http.ts';
import { startServer, type RunningServer } from '../helpers/server.ts';

/** The contract's endpoints (docs/contract.md): path → methods that must be documented. */
const SEED: Record<string, string[]> = {
  '/reviews.json': ['get'],
  '/reviews/{id}.json': ['get'],
  '/insights.json': ['get'],
  '/api/feed.json': ['get'],
  '/feed.xml': ['get'],
  '/api/reviews/search': ['get'],
  '/api/reviews/since/{date}': ['get'],
  '/mcp': ['post', 'delete', 'get'],
  '/api/websub/hub': ['post'],
};

/** Component schemas that have a zod twin: the live body must pass both. */
const ZOD: Record<string, z.ZodType> = {
  ReviewsDataset: reviewsDataset,
  Review: review,
  Insights: insightsDataset,
  SearchResponse: searchResponse,
  SinceResponse: sinceResponse,
  ErrorResponse: errorResponse,
  MessageError: messageError,
};

/**
 * The endpoint routes of src/pages (every non-page file) that are not part of
 * the public data interface, and why. Every other route must be a documented
 * path: a new endpoint cannot be served without being described.
 */
const UNDOCUMENTED_ROUTES: Record<string, string> = {
  '/api/[...path]':
    'the REST routing (src/lib/api/routes.ts): search and since, documented by their own paths, and NotFound for unknown /api/ paths',
  '/api/cron/sweep': "the serverless host's scheduler, behind CRON_SECRET",
  '/robots.txt': 'for crawlers',
  '/sitemap.xml': 'for crawlers',
  '/sitemaps/{part}.xml': 'for crawlers',
  '/widget.js': 'the embeddable widget script, an asset of the widget page',
  '/widget.json': "the widget's own data, shaped by what widget.js shows (docs/widget.md)",
  '/admin/config.yml': "the editors' admin UI",
  '/admin/decap-cms.js': "the editors' admin UI",
  '/admin/emails/{template}.html': "the editors' admin UI",
  '/admin/auth': "the editors' GitHub login (docs/editing.md)",
  '/admin/callback': "the editors' GitHub login (docs/editing.md)",
  '/.well-known/mcp.json': 'the MCP server card, a draft discovery document described in docs/mcp.md',
  '/.well-known/mcp/server-card.json': 'the MCP server card, a draft discovery document described in docs/mcp.md',
  '/trends/{file}': "the trends page's chart data as CSV, columns documented in docs/insights.md",
};

/** src/pages endpoint files as paths in OpenAPI's notation: `reviews/[id].json.ts` → `/reviews/{id}.json`. */
function endpointRoutes(): string[] {
  const pages = resolve(ROOT, 'src/pages');
  return readdirSync(pages, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && /\.(ts|js)$/.test(entry.name) && !entry.name.startsWith('_'))
    .map(
      (entry) =>
        `/${relative(pages, resolve(entry.parentPath, entry.name))}`
          .replace(/\.(ts|js)$/, '')
          .replace(/\/index$/, '') || '/',
    )
    .map((route) => route.replace(/\[(?!\.\.\.)([^\]]+)\]/g, '{$1}'))
    .sort();
}

/** The content build when it has reviews, else the small fixture build. */
function pickBuild(): BuildName {
  const file = resolve(BUILDS.content.outDir, 'client/reviews.json');
  if (!existsSync(file)) return 'small';
  try {
    return (JSON.parse(readFileSync(file, 'utf8')) as { reviews: unknown[] }).reviews.length > 0 ? 'content' : 'small';
  } catch {
    return 'small';
  }
}

let server: RunningServer;
let doc: OpenApiDocument;
let served: string;
/** Path parameters whose documented example names no content of the build under test (a review id). */
const pathValues: Record<string, string> = {};
before(async () => {
  server = await startServer(pickBuild());
  const response = await fetch(`${server.url}/openapi.json`);
  assert.equal(response.status, 200);
  served = await response.text();
  doc = JSON.parse(served) as OpenApiDocument;
  const dataset = (await (await fetch(`${server.url}/reviews.json`)).json()) as { reviews: Array<{ id: string }> };
  assert.ok(dataset.reviews.length > 0, 'the build under test has reviews');
  pathValues.id = dataset.reviews[0]!.id;
});
after(() => server?.stop());

/* ------------------------------------------------------------ compact checker */

function check(value: unknown, schema: unknown, at = '$', errors: string[] = []): string[] {
  const s = deref<JsonSchema>(doc, schema);
  const union = (s.anyOf ?? s.oneOf) as unknown[] | undefined;
  if (union && !union.some((branch) => check(value, branch, at).length === 0))
    errors.push(`${at}: matches no branch of anyOf/oneOf`);
  if ('const' in s && JSON.stringify(s.const) !== JSON.stringify(value))
    errors.push(`${at}: expected ${JSON.stringify(s.const)}`);
  if (Array.isArray(s.enum) && !s.enum.some((v) => JSON.stringify(v) === JSON.stringify(value)))
    errors.push(`${at}: not one of the enum`);
  if (s.type !== undefined) {
    const types = Array.isArray(s.type) ? (s.type as string[]) : [s.type as string];
    if (!types.some((type) => isType(value, type))) {
      errors.push(`${at}: expected ${types.join('|')}, got ${value === null ? 'null' : typeof value}`);
      return errors;
    }
  }
  if (typeof value === 'string') {
    if (typeof s.minLength === 'number' && value.length < s.minLength)
      errors.push(`${at}: shorter than ${s.minLength}`);
    if (typeof s.maxLength === 'number' && value.length > s.maxLength) errors.push(`${at}: longer than ${s.maxLength}`);
    if (typeof s.pattern === 'string' && !new RegExp(s.pattern, 'u').test(value))
      errors.push(`${at}: does not match ${s.pattern}`);
    if (s.format === 'date' && !/^\d{4}-\d{2}-\d{2}$/.test(value)) errors.push(`${at}: not a date`);
    if (s.format === 'date-time' && Number.isNaN(Date.parse(value))) errors.push(`${at}: not a date-time`);
    if (s.format === 'uri' && !URL.canParse(value)) errors.push(`${at}: not a URI`);
  }
  if (typeof value === 'number') {
    if (typeof s.minimum === 'number' && value < s.minimum) errors.push(`${at}: below ${s.minimum}`);
    if (typeof s.maximum === 'number' && value > s.maximum) errors.push(`${at}: above ${s.maximum}`);
  }
  if (Array.isArray(value)) {
    if (typeof s.minItems === 'number' && value.length < s.minItems)
      errors.push(`${at}: fewer than ${s.minItems} items`);
    if (typeof s.maxItems === 'number' && value.length > s.maxItems)
      errors.push(`${at}: more than ${s.maxItems} items`);
    if (s.items) value.forEach((item, i) => check(item, s.items, `${at}[${i}]`, errors));
  } else if (value !== null && typeof value === 'object') {
    const object = value as Record<string, unknown>;
    for (const key of (s.required ?? []) as string[])
      if (!(key in object)) errors.push(`${at}: missing required ${key}`);
    const properties = s.properties as Record<string, unknown> | undefined;
    for (const [key, inner] of Object.entries(object)) {
      if (properties && key in properties) check(inner, properties[key], `${at}.${key}`, errors);
      else if (s.additionalProperties && typeof s.additionalProperties === 'object')
        check(inner, s.additionalProperties, `${at}.${key}`, errors);
      else if (properties) errors.push(`${at}: key "${key}" is not documented`);
    }
  }
  return errors;
}

function isType(value: unknown, type: string): boolean {
  switch (type) {
    case 'integer':
      return Number.isInteger(value);
    case 'number':
      return typeof value === 'number' && Number.isFinite(value);
    case 'null':
      return value === null;
    case 'array':
      return Array.isArray(value);
    case 'object':
      return value !== null && typeof value === 'object' && !Array.isArray(value);
    default:
      return typeof value === type;
  }
}

/* ------------------------------------------------------------ live checking */

type ResponseObject = JsonObject & {
  description: string;
  headers?: Record<string, unknown>;
  content?: Record<string, { schema?: unknown }>;
};

function documentedResponse(operation: Operation, status: string): ResponseObject {
  const raw = operation.responses[status];
  assert.ok(raw, `${operation.operationId} documents ${status}`);
  return deref<ResponseObject>(doc, raw);
}

/** Status, content type, documented headers (values where the schema fixes them) and body against the documented schema. */
async function expectDocumented(
  response: Response,
  documented: ResponseObject,
  label: string,
  options: { skipHeaders?: string[]; sdkBody?: boolean } = {},
) {
  const body = await bytesOf(response);
  for (const [name, rawHeader] of Object.entries(documented.headers ?? {})) {
    if (options.skipHeaders?.includes(name)) continue;
    const header = deref<{ schema?: JsonSchema }>(doc, rawHeader);
    const value = response.headers.get(name);
    assert.ok(value !== null, `${label}: header ${name} is documented but not sent`);
    if (header.schema && 'const' in header.schema) assert.equal(value, header.schema.const, `${label}: ${name}`);
    if (header.schema?.type === 'integer') assert.match(value, /^\d+$/, `${label}: ${name}`);
  }
  const content = Object.entries(documented.content ?? {});
  if (content.length === 0) {
    assert.equal(body.length, 0, `${label}: documented without a body`);
    return undefined;
  }
  const type = response.headers.get('content-type') ?? '';
  const media = type.split(';')[0]!.trim();
  const entry = content.find(([key]) => key === media);
  assert.ok(entry, `${label}: content type ${type} is not among ${content.map(([key]) => key).join(', ')}`);
  if (!options.sdkBody && media !== 'text/html') {
    // The MCP SDK writes its own JSON-RPC answers: plain application/json, no trailing newline.
    assert.match(type, /charset=utf-8/i, `${label}: charset`);
    assert.equal(body.at(-1), 0x0a, `${label}: body ends with a newline`);
  }
  const schema = entry[1].schema;
  if (media === 'text/html') {
    assert.match(body.toString('utf8'), /^<!DOCTYPE html>/i, `${label}: an HTML page`);
    return body;
  }
  if (media === 'application/atom+xml') {
    assert.match(
      body.toString('utf8'),
      /^<\?xml[^>]*\?>\s*<feed xmlns="http:\/\/www.w3.org\/2005\/Atom"/,
      `${label}: an Atom feed`,
    );
    return body;
  }
  const json = JSON.parse(body.toString('utf8')) as unknown;
  assert.deepEqual(check(json, schema), [], `${label}: body validates against the documented schema`);
  const name =
    typeof (schema as JsonObject)?.$ref === 'string'
      ? String((schema as JsonObject).$ref)
          .split('/')
          .pop()!
      : '';
  if (ZOD[name]) {
    const parsed = ZOD[name].safeParse(json);
    assert.ok(
      parsed.success,
      `${label}: body passes the zod schema ${name}: ${parsed.success ? '' : parsed.error.message}`,
    );
  }
  return json;
}

/** A concrete URL for a documented GET: path parameters from their examples. */
function exampleUrl(path: string, operation: Operation): string {
  let url = path;
  for (const raw of operation.parameters ?? []) {
    const parameter = deref<JsonObject>(doc, raw);
    if (parameter.in === 'path')
      url = url.replace(
        `{${String(parameter.name)}}`,
        encodeURIComponent(pathValues[String(parameter.name)] ?? String(parameter.example)),
      );
  }
  return server.url + url;
}

/** Every documented resource is served: a 404 here means the document and the build disagree. */
async function available(_t: TestContext, url: string): Promise<boolean> {
  const probe = await fetch(url, { method: 'HEAD' });
  await probe.arrayBuffer();
  assert.notEqual(probe.status, 404, `${new URL(url).pathname} is documented but not served`);
  return true;
}

/* ---------------------------------------------------------------- tests */

describe('OpenAPI document: structure', () => {
  it('is served as JSON ending with a newline, and is what the generator writes (deterministic)', () => {
    assert.equal(served.at(-1), '\n');
    assert.equal(served, openApiJson(doc.servers[0]!.url), 'served bytes = generated bytes for the same site');
    assert.equal(openApiJson('http://localhost:4321/'), openApiJson('http://localhost:4321'), 'same input, same bytes');
  });

  it('has the required top-level fields of OpenAPI 3.1.0 and interface version 1.0.0', () => {
    assert.equal(doc.openapi, '3.1.0');
    assert.equal(typeof doc.info.title, 'string');
    assert.equal(doc.info.version, '1.0.0');
    assert.ok(Array.isArray(doc.servers) && URL.canParse(doc.servers[0]!.url));
    assert.equal(typeof doc.paths, 'object');
    for (const tag of doc.tags) assert.equal(typeof tag.description, 'string');
  });

  it('resolves every $ref', () => {
    const refs: string[] = [];
    const walk = (node: unknown) => {
      if (Array.isArray(node)) node.forEach(walk);
      else if (node && typeof node === 'object') {
        for (const [key, value] of Object.entries(node)) {
          if (key === '$ref') refs.push(value as string);
          else walk(value);
        }
      }
    };
    walk(doc);
    assert.ok(refs.length > 20);
    for (const ref of refs) assert.notEqual(resolvePointer(doc, ref), undefined, `$ref ${ref} resolves`);
  });

  it('documents every endpoint of the contract, with unique operationIds, tags and described responses', () => {
    for (const [path, methods] of Object.entries(SEED)) {
      for (const method of methods)
        assert.ok(doc.paths[path]?.[method as 'get'], `${method.toUpperCase()} ${path} is documented`);
    }
    const ids = new Set<string>();
    for (const { path, method, operation } of operationsOf(doc)) {
      assert.ok(!ids.has(operation.operationId), `operationId ${operation.operationId} is unique`);
      ids.add(operation.operationId);
      assert.ok(
        operation.summary && operation.description && operation.tags.length > 0,
        `${method} ${path} has a summary, description and tag`,
      );
      assert.ok(Object.keys(operation.responses).length > 0);
      for (const [status, response] of Object.entries(operation.responses)) {
        assert.match(status, /^([1-5]\d\d|default)$/);
        assert.equal(
          typeof deref<ResponseObject>(doc, response).description,
          'string',
          `${operation.operationId} ${status} has a description`,
        );
      }
      const seen = new Set<string>();
      for (const raw of operation.parameters ?? []) {
        const parameter = deref<JsonObject>(doc, raw);
        const key = `${String(parameter.in)}:${String(parameter.name)}`;
        assert.ok(!seen.has(key), `${operation.operationId}: parameter ${key} once`);
        seen.add(key);
        assert.ok(parameter.schema, `${operation.operationId}: ${key} has a schema`);
      }
      for (const name of path.match(/\{[^}]+\}/g) ?? []) {
        assert.ok(seen.has(`path:${name.slice(1, -1)}`), `${operation.operationId} declares path parameter ${name}`);
        const parameter = (operation.parameters ?? [])
          .map((p) => deref<JsonObject>(doc, p))
          .find((p) => p.name === name.slice(1, -1));
        assert.equal(parameter?.required, true);
      }
    }
  });

  it('documents every endpoint route the site serves (src/pages), except the few that are not the public interface', () => {
    const routes = endpointRoutes();
    assert.ok(routes.includes('/reviews.json') && routes.includes('/api/[...path]'), routes.join(', '));
    const missing = routes.filter((route) => !(route in doc.paths) && !(route in UNDOCUMENTED_ROUTES));
    assert.deepEqual(missing, [], 'served by src/pages but not in /openapi.json');
    for (const route of Object.keys(UNDOCUMENTED_ROUTES))
      assert.ok(routes.includes(route), `${route} is listed as undocumented but no longer served`);
    // The REST routing behind the /api/ catch-all serves search and since; the live tests above request each documented path.
    const restRouted = (path: string) => path.startsWith('/api/reviews/');
    for (const path of Object.keys(doc.paths))
      assert.ok(routes.includes(path) || restRouted(path), `${path} is documented but no route serves it`);
  });

  it('lists exactly the search parameters of the query schema, with the schemas generated from it', () => {
    const parameters = (doc.paths['/api/reviews/search']!.get!.parameters ?? [])
      .map((p) => deref<JsonObject>(doc, p))
      .filter((p) => p.in === 'query');
    assert.deepEqual(
      parameters.map((p) => p.name),
      Object.keys(searchQuery.shape),
    );
    for (const parameter of parameters) {
      const field = (searchQuery.shape as Record<string, z.ZodType>)[String(parameter.name)]!;
      const {
        $schema: _s,
        description,
        ...expected
      } = z.toJSONSchema(field, { target: 'draft-2020-12', io: 'input' }) as JsonSchema;
      assert.deepEqual(parameter.schema, expected, `${String(parameter.name)}: schema from searchQuery.shape`);
      assert.equal(parameter.description, description);
      assert.equal(parameter.required, false);
      if (parameter.example !== undefined)
        assert.ok(field.safeParse(parameter.example).success, `${String(parameter.name)}: its example is valid`);
    }
    const date = deref<JsonObject>(doc, doc.paths['/api/reviews/since/{date}']!.get!.parameters![0]);
    assert.ok(sinceDate.safeParse(date.example).success);
  });

  it('has examples that validate against their own schemas', () => {
    for (const [name, schema] of Object.entries(doc.components.schemas)) {
      for (const example of (schema.examples ?? []) as unknown[]) {
        assert.deepEqual(check(example, schema), [], `example of ${name}`);
        if (ZOD[name]) assert.ok(ZOD[name].safeParse(example).success, `example of ${name} passes zod`);
      }
    }
    for (const { operation } of operationsOf(doc)) {
      for (const media of Object.values(
        (operation.requestBody?.content ?? {}) as Record<
          string,
          { schema: unknown; examples?: Record<string, { value: unknown }> }
        >,
      )) {
        for (const [key, example] of Object.entries(media.examples ?? {})) {
          assert.deepEqual(check(example.value, media.schema), [], `${operation.operationId} example ${key}`);
        }
      }
    }
  });
});

describe('OpenAPI document against the live server', () => {
  const getEndpoints = () =>
    operationsOf(doc).filter(({ method, operation }) => method === 'get' && operation.responses['200']);

  it('GET: every documented 200 is what the server sends (status, type, headers, body)', async (t) => {
    for (const { path, operation } of getEndpoints()) {
      const url = exampleUrl(path, operation);
      if (!(await available(t, url))) continue;
      const response = await fetch(url, { headers: { 'accept-encoding': 'identity' } });
      assert.equal(response.status, 200, `GET ${path}`);
      await expectDocumented(response, documentedResponse(operation, '200'), `GET ${path}`);
    }
  });

  it('GET with the search filters of the examples: 200 and a valid SearchResponse', async () => {
    const operation = doc.paths['/api/reviews/search']!.get!;
    for (const query of [
      'min_rating=4&limit=5',
      'rating=5&since=2000-01-01&until=2100-12-31',
      'mentions_service=no-such-service',
      'query=roof&limit=100',
    ]) {
      const response = await fetch(`${server.url}/api/reviews/search?${query}`);
      assert.equal(response.status, 200, query);
      const body = (await expectDocumented(response, documentedResponse(operation, '200'), `search ?${query}`)) as {
        limit: number;
      };
      assert.ok(body.limit >= 1);
    }
  });

  it('304: If-None-Match with the ETag answers the documented Not Modified, with no body', async (t) => {
    for (const { path, operation } of getEndpoints()) {
      if (!operation.responses['304']) continue;
      const url = exampleUrl(path, operation);
      if (!(await available(t, url))) continue;
      const first = await fetch(url, { headers: { 'accept-encoding': 'identity' } });
      await first.arrayBuffer();
      const etag = first.headers.get('etag')!;
      const second = await fetch(url, {
        headers: conditional({ 'if-none-match': etag, 'accept-encoding': 'identity' }),
      });
      assert.equal(second.status, 304, `GET ${path} If-None-Match`);
      assert.equal(second.headers.get('etag'), etag);
      await expectDocumented(second, documentedResponse(operation, '304'), `304 ${path}`, {
        skipHeaders: path === '/openapi.json' ? ['Last-Modified'] : [],
      });
      if (operation.parameters?.some((p) => deref<JsonObject>(doc, p).name === 'If-Modified-Since')) {
        const lastModified = first.headers.get('last-modified')!;
        const byDate = await fetch(url, { headers: conditional({ 'if-modified-since': lastModified }) });
        assert.equal(byDate.status, 304, `GET ${path} If-Modified-Since`);
        await byDate.arrayBuffer();
      }
    }
  });

  it('HEAD and OPTIONS: the documented headers, no body', async (t) => {
    for (const { path, method, operation } of operationsOf(doc)) {
      if ((method !== 'head' && method !== 'options') || path === '/mcp' || path === '/api/websub/hub') continue;
      const url = exampleUrl(path, operation);
      if (!(await available(t, url))) continue;
      const headers: Record<string, string> =
        method === 'options'
          ? { origin: 'https://example.org', 'access-control-request-method': 'GET' }
          : { 'accept-encoding': 'identity' };
      const response = await fetch(url, { method: method.toUpperCase(), headers });
      const status = method === 'options' ? '204' : '200';
      assert.equal(String(response.status), status, `${method.toUpperCase()} ${path}`);
      await expectDocumented(response, documentedResponse(operation, status), `${method.toUpperCase()} ${path}`);
    }
  });

  it('400: invalid parameters answer the documented ErrorResponse, naming the parameter', async () => {
    const cases: Array<[string, Operation, string]> = [
      ['/api/reviews/search?limit=0', doc.paths['/api/reviews/search']!.get!, 'limit'],
      ['/api/reviews/search?rating=6', doc.paths['/api/reviews/search']!.get!, 'rating'],
      ['/api/reviews/search?sort=date', doc.paths['/api/reviews/search']!.get!, 'sort'],
      ['/api/reviews/search?since=2025-02-30', doc.paths['/api/reviews/search']!.get!, 'since'],
      ['/api/reviews/since/2025-02-30', doc.paths['/api/reviews/since/{date}']!.get!, 'date'],
      ['/api/reviews/since/yesterday', doc.paths['/api/reviews/since/{date}']!.get!, 'date'],
    ];
    for (const [path, operation, parameter] of cases) {
      const response = await fetch(server.url + path);
      assert.equal(response.status, 400, path);
      const body = (await expectDocumented(response, documentedResponse(operation, '400'), `400 ${path}`)) as {
        issues: Array<{ path: unknown[] }>;
      };
      assert.ok(
        body.issues.some((issue) => issue.path[0] === parameter),
        `${path}: an issue names ${parameter}`,
      );
    }
  });

  it('404: an unknown review id answers the documented 404 (a JSON error), on GET and HEAD', async () => {
    const item = doc.paths['/reviews/{id}.json']!;
    for (const id of ['no-such-review', pathValues.id + '-x']) {
      const get = await fetch(`${server.url}/reviews/${id}.json`);
      assert.equal(get.status, 404, id);
      await expectDocumented(get, documentedResponse(item.get!, '404'), `GET /reviews/${id}.json`);
      const head = await fetch(`${server.url}/reviews/${id}.json`, { method: 'HEAD' });
      assert.equal(head.status, 404, id);
      await expectDocumented(head, documentedResponse(item.head!, '404'), `HEAD /reviews/${id}.json`);
    }
  });

  it('404: an unknown /api/ path answers the documented NotFound', async () => {
    for (const path of ['/api/nothing', '/api/reviews/since/2025-01-01/extra', '/api/reviews']) {
      const response = await fetch(server.url + path);
      assert.equal(response.status, 404, path);
      await expectDocumented(response, deref<ResponseObject>(doc, doc.components.responses.NotFound), `404 ${path}`);
    }
  });

  it('405: other methods on GET endpoints answer the documented MethodNotAllowed with Allow', async (t) => {
    for (const { path, operation } of getEndpoints()) {
      const url = exampleUrl(path, operation);
      if (!(await available(t, url))) continue;
      for (const method of ['POST', 'PUT', 'DELETE']) {
        const response = await fetch(url, { method, body: method === 'DELETE' ? undefined : 'x' });
        assert.equal(response.status, 405, `${method} ${path}`);
        assert.equal(response.headers.get('allow'), 'GET, HEAD, OPTIONS');
        await expectDocumented(
          response,
          deref<ResponseObject>(doc, doc.components.responses.MethodNotAllowed),
          `405 ${method} ${path}`,
        );
      }
    }
  });

  it('/mcp: GET is the documented 405; initialize is a documented 200 with Mcp-Session-Id; a later request without it is 400', async () => {
    const item = doc.paths['/mcp']!;
    const get = await fetch(`${server.url}/mcp`);
    assert.notEqual(get.status, 404, '/mcp is documented and must be served');
    assert.equal(get.status, 405);
    assert.match(get.headers.get('allow') ?? '', /POST/);
    await expectDocumented(get, documentedResponse(item.get!, '405'), 'GET /mcp');

    const example = (
      item.post!.requestBody as { content: Record<string, { examples: Record<string, { value: unknown }> }> }
    ).content['application/json']!.examples;
    const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
    const init = await fetch(`${server.url}/mcp`, {
      method: 'POST',
      headers,
      body: JSON.stringify(example.initialize!.value),
    });
    assert.equal(init.status, 200);
    assert.ok(init.headers.get('mcp-session-id'), 'initialize answers Mcp-Session-Id');
    await expectDocumented(init, documentedResponse(item.post!, '200'), 'POST /mcp initialize', { sdkBody: true });

    const list = await fetch(`${server.url}/mcp`, {
      method: 'POST',
      headers,
      body: JSON.stringify(example.toolsList!.value),
    });
    assert.equal(list.status, 400);
    await expectDocumented(list, documentedResponse(item.post!, '400'), 'POST /mcp without a session');

    const notJson = await fetch(`${server.url}/mcp`, { method: 'POST', headers, body: '{' });
    assert.equal(notJson.status, 400);
    await expectDocumented(notJson, documentedResponse(item.post!, '400'), 'POST /mcp parse error');
  });

  it('/api/websub/hub: a publish ping is the documented 202, an invalid form the documented 400, an oversized one the documented 413', async () => {
    const operation = doc.paths['/api/websub/hub']!.post!;
    const form = { 'content-type': 'application/x-www-form-urlencoded' };
    const invalid = await fetch(`${server.url}/api/websub/hub`, {
      method: 'POST',
      headers: form,
      body: 'hub.mode=subscribe&hub.callback=http://example.org/cb&hub.topic=https://elsewhere.example/feed',
    });
    assert.notEqual(invalid.status, 404, 'the hub is documented and must be served');
    assert.equal(invalid.status, 400);
    await expectDocumented(invalid, documentedResponse(operation, '400'), 'hub 400');
    const publish = await fetch(`${server.url}/api/websub/hub`, {
      method: 'POST',
      headers: form,
      body: new URLSearchParams({ 'hub.mode': 'publish', 'hub.url': `${doc.servers[0]!.url}/feed.xml` }),
    });
    assert.equal(publish.status, 202);
    await expectDocumented(publish, documentedResponse(operation, '202'), 'hub 202 publish');
    const tooLarge = await fetch(`${server.url}/api/websub/hub`, {
      method: 'POST',
      headers: form,
      body: `hub.mode=publish&x=${'a'.repeat(70 * 1024)}`,
    });
    assert.equal(tooLarge.status, 413);
    await expectDocumented(tooLarge, documentedResponse(operation, '413'), 'hub 413');
  });
});

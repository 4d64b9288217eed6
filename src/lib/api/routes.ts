/**
 * The REST API's routes under /api/: which path is which endpoint, the methods
 * each allows (HEAD and an OPTIONS preflight wherever GET works), and a JSON 404
 * for every other path. The Node entry puts these routes in its one table
 * (src/node/dynamic-routes.ts); the Astro routes and serverless hosts call
 * handleApiRequest.
 */
import { fromRequest, toResponse, type ApiAnswer, type ApiRequest } from '../http/answer.ts';
import { preflightAnswer } from '../http/cors.ts';
import { invalidRequest, methodNotAllowed, notFound } from '../http/json.ts';
import type { ApiClient, ApiContext } from './context.ts';
import { searchEndpoint, sinceEndpoint } from './reviews-endpoints.ts';

const READ_METHODS = ['GET', 'HEAD'] as const;
const SEARCH_PATH = '/api/reviews/search';
const SINCE_PREFIX = '/api/reviews/since/';

export interface ApiRoute {
  /** `path` is canonical (src/node/request.ts); a trailing slash is the same route. */
  matches(path: string): boolean;
  /** `client` is who the rate limits count (the search's, on answers not cached). */
  answer(request: ApiRequest, context: ApiContext, client: ApiClient): ApiAnswer;
}

export const API_ROUTES: readonly ApiRoute[] = [
  {
    matches: (path) => withoutSlash(path) === SEARCH_PATH,
    answer: (request, context, client) => readOnly(request, () => searchEndpoint(request, context, client)),
  },
  {
    matches: (path) => sinceSegment(path) !== undefined,
    answer: (request, context) =>
      readOnly(request, () => {
        const date = decodeSegment(sinceSegment(request.path)!);
        return date === null
          ? invalidRequest([
              {
                code: 'invalid_format',
                path: ['date'],
                message: 'date: the path segment is not valid percent-encoding',
              },
            ])
          : sinceEndpoint(request, context, date);
      }),
  },
  {
    matches: (path) => path.startsWith('/api/'),
    answer: (request) => notFound(`No API endpoint lives at ${request.path}. See /openapi.json for the endpoints.`),
  },
];

function answerApi(request: ApiRequest, context: ApiContext, client: ApiClient): ApiAnswer {
  return (API_ROUTES.find((route) => route.matches(request.path)) ?? API_ROUTES.at(-1)!).answer(
    request,
    context,
    client,
  );
}

export function handleApiRequest(request: Request, context: ApiContext, client: ApiClient): Response {
  const answer = answerApi(fromRequest(request), context, client);
  if (request.method !== 'HEAD' || !answer.body) return toResponse(answer);
  return toResponse({
    ...answer,
    headers: { ...answer.headers, 'content-length': String(answer.body.byteLength) },
    body: null,
  });
}

function readOnly(request: ApiRequest, answer: () => ApiAnswer): ApiAnswer {
  if (request.method === 'GET' || request.method === 'HEAD') return answer();
  if (request.method === 'OPTIONS') return preflightAnswer(request.headers, READ_METHODS);
  return methodNotAllowed([...READ_METHODS, 'OPTIONS']);
}

function withoutSlash(path: string): string {
  return path.length > 1 && path.endsWith('/') ? path.replace(/\/+$/, '') : path;
}

/** The date segment of a since path, undefined for any other path. */
function sinceSegment(path: string): string | undefined {
  const trimmed = withoutSlash(path);
  if (!trimmed.startsWith(SINCE_PREFIX)) return undefined;
  const segment = trimmed.slice(SINCE_PREFIX.length);
  return segment !== '' && !segment.includes('/') ? segment : undefined;
}

function decodeSegment(segment: string): string | null {
  try {
    return decodeURIComponent(segment);
  } catch {
    return null;
  }
}

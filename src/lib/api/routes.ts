/**
 * The REST API's routing under /api/: which path is which endpoint, the
 * methods each allows (HEAD and an OPTIONS preflight wherever GET works), and a
 * JSON 404 for every other path. The Node entry calls answerApi directly; the
 * Astro routes and serverless hosts call handleApiRequest.
 */
import { fromRequest, toResponse, type ApiAnswer, type ApiRequest } from '../http/answer.ts';
import { preflightAnswer } from '../http/cors.ts';
import { invalidRequest, methodNotAllowed, notFound } from '../http/json.ts';
import type { ApiContext } from './context.ts';
import { searchEndpoint, sinceEndpoint } from './reviews-endpoints.ts';

const READ_METHODS = ['GET', 'HEAD'] as const;
const SEARCH_PATH = '/api/reviews/search';
const SINCE_PREFIX = '/api/reviews/since/';

export function answerApi(request: ApiRequest, context: ApiContext): ApiAnswer {
  const path = request.path.length > 1 && request.path.endsWith('/') ? request.path.replace(/\/+$/, '') : request.path;
  if (path === SEARCH_PATH) return readOnly(request, () => searchEndpoint(request, context));
  if (path.startsWith(SINCE_PREFIX)) {
    const segment = path.slice(SINCE_PREFIX.length);
    if (segment !== '' && !segment.includes('/')) {
      return readOnly(request, () => {
        const date = decodeSegment(segment);
        return date === null
          ? invalidRequest([{ code: 'invalid_format', path: ['date'], message: 'date: the path segment is not valid percent-encoding' }])
          : sinceEndpoint(request, context, date);
      });
    }
  }
  return notFound(`No API endpoint lives at ${request.path}. See /openapi.json for the endpoints.`);
}

export function handleApiRequest(request: Request, context: ApiContext): Response {
  const answer = answerApi(fromRequest(request), context);
  if (request.method !== 'HEAD' || !answer.body) return toResponse(answer);
  return toResponse({ ...answer, headers: { ...answer.headers, 'content-length': String(answer.body.byteLength) }, body: null });
}

function readOnly(request: ApiRequest, answer: () => ApiAnswer): ApiAnswer {
  if (request.method === 'GET' || request.method === 'HEAD') return answer();
  if (request.method === 'OPTIONS') return preflightAnswer(request.headers, READ_METHODS);
  return methodNotAllowed([...READ_METHODS, 'OPTIONS']);
}

function decodeSegment(segment: string): string | null {
  try {
    return decodeURIComponent(segment);
  } catch {
    return null;
  }
}

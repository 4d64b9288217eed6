/**
 * Runs a Web-standard handler (Request → Response) for a Node request: the form
 * every lib handler has, so the same code serves on Node and on serverless hosts.
 * The body is read first, within the route's limit, the process's budget for
 * unfinished bodies and a deadline (src/node/body-reader.ts); a body refused by
 * any of them is answered at once and its connection closed, since the rest of
 * it is never read.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ApiAnswer } from '../lib/http/answer.ts';
import { jsonAnswer, payloadTooLarge } from '../lib/http/json.ts';
import { readBody, type BodyBounds } from './body-reader.ts';
import { headersOf } from './request.ts';

export type WebHandler = (request: Request) => Response | Promise<Response>;

export interface BodyRoute {
  /** Bodies above this are answered 413 before the handler runs (0: no body is read). */
  maxBodyBytes: number;
  /** The answer to a body over the limit when the route has its own (MCP: a JSON-RPC error; default: the REST API's 413). */
  tooLarge?: (limit: number) => Response;
}

/** The refusal of a body the budget has no room for; Retry-After: a few seconds free most of a budget. */
const serverBusy = jsonAnswer(
  {
    error: 'server_busy',
    message: 'The server is receiving too many request bodies at once. Try again in a few seconds.',
  },
  { status: 503, headers: { 'retry-after': '5' } },
);

export async function runWebHandler(
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
  handler: WebHandler,
  route: BodyRoute,
  bounds: Omit<BodyBounds, 'maxBytes'>,
): Promise<void> {
  const method = req.method ?? 'GET';
  let body: Buffer | undefined;
  if (method !== 'GET' && method !== 'HEAD') {
    const read = await readBody(req, { ...bounds, maxBytes: route.maxBodyBytes });
    switch (read.kind) {
      case 'complete':
        body = read.body;
        break;
      case 'aborted':
        req.destroy();
        return;
      case 'too-large':
        closeAfterAnswer(res);
        return sendWebResponse((route.tooLarge ?? payloadTooLarge)(route.maxBodyBytes), res);
      case 'busy':
        closeAfterAnswer(res);
        return sendAnswer(serverBusy, res);
      case 'timeout':
        closeAfterAnswer(res);
        return sendAnswer(
          jsonAnswer(
            { error: 'request_timeout', message: `The request body did not arrive within ${bounds.deadlineMs} ms.` },
            { status: 408 },
          ),
          res,
        );
    }
  }
  const request = new Request(url, {
    method,
    headers: headersOf(req),
    body: body && body.length > 0 ? new Uint8Array(body) : undefined,
  });
  await sendWebResponse(await handler(request), res);
}

/**
 * Makes this answer the connection's last: the unread rest of the body could
 * not be told from a next request. The socket is destroyed once the answer is
 * out, so a stalled client holds nothing more.
 */
function closeAfterAnswer(res: ServerResponse): void {
  res.setHeader('connection', 'close');
  res.once('finish', () => res.socket?.destroy());
}

/** Writes a lib handler's answer as it is: no Response object on the hot path. */
export function sendAnswer(answer: ApiAnswer, res: ServerResponse): void {
  const headers =
    answer.body && !('content-length' in answer.headers)
      ? { ...answer.headers, 'content-length': String(answer.body.byteLength) }
      : answer.headers;
  res.writeHead(answer.status, headers);
  res.end(res.req?.method === 'HEAD' || !answer.body ? undefined : answer.body);
}

async function sendWebResponse(response: Response, res: ServerResponse): Promise<void> {
  const headers: Record<string, string | string[]> = {};
  response.headers.forEach((value, name) => {
    if (name === 'set-cookie') return;
    headers[name] = value;
  });
  const cookies = response.headers.getSetCookie();
  if (cookies.length > 0) headers['set-cookie'] = cookies;
  const body = response.body ? Buffer.from(await response.arrayBuffer()) : undefined;
  if (body && !('content-length' in headers)) headers['content-length'] = String(body.length);
  res.writeHead(response.status, headers);
  res.end(res.req?.method === 'HEAD' ? undefined : body);
}

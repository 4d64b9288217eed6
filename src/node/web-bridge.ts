/**
 * Runs a Web-standard handler (Request → Response) for a Node request: the form
 * every lib handler has, so the same code serves on Node and on serverless hosts.
 * The body is read first, within the route's limit, the process's budget for
 * unfinished bodies and a deadline (src/node/body-reader.ts); a body refused by
 * any of them is answered at once and its connection closed, since the rest of
 * it is never read. The answer goes out under the bounds on unread answers
 * (AnswerBounds).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ApiAnswer } from '../lib/http/answer.ts';
import { jsonAnswer, payloadTooLarge } from '../lib/http/json.ts';
import { readBody, type BodyBounds, type BodyBudget } from './body-reader.ts';
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

/** The refusal of an answer the budget of unread answers has no room for. */
const answersBusy = jsonAnswer(
  {
    error: 'server_busy',
    message: 'The server holds too many answers that their clients have not read yet. Try again in a few seconds.',
  },
  { status: 503, headers: { 'retry-after': '5' } },
);

/**
 * The bounds on answers on their way out: the process-wide count of bytes of
 * finished answers not yet taken by their clients (as BodyBudget counts
 * bodies coming in), and the time a client has to take a whole answer.
 */
export interface AnswerBounds {
  budget: BodyBudget;
  deadlineMs: number;
}

/** Written in pieces of this size, each when the socket has taken the last (backpressure). */
const ANSWER_CHUNK_BYTES = 64 * 1024;

export async function runWebHandler(
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
  handler: WebHandler,
  route: BodyRoute,
  bounds: Omit<BodyBounds, 'maxBytes'>,
  answers: AnswerBounds,
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
  // No work for an answer there is no room to hold.
  if (answers.budget.held >= answers.budget.limitBytes) return sendAnswer(answersBusy, res);
  const request = new Request(url, {
    method,
    headers: headersOf(req),
    body: body && body.length > 0 ? new Uint8Array(body) : undefined,
  });
  await sendWebResponse(await handler(request), res, answers);
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

/**
 * Writes a lib handler's answer as it is: no Response object on the hot path.
 * `first`: headers that come before the answer's own (the security headers),
 * written in the same one object: headers given to res.setHeader beforehand
 * would make Node check and copy every header of the answer again.
 */
export function sendAnswer(answer: ApiAnswer, res: ServerResponse, first?: Readonly<Record<string, string>>): void {
  res.writeHead(answer.status, headersToWrite(answer, first));
  res.end(res.req?.method === 'HEAD' || !answer.body ? undefined : answer.body);
}

/** For each `first` object, the answers' header objects with it in front, made once per (kept) header object. */
const withFirst = new WeakMap<object, WeakMap<object, Record<string, string>>>();

function headersToWrite(
  answer: ApiAnswer,
  first: Readonly<Record<string, string>> | undefined,
): Record<string, string> {
  if (answer.body && !('content-length' in answer.headers))
    return { ...first, ...answer.headers, 'content-length': String(answer.body.byteLength) };
  if (!first) return answer.headers;
  let merged = withFirst.get(first);
  if (!merged) withFirst.set(first, (merged = new WeakMap()));
  let headers = merged.get(answer.headers);
  if (!headers) merged.set(answer.headers, (headers = { ...first, ...answer.headers }));
  return headers;
}

/**
 * Writes a Web Response. With `answers`, its body's bytes are reserved in the
 * budget of unread answers (or the answer is refused 503 when they do not
 * fit), written with backpressure, and given back once the socket has taken
 * them all or closed; a client that has not taken them by the deadline loses
 * the connection, so a crowd of clients that never read cannot hold the
 * process's memory.
 */
async function sendWebResponse(response: Response, res: ServerResponse, answers?: AnswerBounds): Promise<void> {
  const headers: Record<string, string | string[]> = {};
  response.headers.forEach((value, name) => {
    if (name === 'set-cookie') return;
    headers[name] = value;
  });
  const cookies = response.headers.getSetCookie();
  if (cookies.length > 0) headers['set-cookie'] = cookies;
  const body = response.body ? Buffer.from(await response.arrayBuffer()) : undefined;
  if (body && !('content-length' in headers)) headers['content-length'] = String(body.length);
  const sent = res.req?.method === 'HEAD' ? undefined : body;
  if (!answers || !sent || sent.length === 0) {
    res.writeHead(response.status, headers);
    res.end(sent);
    return;
  }
  // The client went away while the answer was made: nobody to hold it for.
  if (res.destroyed) return;
  const { budget } = answers;
  if (budget.held + sent.length > budget.limitBytes) return sendAnswer(answersBusy, res);
  budget.held += sent.length;
  let held = true;
  const release = () => {
    if (!held) return;
    held = false;
    budget.held -= sent.length;
    clearTimeout(timer);
  };
  const timer = setTimeout(() => {
    release();
    res.destroy();
  }, answers.deadlineMs);
  res.once('finish', release).once('close', release);
  res.writeHead(response.status, headers);
  let offset = 0;
  const pump = () => {
    while (offset < sent.length) {
      const chunk = sent.subarray(offset, offset + ANSWER_CHUNK_BYTES);
      offset += chunk.length;
      if (offset >= sent.length) {
        res.end(chunk);
        return;
      }
      if (!res.write(chunk)) {
        res.once('drain', pump);
        return;
      }
    }
  };
  pump();
}

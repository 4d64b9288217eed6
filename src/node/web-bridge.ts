/**
 * Runs a Web-standard handler (Request → Response) for a Node request: the form
 * every lib handler has, so the same code serves on Node and on serverless hosts.
 * Request bodies are read up to a limit; past it the answer is 413 at once.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ApiAnswer } from '../lib/http/answer.ts';
import { payloadTooLarge } from '../lib/http/json.ts';
import { headersOf } from './request.ts';

export type WebHandler = (request: Request) => Response | Promise<Response>;

export async function runWebHandler(
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
  handler: WebHandler,
  maxBodyBytes: number,
  /** The answer to a body over the limit (default: the REST API's 413). */
  tooLarge: (limit: number) => Response = payloadTooLarge,
): Promise<void> {
  const method = req.method ?? 'GET';
  let body: Buffer | undefined;
  if (method !== 'GET' && method !== 'HEAD') {
    const read = await readBody(req, maxBodyBytes);
    if (read === 'too-large') {
      res.setHeader('connection', 'close');
      await sendWebResponse(tooLarge(maxBodyBytes), res);
      req.destroy();
      return;
    }
    body = read;
  }
  const request = new Request(url, { method, headers: headersOf(req), body: body && body.length > 0 ? new Uint8Array(body) : undefined });
  await sendWebResponse(await handler(request), res);
}

function readBody(req: IncomingMessage, limit: number): Promise<Buffer | 'too-large'> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) return Promise.resolve('too-large');
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        req.off('data', onData);
        req.pause();
        resolve('too-large');
        return;
      }
      chunks.push(chunk);
    };
    req.on('data', onData);
    req.once('end', () => resolve(Buffer.concat(chunks)));
    req.once('error', reject);
  });
}

/** Writes a lib handler's answer as it is: no Response object on the hot path. */
export function sendAnswer(answer: ApiAnswer, res: ServerResponse): void {
  const headers = answer.body && !('content-length' in answer.headers) ? { ...answer.headers, 'content-length': String(answer.body.byteLength) } : answer.headers;
  res.writeHead(answer.status, headers);
  res.end(res.req?.method === 'HEAD' || !answer.body ? undefined : answer.body);
}

export async function sendWebResponse(response: Response, res: ServerResponse): Promise<void> {
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

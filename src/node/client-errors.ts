/**
 * What the Node server answers when a request never reaches a handler: the
 * HTTP parser refused it (a request line or headers over Node's 16 KiB limit,
 * broken syntax) or Node's own request/header timeout fired. Without a
 * `clientError` listener Node writes a bare status line with no body; every
 * other refusal of ours is a small JSON error, so these are too.
 */
import type { Socket } from 'node:net';

const REFUSALS: Record<string, { status: string; error: string; message: string }> = {
  HPE_HEADER_OVERFLOW: {
    status: '431 Request Header Fields Too Large',
    error: 'headers_too_large',
    message: 'The request line and headers may be at most 16 KiB together.',
  },
  ERR_HTTP_REQUEST_TIMEOUT: {
    status: '408 Request Timeout',
    error: 'request_timeout',
    message: 'The request did not arrive in time.',
  },
  ERR_HTTP_HEADERS_TIMEOUT: {
    status: '408 Request Timeout',
    error: 'request_timeout',
    message: 'The request headers did not arrive in time.',
  },
};
const MALFORMED = { status: '400 Bad Request', error: 'bad_request', message: 'The request is not valid HTTP/1.1.' };

/** Without an answer when the socket can take none (reset, or a response already under way). */
export function answerClientError(error: NodeJS.ErrnoException, socket: Socket): void {
  const inFlight = (socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
  if (error.code === 'ECONNRESET' || !socket.writable || inFlight?.headersSent) {
    socket.destroy();
    return;
  }
  const refusal = (error.code && REFUSALS[error.code]) || MALFORMED;
  const body = `${JSON.stringify({ error: refusal.error, message: refusal.message })}\n`;
  socket.end(
    `HTTP/1.1 ${refusal.status}\r\n` +
      'Content-Type: application/json; charset=utf-8\r\n' +
      `Content-Length: ${Buffer.byteLength(body)}\r\n` +
      'Cache-Control: no-store\r\n' +
      'X-Content-Type-Options: nosniff\r\n' +
      'Access-Control-Allow-Origin: *\r\n' +
      'Connection: close\r\n\r\n' +
      body,
  );
}

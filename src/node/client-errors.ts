/**
 * What the Node server answers when a request never reaches a handler: the
 * HTTP parser refused it (a request line or headers over Node's 16 KiB limit,
 * broken syntax) or Node's own request/header timeout fired. Without a
 * `clientError` listener Node writes a bare status line with no body; every
 * other refusal of ours is a small JSON error, so these are too, with the
 * security headers every answer carries. And CONNECT, which Node never hands
 * to the request handler.
 */
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { securityHeadersFor } from '../lib/http/security-headers.ts';

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
  writeLastAnswer(socket, refusal.status, { error: refusal.error, message: refusal.message });
}

/**
 * CONNECT (to any path or authority): no proxy and no tunnel here, so the 405
 * every other refused method gets, written on the socket Node hands over.
 */
export function refuseConnect(socket: Duplex, allowed: readonly string[]): void {
  const allow = allowed.join(', ');
  writeLastAnswer(
    socket,
    '405 Method Not Allowed',
    { error: 'method_not_allowed', message: `Use ${allow}.` },
    `Allow: ${allow}\r\n`,
  );
}

/** A small JSON error with the headers every answer carries, then the connection closes. */
function writeLastAnswer(socket: Duplex, status: string, error: { error: string; message: string }, extra = ''): void {
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  const body = `${JSON.stringify(error)}\n`;
  const security = Object.entries(securityHeadersFor('/'))
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('');
  socket.end(
    `HTTP/1.1 ${status}\r\n` +
      'Content-Type: application/json; charset=utf-8\r\n' +
      `Content-Length: ${Buffer.byteLength(body)}\r\n` +
      'Cache-Control: no-store\r\n' +
      security +
      'Access-Control-Allow-Origin: *\r\n' +
      extra +
      'Connection: close\r\n\r\n' +
      body,
  );
}

/**
 * Reads a Node request body under three bounds: the route's size limit, the
 * process-wide budget of bytes held for unfinished bodies, and a deadline for
 * the whole body. Bytes are counted as they arrive, not taken from
 * Content-Length alone, so chunked bodies are bounded the same way.
 */
import type { IncomingMessage } from 'node:http';

/**
 * The process-wide count of bytes held for bodies not yet complete: a body
 * reserves what it declares before a byte is read, and more as bytes beyond
 * that arrive; a reservation that does not fit is refused, so a crowd of
 * unfinished bodies cannot grow memory past `limitBytes`.
 */
export interface BodyBudget {
  limitBytes: number;
  held: number;
}

function reserve(budget: BodyBudget, bytes: number): boolean {
  if (budget.held + bytes > budget.limitBytes) return false;
  budget.held += bytes;
  return true;
}

export interface BodyBounds {
  /** The route's limit (413 past it). */
  maxBytes: number;
  budget: BodyBudget;
  deadlineMs: number;
}

export type BodyRead =
  | { kind: 'complete'; body: Buffer }
  /** Over the route's limit, declared or counted. */
  | { kind: 'too-large' }
  /** The budget has no room for it: refused before it is buffered. */
  | { kind: 'busy' }
  /** Not complete by the deadline. */
  | { kind: 'timeout' }
  /** The client went away first: nobody to answer. */
  | { kind: 'aborted' };

export function readBody(req: IncomingMessage, { maxBytes, budget, deadlineMs }: BodyBounds): Promise<BodyRead> {
  // Node's parser has refused a malformed Content-Length already; none (chunked) reserves as bytes come.
  const declared = Number(req.headers['content-length'] ?? 0) || 0;
  if (declared > maxBytes) return Promise.resolve({ kind: 'too-large' });
  if (!reserve(budget, declared)) return Promise.resolve({ kind: 'busy' });
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let received = 0;
    let reserved = declared;
    const settle = (read: BodyRead) => {
      clearTimeout(timer);
      req.off('data', onData).off('end', onEnd).off('error', onGone).off('close', onGone);
      // Complete bodies leave the budget too: it counts only what is still arriving.
      budget.held -= reserved;
      reserved = 0;
      if (read.kind !== 'complete') req.pause();
      resolve(read);
    };
    const onData = (chunk: Buffer) => {
      received += chunk.length;
      if (received > maxBytes) return settle({ kind: 'too-large' });
      if (received > reserved) {
        if (!reserve(budget, received - reserved)) return settle({ kind: 'busy' });
        reserved = received;
      }
      chunks.push(chunk);
    };
    const onEnd = () => settle({ kind: 'complete', body: Buffer.concat(chunks, received) });
    const onGone = () => settle({ kind: 'aborted' });
    const timer = setTimeout(() => settle({ kind: 'timeout' }), deadlineMs);
    req.on('data', onData).once('end', onEnd).once('error', onGone).once('close', onGone);
  });
}

/**
 * A raw POST whose body never finishes: headers, part of the body, then
 * silence, as a slow or hostile client sends it. Shared by the unfinished-body
 * test and bench/reliability/unfinished-bodies.ts.
 */
import { connect, type Socket } from 'node:net';

export interface BodyReply {
  status: number;
  headers: Record<string, string>;
  body: string;
}

export interface OpenBody {
  socket: Socket;
  /** The answer once the server closes the connection; rejects if it stays open past `timeoutMs`. */
  closed(timeoutMs: number): Promise<BodyReply>;
}

/**
 * Opens a connection and sends a POST to `path` with `send` bytes of body.
 * With `declared` the body has that Content-Length; without, it is chunked
 * (one chunk of `send` bytes, no last chunk).
 */
export function openBody(
  port: number,
  path: string,
  { declared, send }: { declared?: number; send: number },
): OpenBody {
  const socket = connect(port, '127.0.0.1');
  const framing = declared === undefined ? 'transfer-encoding: chunked' : `content-length: ${declared}`;
  const head = `POST ${path} HTTP/1.1\r\nhost: 127.0.0.1:${port}\r\ncontent-type: application/json\r\naccept: application/json, text/event-stream\r\n${framing}\r\n\r\n`;
  const body = spaces(send);
  socket.write(head);
  if (declared === undefined) socket.write(`${send.toString(16)}\r\n`);
  socket.write(body);
  if (declared === undefined) socket.write('\r\n');
  const received: Buffer[] = [];
  socket.on('data', (chunk: Buffer) => received.push(chunk));
  // A reset after the answer (the server hung up on unread bytes) still ends the connection.
  socket.on('error', () => {});
  const ended = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  return {
    socket,
    async closed(timeoutMs) {
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(
          () => reject(new Error(`the server kept the connection open past ${timeoutMs} ms`)),
          timeoutMs,
        );
      });
      try {
        await Promise.race([ended, timeout]);
      } finally {
        clearTimeout(timer);
      }
      return parseReply(Buffer.concat(received).toString('latin1'));
    },
  };
}

/** Body bytes (spaces: valid JSON padding), one buffer per size for every connection: 200 bodies must not cost the client 200 MiB. */
const bodies = new Map<number, Buffer>();
function spaces(size: number): Buffer {
  let body = bodies.get(size);
  if (!body) bodies.set(size, (body = Buffer.alloc(size, 0x20)));
  return body;
}

function parseReply(raw: string): BodyReply {
  const split = raw.indexOf('\r\n\r\n');
  if (split < 0) return { status: 0, headers: {}, body: raw };
  const [statusLine = '', ...lines] = raw.slice(0, split).split('\r\n');
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  return { status: Number(statusLine.split(' ')[1]), headers, body: raw.slice(split + 4) };
}

/**
 * The baseline: a bare node:http server that answers each benchmark URL with
 * the bytes the real server gave for it (status, the same header set, body),
 * captured once up front. Per request it does a Map lookup and one writeHead +
 * end, nothing else, so the real server's rate over this one is the share of
 * Node's own HTTP cost that our code leaves.
 *
 * `node bench/lib/bare-server.ts CAPTURE.json` listens on 127.0.0.1, a free
 * port, and prints "on http://127.0.0.1:PORT" like src/server.ts does.
 */
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';

interface CapturedAnswer {
  status: number;
  /** Lower-case names; what Node adds itself (date, connection, keep-alive) is left out. */
  headers: Record<string, string>;
  bodyBase64: string;
}

/** Request path with query → its answer. */
export type Capture = Record<string, CapturedAnswer>;

/** Headers Node's server writes itself on every answer; the capture leaves them out. */
export const NODE_OWN_HEADERS = new Set(['date', 'connection', 'keep-alive', 'transfer-encoding']);

if (import.meta.main) {
  const capture = JSON.parse(readFileSync(process.argv[2] as string, 'utf8')) as Capture;
  const answers = new Map(
    Object.entries(capture).map(([path, answer]) => [
      path,
      { status: answer.status, headers: answer.headers, body: Buffer.from(answer.bodyBase64, 'base64') },
    ]),
  );
  const server = createServer((req, res) => {
    const answer = answers.get(req.url ?? '');
    if (!answer) {
      res.writeHead(404, { 'content-length': '0' });
      res.end();
      return;
    }
    res.writeHead(answer.status, answer.headers);
    res.end(answer.body);
  });
  server.keepAliveTimeout = 65_000; // as src/server.ts
  server.listen(0, '127.0.0.1', () => {
    const address = server.address();
    console.log(`bare server on http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`);
  });
  process.once('SIGTERM', () => {
    server.close(() => process.exit(0));
    server.closeIdleConnections();
    setTimeout(() => process.exit(0), 2_000).unref();
  });
}

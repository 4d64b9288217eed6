/** Small fetch helpers shared by the HTTP tests. */
import { createHash } from 'node:crypto';
import { request } from 'node:http';

export function sha256Etag(bytes: Uint8Array): string {
  return `"${createHash('sha256').update(bytes).digest('base64url')}"`;
}

/**
 * Node's fetch adds `Cache-Control: no-cache` to conditional requests unless the
 * request names a cache directive itself; `max-age=0` keeps the request conditional.
 */
export function conditional(headers: Record<string, string>): Record<string, string> {
  return { 'cache-control': 'max-age=0', ...headers };
}

export async function bytesOf(response: Response): Promise<Buffer> {
  return Buffer.from(await response.arrayBuffer());
}

/** A GET without fetch's transparent decompression, to see the encoded bytes. */
export function rawGet(port: number, path: string, headers: Record<string, string>, method = 'GET') {
  return new Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }>(
    (resolveGet, reject) => {
      const req = request({ host: '127.0.0.1', port, path, headers, method }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk) => chunks.push(chunk));
        res.on('end', () =>
          resolveGet({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
        );
      });
      req.on('error', reject);
      req.end();
    },
  );
}

/**
 * Sends a file too large to keep in memory (reviews.json uncompressed, 5.7 MB
 * at 10k reviews) through one buffer per response, refilled only once the
 * socket has taken the previous chunk. fs.createReadStream allocates a new
 * 64 KiB buffer for every read (88 for that file), each freed only when V8
 * next collects its object: at 150 such answers a second that was about
 * 0.9 GB/s of native allocations, and the process's RSS rose by tens of MiB
 * that malloc kept (docs/reliability.md, mixed load).
 */
import { close, read } from 'node:fs';
import type { ServerResponse } from 'node:http';

/** Bytes read per chunk: the size fs.createReadStream reads too. */
export const CHUNK_BYTES = 64 * 1024;

/**
 * Writes `size` bytes of the open file `fd` as the body of `res` (its headers
 * already set), then ends it; closes `fd` in every case, once. A read error or
 * a file shorter than `size` destroys the response: its Content-Length
 * promised bytes that cannot come.
 */
export function sendFile(res: ServerResponse, fd: number, size: number): void {
  let closed = false;
  const release = () => {
    if (closed) return;
    closed = true;
    close(fd, () => {});
  };
  // A client gone mid-body: its write callback may never run, the close does.
  res.once('close', release);
  const buffer = Buffer.allocUnsafeSlow(Math.max(1, Math.min(CHUNK_BYTES, size)));
  let position = 0;
  const next = () => {
    if (res.destroyed) return release();
    if (position >= size) {
      release();
      res.end();
      return;
    }
    read(fd, buffer, 0, Math.min(buffer.length, size - position), position, (error, bytes) => {
      if (error || bytes === 0) {
        release();
        res.destroy();
        return;
      }
      position += bytes;
      // The callback runs once the socket has written the chunk: only then is the buffer free to refill.
      res.write(buffer.subarray(0, bytes), (writeError) => (writeError ? release() : next()));
    });
  };
  next();
}

/**
 * The reused buffers of the answers too large to cache (a since page of 1,000
 * reviews): the pool's own rules, then the since endpoint in process over the
 * 10k build's dataset with and without them: the same bytes and validators,
 * the body lent only while the answer is out, a 304 giving it back at once, and
 * nothing lent cached. Then the Node entry's writer (sendAnswer) over a real
 * socket whose client reads late: the buffer comes back only once the response
 * is over. (since-pages.test.ts walks the lent pages through the built server.)
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { once } from 'node:events';
import { createServer } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { describe, it } from 'node:test';
import { AnswerBuffers, MAX_LENT_BYTES } from '../../src/lib/api/answer-buffers.ts';
import { MAX_KEPT_BODY_BYTES } from '../../src/lib/api/cached-json.ts';
import type { ApiContext } from '../../src/lib/api/context.ts';
import { cacheFor, sinceEndpoint } from '../../src/lib/api/reviews-endpoints.ts';
import type { ApiRequest } from '../../src/lib/http/answer.ts';
import { sendAnswer } from '../../src/node/web-bridge.ts';
import { BUILDS } from '../helpers/builds.ts';

describe('AnswerBuffers', () => {
  it('lends exactly the size asked for, and reuses a released buffer for the next answer that fits', () => {
    const buffers = new AnswerBuffers();
    const first = buffers.take(300_000)!;
    assert.equal(first.bytes.byteLength, 300_000);
    first.bytes.fill(7);
    const underlying = first.bytes.buffer;
    first.release();
    assert.equal(buffers.freeCount, 1);
    const second = buffers.take(290_000)!;
    assert.equal(second.bytes.buffer, underlying, 'the released memory is lent again');
    assert.equal(second.bytes.byteLength, 290_000);
    assert.equal(buffers.freeCount, 0);
  });

  it('never lends one buffer twice at once, even when a lease is released twice', () => {
    const buffers = new AnswerBuffers();
    const a = buffers.take(100_000)!;
    const b = buffers.take(100_000)!;
    assert.notEqual(a.bytes.buffer, b.bytes.buffer);
    a.release();
    a.release();
    assert.equal(buffers.freeCount, 1, 'a second release gives nothing back');
    const c = buffers.take(100_000)!;
    const d = buffers.take(100_000)!;
    assert.notEqual(c.bytes.buffer, d.bytes.buffer);
    assert.notEqual(d.bytes.buffer, b.bytes.buffer, 'b is still out');
  });

  it('keeps at most four free buffers, the largest ones, and lends nothing above its limit', () => {
    const buffers = new AnswerBuffers();
    const leases = [1, 2, 3, 4, 5, 6].map((n) => buffers.take(n * 200_000)!);
    for (const lease of leases) lease.release();
    assert.equal(buffers.freeCount, 4);
    const big = buffers.take(1_200_000)!;
    assert.equal(big.bytes.buffer, leases[5]!.bytes.buffer, 'the largest was kept');
    assert.equal(buffers.take(MAX_LENT_BYTES + 1), undefined);
  });
});

describe('since pages in lent buffers (10k reviews, in process)', () => {
  const dataset = JSON.parse(readFileSync(resolve(BUILDS.large.outDir, 'client/reviews.json'), 'utf8'));
  const request = (date: string, headers: Record<string, string> = {}): ApiRequest => ({
    method: 'GET',
    path: `/api/reviews/since/${date}`,
    search: '',
    headers: { get: (name) => headers[name] ?? null },
  });

  it('answers the same bytes and validators as an allocated page, lends its body until released, and caches nothing lent', () => {
    const buffers = new AnswerBuffers();
    const lending: ApiContext = { site: 'https://example.test', dataset, answerBuffers: buffers };
    const allocating: ApiContext = { site: 'https://example.test', dataset };
    const plain = sinceEndpoint(request('0001-01-01'), allocating, '0001-01-01');
    assert.ok(plain.body && plain.body.byteLength > MAX_KEPT_BODY_BYTES, 'a page too large to cache');
    assert.equal(plain.release, undefined);

    const lent = sinceEndpoint(request('0001-01-01'), lending, '0001-01-01');
    assert.equal(lent.status, 200);
    assert.deepEqual(lent.headers, plain.headers);
    assert.deepEqual(lent.body, plain.body);
    assert.ok(lent.release, 'the body is lent');
    assert.equal(buffers.freeCount, 0, 'out while the answer is');
    // A second page while the first is still out gets its own memory.
    const next = JSON.parse(new TextDecoder().decode(plain.body)).next_date as string;
    const other = sinceEndpoint(request(next), lending, next);
    assert.notEqual(other.body!.buffer, lent.body!.buffer);
    assert.deepEqual(lent.body, plain.body, 'the first body is untouched by the second');
    lent.release();
    other.release!();
    assert.equal(buffers.freeCount, 2);
    assert.deepEqual([...cacheFor(lending).keys()], [], 'lent bodies are never cached');

    // A 304 sends no body: the buffer goes back before the answer is returned.
    const notModified = sinceEndpoint(request('0001-01-01', { 'if-none-match': plain.headers.etag! }), lending, '0001-01-01');
    assert.equal(notModified.status, 304);
    assert.equal(notModified.body, null);
    assert.equal(notModified.release, undefined);
    assert.equal(buffers.freeCount, 2);
  });
});

describe('a lent body written by the Node entry', () => {
  it('goes back only when its response is over, not while the socket still holds its bytes', async () => {
    // Larger than a loopback socket takes at once, so most of it waits in the server's write queue
    // while the client does not read (a 570 KB page is taken whole on loopback, not on a slow network).
    const size = MAX_LENT_BYTES;
    const buffers = new AnswerBuffers();
    const taken: ArrayBufferLike[] = [];
    const server = createServer((_req, res) => {
      const lease = buffers.take(size)!;
      lease.bytes.fill(0x41);
      taken.push(lease.bytes.buffer);
      sendAnswer({ status: 200, headers: { 'content-type': 'application/octet-stream' }, body: lease.bytes, release: lease.release }, res);
      // The next large answer, made while this one is still being sent: it must get other memory.
      setImmediate(() => {
        const next = buffers.take(size)!;
        next.bytes.fill(0x42);
        taken.push(next.bytes.buffer);
        next.release();
      });
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    try {
      const socket = connect((server.address() as AddressInfo).port, '127.0.0.1');
      await once(socket, 'connect');
      socket.pause();
      socket.write('GET / HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n');
      await new Promise((resolveWait) => setTimeout(resolveWait, 200));
      assert.equal(buffers.freeCount, 1, 'only the second buffer is free while the first answer is out');
      const chunks: Buffer[] = [];
      for await (const chunk of socket) chunks.push(chunk as Buffer);
      const received = Buffer.concat(chunks);
      const body = received.subarray(received.indexOf('\r\n\r\n') + 4);
      assert.equal(body.length, size);
      assert.equal(body.indexOf(0x42), -1, 'no byte of the later answer in this one');
      await new Promise((resolveWait) => setImmediate(resolveWait));
      assert.equal(buffers.freeCount, 2, 'both back once the response closed');
      assert.notEqual(taken[1], taken[0], 'the second answer had memory of its own');
    } finally {
      server.close();
    }
  });
});

/**
 * Verification stops reading a callback's answer once it has the challenge's
 * length + 1 bytes (issue 14, item 5): a callback that sends the challenge and
 * then streams without end is refused at once, not read until the deadline.
 */
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:https';
import { getCACertificates, setDefaultCACertificates } from 'node:tls';
import { after, before, it } from 'node:test';
import { verifyIntent } from '../../src/lib/websub/verify.ts';
import { makeTestCerts, type TestCerts } from '../helpers/certs.ts';
import { timed } from './helpers.ts';

const TIMEOUT_MS = 8000;
let certs: TestCerts;
let server: Server;
let base: string;
/** Bytes the streaming callback managed to write before the hub hung up. */
let streamed = 0;

before(async () => {
  certs = makeTestCerts();
  setDefaultCACertificates([...getCACertificates('default'), certs.ca]);
  server = createServer({ key: certs.key, cert: certs.cert }, (req, res) => {
    const challenge = new URL(req.url!, 'https://x').searchParams.get('hub.challenge') ?? '';
    res.writeHead(200, { 'content-type': 'text/plain' });
    if (req.url!.startsWith('/exact')) return void res.end(challenge);
    // The challenge, then a megabyte at a time for as long as anyone reads.
    res.write(challenge);
    const chunk = Buffer.alloc(1024 * 1024, 'x');
    const more = () => {
      while (!res.destroyed && res.write(chunk)) streamed += chunk.length;
      if (!res.destroyed) res.once('drain', more);
    };
    res.once('close', () => res.removeAllListeners('drain'));
    more();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  base = `https://127.0.0.1:${(server.address() as { port: number }).port}`;
});
after(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve));
  certs?.remove();
});

const outbound = { allowLoopback: true, timeoutMs: TIMEOUT_MS, userAgent: 'reliability-test' };
const intent = (path: string) => ({
  mode: 'subscribe' as const,
  callback: `${base}${path}`,
  topic: 'https://reviews.example/feed.xml',
  leaseSeconds: 3600,
});

it('a callback answering exactly the challenge is verified', async () => {
  const outcome = await verifyIntent(intent('/exact'), outbound);
  assert.deepEqual(outcome, { verified: true, detail: 'verified', address: '127.0.0.1' });
});

it('a callback sending the challenge then an endless body is refused at once, not read until the deadline', async () => {
  const { value, ms } = await timed(() => verifyIntent(intent('/endless'), outbound));
  assert.equal(value.verified, false);
  assert.equal(value.detail, 'answered a body other than the challenge');
  assert.ok(ms < 1500, `refused after ${ms} ms (the deadline is ${TIMEOUT_MS} ms)`);
  console.log(
    `endless callback refused in ${ms} ms; it had written ${(streamed / 1048576).toFixed(1)} MiB into the socket buffers`,
  );
});

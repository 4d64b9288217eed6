/**
 * The hub's outbound requests share one TLS context. A context made per
 * request (https.request's default) is an OpenSSL SSL_CTX that V8 does not
 * count: subscribes naming a dead callback piled them up by the hundred MiB
 * before a full collection (docs/reliability.md, mixed load).
 */
import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import { it } from 'node:test';
import tls from 'node:tls';
import { outboundTlsContext, sendOutbound } from '../../src/lib/websub/outbound.ts';

/** A loopback port nobody listens on: every connection is refused. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

it('makes no TLS context per request: every request uses the one shared context', async () => {
  const port = await closedPort();
  const shared = outboundTlsContext();
  const original = tls.createSecureContext;
  let made = 0;
  // https.request → tls.connect looks the function up on the module object at call time.
  tls.createSecureContext = (...args: Parameters<typeof original>) => {
    made++;
    return original(...args);
  };
  try {
    for (let i = 0; i < 5; i++) {
      const result = await sendOutbound(
        { url: `https://127.0.0.1:${port}/callback`, method: 'GET' },
        { allowLoopback: true, timeoutMs: 2000, userAgent: 'test' },
      );
      assert.equal(result.ok, false, 'nobody listens there');
    }
  } finally {
    tls.createSecureContext = original;
  }
  assert.equal(made, 0, 'no context was made for a request');
  assert.equal(outboundTlsContext(), shared, 'the shared context stays the same');
});

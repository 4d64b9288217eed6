/**
 * The limit on never-seen searches (see search-flood.test.ts for the flood
 * itself) on its other paths: through the Astro route, over MCP on both
 * revisions, per client and per IPv6 /64; and its settings.
 *
 * The clients are told apart by X-Forwarded-For, believed from loopback
 * (TRUST_PROXY=loopback), as a proxy in front would send it.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { RATE_LIMITED_CODE } from '../../src/lib/mcp/scan-limit.ts';
import { startServer } from '../helpers/server.ts';
import { asClient, FLOODER, OTHER, startBehindProxy } from './behind-proxy.ts';
import { initialize, post, type RpcReply } from '../mcp/helpers.ts';

describe('the limit on the other paths and its settings', () => {
  it('through the Astro route (API_THROUGH_ASTRO), with the setting lowered: the same 429, per client', async () => {
    const server = await startBehindProxy('small', {
      API_THROUGH_ASTRO: 'true',
      SEARCH_MISS_RATE_LIMIT: '0.1',
      SEARCH_MISS_BURST: '2',
    });
    const search = (query: string, address: string) =>
      fetch(`${server.url}/api/reviews/search?query=${query}`, { headers: asClient(address) });
    assert.equal((await search('a', FLOODER)).status, 200);
    assert.equal((await search('b', FLOODER)).status, 200);
    const limited = await search('c', FLOODER);
    assert.equal(limited.status, 429);
    assert.ok(Number(limited.headers.get('retry-after')) >= 1);
    assert.equal((await limited.json()).error, 'rate_limited');
    assert.equal((await search('a', FLOODER)).status, 200, 'a cached answer is not limited');
    assert.equal((await search('c', OTHER)).status, 200, 'another client has its own bucket');
    // IPv6 clients count per /64.
    assert.equal((await search('d', '2001:db8:5:6::1')).status, 200);
    assert.equal((await search('e', '2001:db8:5:6::2')).status, 200);
    assert.equal((await search('f', '2001:db8:5:6::3')).status, 429, 'one /64, one bucket');
  });

  it('MCP searches and completions count against the same budget on both revisions; cached ones and lookups stay free', async () => {
    const server = await startBehindProxy('small', { SEARCH_MISS_RATE_LIMIT: '0.1', SEARCH_MISS_BURST: '2' });
    const mcp = `${server.url}/mcp`;
    const meta = {
      'io.modelcontextprotocol/protocolVersion': '2026-07-28',
      'io.modelcontextprotocol/clientCapabilities': {},
    };
    /** One 2026-07-28 request: no session, no initialize. */
    const modern = (address: string, method: string, params: Record<string, unknown>) =>
      post(
        mcp,
        { jsonrpc: '2.0', id: 7, method, params: { ...params, _meta: meta } },
        {
          ...asClient(address),
          'mcp-protocol-version': '2026-07-28',
          'mcp-method': method,
          ...(typeof params.name === 'string' ? { 'mcp-name': params.name } : {}),
        },
      );
    const search = (address: string, query: string) =>
      modern(address, 'tools/call', { name: 'search_reviews', arguments: { query } });
    const assertLimited = (reply: RpcReply, what: string) => {
      assert.equal(reply.status, 200, what);
      assert.equal(reply.json.error?.code, RATE_LIMITED_CODE, `${what}: ${reply.text.slice(0, 300)}`);
      assert.match(reply.json.error.message, /try again in \d+ s/, what);
      assert.ok(reply.json.error.data.retry_after_seconds >= 1, what);
      assert.equal(reply.json.id, 7, what);
    };

    // The REST search and the MCP one draw from one bucket of 2.
    assert.equal((await fetch(`${server.url}/api/reviews/search?query=a`, { headers: asClient(FLOODER) })).status, 200);
    assert.ok((await search(FLOODER, 'b')).json.result?.structuredContent, 'the first MCP search answers');
    assertLimited(await search(FLOODER, 'c'), '2026-07-28 search');
    assertLimited(
      await modern(FLOODER, 'completion/complete', {
        ref: { type: 'ref/prompt', name: 'draft_reply' },
        argument: { name: 'review_id', value: '2024' },
      }),
      'a completion that scans the ids',
    );
    assert.equal(
      (await fetch(`${server.url}/api/reviews/search?query=c`, { headers: asClient(FLOODER) })).status,
      429,
      'MCP spent the REST budget too',
    );
    // Asked before (over MCP or REST): answered, not counted.
    assert.ok((await search(FLOODER, 'b')).json.result?.structuredContent, 'a repeated MCP search answers');
    // Lookups that scan nothing are not counted.
    const business = await modern(FLOODER, 'tools/call', { name: 'get_business', arguments: {} });
    assert.ok(business.json.result?.structuredContent, business.text.slice(0, 200));

    // The 2025 session path: a session opened, then its searches are counted in the same bucket.
    const { sessionId } = await initialize(mcp, '2025-06-18', asClient(FLOODER));
    const session = { ...asClient(FLOODER), 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-06-18' };
    const call = (query: string) =>
      post(
        mcp,
        { jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'search_reviews', arguments: { query } } },
        session,
      );
    assertLimited(await call('d'), '2025-06-18 search');
    assert.ok((await call('b')).json.result?.structuredContent, 'a search asked before answers on a session too');

    // Another client has its own bucket.
    assert.ok((await search(OTHER, 'c')).json.result?.structuredContent, 'another client searches');
  });

  it('SEARCH_MISS_RATE_LIMIT=off answers every search; a bad setting stops the start with what to write', async () => {
    const server = await startBehindProxy('small', { SEARCH_MISS_RATE_LIMIT: 'off' });
    const statuses = await Promise.all(
      Array.from({ length: 60 }, (_, i) => fetch(`${server.url}/api/reviews/search?query=q${i}`).then((r) => r.status)),
    );
    assert.deepEqual(new Set(statuses), new Set([200]));
    await assert.rejects(
      startServer('small', { SEARCH_MISS_RATE_LIMIT: 'fast' }),
      /SEARCH_MISS_RATE_LIMIT must be a number of searches per second above 0, or "off"/,
    );
    await assert.rejects(
      startServer('small', { SEARCH_MISS_BURST: '0' }),
      /SEARCH_MISS_BURST must be a whole number, at least 1/,
    );
  });
});

/**
 * The replay (src/lib/mcp/replay.ts) answers byte-for-byte what the SDK path
 * answers: two endpoints over the same catalog and session key, one with the
 * replay and one sending every request through the SDK, get the same table
 * of requests (both eras; results, tool errors, protocol errors, wrong
 * headers, ended and forged sessions) and must agree on status, headers and
 * body. Every request is sent three times with different ids; the third of
 * those the replay should answer must not reach the catalog.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, it } from 'node:test';
import { createCatalog, type McpCatalog } from '../../src/lib/mcp/catalog.ts';
import { createMcpEndpoint } from '../../src/lib/mcp/http-handler.ts';
import { SessionSigner } from '../../src/lib/mcp/session.ts';
import { BUILDS } from '../helpers/builds.ts';
import { ACCEPT } from './helpers.ts';

const SITE = 'http://localhost:4321';
const client = (name: string) => resolve(BUILDS.content.outDir, 'client', name);
const dataset = JSON.parse(readFileSync(client('reviews.json'), 'utf8'));
const insights = JSON.parse(readFileSync(client('insights.json'), 'utf8'));
const firstReview = dataset.reviews[0].id as string;

/** The catalog, counting every use: an answer from the replay touches none of it. */
let touched = 0;
const real = createCatalog({ site: SITE, dataset, insights: { data: insights } });
const catalog = new Proxy(real, {
  get(target, property, receiver) {
    touched++;
    return Reflect.get(target, property, receiver);
  },
}) as McpCatalog;

const ended = new Set<string>();
const signer = new SessionSigner({
  secret: new Uint8Array(32).fill(9),
  ttlSeconds: 3600,
  ended: { isEnded: async (id) => ended.has(id), markEnded: async (id) => void ended.add(id) },
});
/** Session rate limits are tested in test/reliability/rate-limits.test.ts; here every request is let through. */
const NO_LIMITS = { hit: async () => ({ ok: true as const }) };
const endpoint = (replay: boolean) =>
  createMcpEndpoint({ catalog, signer: async () => signer, allowedHosts: ['localhost'], allowedOrigins: [SITE], loopback: true, replay, sessionLimits: NO_LIMITS, onError: (error) => assert.fail(String(error)) });
const withReplay = endpoint(true);
const sdkOnly = endpoint(false);

const META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientInfo': { name: 'replay-test', version: '1.0.0' },
  'io.modelcontextprotocol/clientCapabilities': {},
};

interface Case {
  label: string;
  method: string;
  params?: Record<string, unknown>;
  headers: Record<string, string>;
  /** Whether the replay must answer it (after the SDK answered it once); either way the answer must be the SDK's. */
  replayed: boolean;
  /** The body as sent, when not the plain request (extra keys, ...). */
  extra?: Record<string, unknown>;
  /** The three ids sent (default 1, "two", 3). */
  ids?: Array<number | string>;
}

function send(handler: (request: Request) => Promise<Response>, id: number | string, c: Case) {
  const body = { jsonrpc: '2.0', id, method: c.method, ...(c.params ? { params: c.params } : {}), ...c.extra };
  return handler(
    new Request(`${SITE}/mcp`, {
      method: 'POST',
      headers: { host: 'localhost:4321', 'content-type': 'application/json', accept: ACCEPT, ...c.headers },
      body: JSON.stringify(body),
    }),
  );
}

async function snapshot(response: Response) {
  return { status: response.status, headers: [...response.headers], body: await response.text() };
}

async function compare(c: Case) {
  for (const [round, id] of (c.ids ?? [1, 'two', 3]).entries()) {
    const before = touched;
    const fast = await snapshot(await send(withReplay, id, c));
    // (An error the SDK answers before any handler runs touches no catalog either: only the replayed cases are checked.)
    if (round === 2 && c.replayed) assert.equal(touched, before, `${c.label}: not answered from the replay`);
    const sdk = await snapshot(await send(sdkOnly, id, c));
    assert.deepEqual(fast, sdk, c.label);
  }
}

function legacyCases(session: string, version: string): Case[] {
  const h = { 'mcp-session-id': session, 'mcp-protocol-version': version };
  const call = (label: string, name: string, args: unknown, replayed: boolean): Case => ({ label: `${version} ${label}`, method: 'tools/call', params: { name, arguments: args }, headers: h, replayed });
  return [
    call('search', 'search_reviews', { min_rating: 4, limit: 20 }, true),
    call('search, arguments in another order', 'search_reviews', { limit: 20, min_rating: 4 }, true),
    call('invalid arguments (a tool error)', 'search_reviews', { min_rating: 9, color: 'red' }, true),
    call('get_review', 'get_review', { id: firstReview }, true),
    call('get_review of no review', 'get_review', { id: 'no-such-review' }, true),
    call('get_insights section', 'get_insights', { section: 'faq' }, true),
    call('unknown tool', 'delete_everything', {}, false),
    call('arguments null', 'search_reviews', null, false),
    call('arguments an array', 'search_reviews', [1], false),
    { label: `${version} tools/call without params`, method: 'tools/call', headers: h, replayed: false },
    { label: `${version} tools/list`, method: 'tools/list', headers: h, replayed: true },
    { label: `${version} resources/list`, method: 'resources/list', headers: h, replayed: true },
    { label: `${version} resources/templates/list`, method: 'resources/templates/list', headers: h, replayed: true },
    { label: `${version} resources/read`, method: 'resources/read', params: { uri: `${SITE}/insights.json` }, headers: h, replayed: true },
    { label: `${version} resources/read template`, method: 'resources/read', params: { uri: `${SITE}/reviews/${firstReview}.json` }, headers: h, replayed: true },
    { label: `${version} resources/read unknown`, method: 'resources/read', params: { uri: `${SITE}/nothing.json` }, headers: h, replayed: false },
    { label: `${version} ping`, method: 'ping', headers: h, replayed: false },
    { label: `${version} extra top-level key`, method: 'tools/list', headers: h, replayed: true, extra: { extra: 1 } },
    // Ids the SDK refuses (not an integer) or that are not safe integers: never replayed, whatever is kept.
    { label: `${version} tools/list, fractional and huge ids`, method: 'tools/list', headers: h, replayed: false, ids: [1.5, 2 ** 60, -0.5] },
    // A body kept for the session, sent with the 2026-07-28 header: the SDK's refusal (no envelope), not the kept answer.
    { label: `${version} tools/list with a 2026-07-28 header`, method: 'tools/list', headers: { ...h, 'mcp-protocol-version': '2026-07-28' }, replayed: false },
  ];
}

const search = { name: 'search_reviews', arguments: { min_rating: 4, limit: 20 } };
const modernHeaders = (method: string, name?: string) => ({ 'mcp-protocol-version': '2026-07-28', 'mcp-method': method, ...(name ? { 'mcp-name': name } : {}) });
const modern = (label: string, method: string, params: Record<string, unknown>, headers: Record<string, string>, replayed: boolean): Case => ({
  label: `2026-07-28 ${label}`,
  method,
  params: { ...params, _meta: META },
  headers,
  replayed,
});

const modernCases: Case[] = [
  modern('search', 'tools/call', search, modernHeaders('tools/call', 'search_reviews'), true),
  modern('invalid arguments', 'tools/call', { name: 'search_reviews', arguments: { limit: 0 } }, modernHeaders('tools/call', 'search_reviews'), true),
  modern('unknown tool', 'tools/call', { name: 'nope', arguments: {} }, modernHeaders('tools/call', 'nope'), false),
  modern('tools/list', 'tools/list', {}, modernHeaders('tools/list'), true),
  modern('resources/read', 'resources/read', { uri: `${SITE}/reviews.json` }, modernHeaders('resources/read', `${SITE}/reviews.json`), true),
  modern('resources/read unknown', 'resources/read', { uri: `${SITE}/x.json` }, modernHeaders('resources/read', `${SITE}/x.json`), false),
  // The same body as the first case, once it is kept: wrong or missing headers still get the SDK's refusal.
  modern('Mcp-Name missing', 'tools/call', search, modernHeaders('tools/call'), false),
  modern('Mcp-Name of another tool', 'tools/call', search, modernHeaders('tools/call', 'get_business'), false),
  modern('Mcp-Name Base64-encoded', 'tools/call', search, modernHeaders('tools/call', `=?base64?${Buffer.from('search_reviews').toString('base64')}?=`), false),
  modern('Mcp-Method missing', 'tools/call', search, { 'mcp-protocol-version': '2026-07-28', 'mcp-name': 'search_reviews' }, false),
  modern('Mcp-Method of another method', 'tools/call', search, modernHeaders('tools/list', 'search_reviews'), false),
  modern('MCP-Protocol-Version missing', 'tools/call', search, { 'mcp-method': 'tools/call', 'mcp-name': 'search_reviews' }, false),
  modern('MCP-Protocol-Version of 2025', 'tools/call', search, { ...modernHeaders('tools/call', 'search_reviews'), 'mcp-protocol-version': '2025-06-18' }, false),
  modern('Accept without event streams', 'tools/call', search, { ...modernHeaders('tools/call', 'search_reviews'), accept: 'application/json' }, false),
  modern('an Origin not allowed', 'tools/call', search, { ...modernHeaders('tools/call', 'search_reviews'), origin: 'https://evil.example' }, false),
  modern('an allowed Origin (CORS headers)', 'tools/call', search, { ...modernHeaders('tools/call', 'search_reviews'), origin: SITE }, true),
  {
    label: '2026-07-28 envelope without clientInfo',
    method: 'tools/call',
    params: { ...search, _meta: { ...META, 'io.modelcontextprotocol/clientInfo': undefined } },
    headers: modernHeaders('tools/call', 'search_reviews'),
    replayed: false,
  },
  {
    label: '2026-07-28 envelope of another revision',
    method: 'tools/call',
    params: { ...search, _meta: { ...META, 'io.modelcontextprotocol/protocolVersion': '2027-01-01' } },
    headers: { ...modernHeaders('tools/call', 'search_reviews'), 'mcp-protocol-version': '2027-01-01' },
    replayed: false,
  },
];

describe('MCP replay of earlier answers', () => {
  it('answers a 2025-06-18 and a 2025-03-26 session byte-for-byte as the SDK does', async () => {
    for (const version of ['2025-06-18', '2025-03-26']) {
      const session = await signer.issue(version);
      for (const c of legacyCases(session, version)) await compare(c);
    }
  });

  it('answers 2026-07-28 requests byte-for-byte as the SDK does, and leaves wrong headers to the SDK', async () => {
    for (const c of modernCases) await compare(c);
  });

  it('sessions are checked before the replay: another version, none, forged or ended', async () => {
    const session = await signer.issue('2025-06-18');
    const list = (headers: Record<string, string>): Case => ({ label: JSON.stringify(headers), method: 'tools/list', headers, replayed: false });
    await compare({ ...list({ 'mcp-session-id': session }), replayed: true });
    await compare(list({ 'mcp-session-id': session, 'mcp-protocol-version': '2025-03-26' }));
    await compare(list({ 'mcp-protocol-version': '2025-06-18' }));
    await compare(list({ 'mcp-session-id': `${session.slice(0, -2)}AA`, 'mcp-protocol-version': '2025-06-18' }));
    const check = await signer.check(session);
    assert.ok(check.ok);
    await signer.end(session, check.claims);
    const afterEnd = await send(withReplay, 9, list({ 'mcp-session-id': session }));
    assert.equal(afterEnd.status, 404);
    await compare(list({ 'mcp-session-id': session }));
  });
});

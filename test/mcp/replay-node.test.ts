/**
 * The Node entry answers a repeated /mcp read request from the replay
 * straight from the body's bytes (src/node/web-bridge.ts `answerBody`, the
 * endpoint's `replayed`), without the Web Request and Response. Its answers
 * must be the Web path's, byte for byte: one table of requests (both eras;
 * hits, misses, wrong headers, Origin, repeated headers, forged sessions)
 * goes, three times with different ids, to the built server's default path
 * and to one with API_THROUGH_ASTRO=true (/mcp through Astro's route and the
 * Web path only); status, headers and bytes must agree.
 */
import assert from 'node:assert/strict';
import { request as httpRequest } from 'node:http';
import { describe, it } from 'node:test';
import { ACCEPT, astroAndDirectServers, initialize } from './helpers.ts';

const servers = astroAndDirectServers('mcp-replay-node-');

/** Headers of the connection or the framing, which the two paths may write differently. */
const FRAMING = new Set(['date', 'connection', 'keep-alive', 'transfer-encoding', 'content-length']);

interface Reply {
  status: number;
  headers: Array<[string, string]>;
  body: string;
}

/** A POST with the Host header and raw header list of our choosing (repeats included). */
function send(port: number, rawHeaders: string[], payload: string): Promise<Reply & { contentLength: string | undefined; length: number }> {
  return new Promise((resolve, reject) => {
    const headers = [...rawHeaders, 'content-length', String(Buffer.byteLength(payload))];
    const req = httpRequest({ host: '127.0.0.1', port, path: '/mcp', method: 'POST', headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        const body = Buffer.concat(chunks);
        const kept: Array<[string, string]> = [];
        for (let i = 0; i < res.rawHeaders.length; i += 2) {
          const name = res.rawHeaders[i]!.toLowerCase();
          if (!FRAMING.has(name)) kept.push([name, res.rawHeaders[i + 1]!]);
        }
        resolve({ status: res.statusCode ?? 0, headers: kept, body: body.toString('utf8'), contentLength: res.headers['content-length'], length: body.length });
      });
    });
    req.on('error', reject);
    req.end(payload);
  });
}

const META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientInfo': { name: 'replay-node-test', version: '1.0.0' },
  'io.modelcontextprotocol/clientCapabilities': {},
};
const HOST = 'localhost:4321';
const base = ['host', HOST, 'content-type', 'application/json', 'accept', ACCEPT];
const search = { name: 'search_reviews', arguments: { min_rating: 4, limit: 20 } };

interface Case {
  label: string;
  headers: string[];
  body: (id: number | string) => unknown;
}

const legacy = (session: string): Case[] => {
  const h = [...base, 'mcp-session-id', session, 'mcp-protocol-version', '2025-06-18'];
  const call = (label: string, params: unknown, headers = h): Case => ({ label: `2025-06-18 ${label}`, headers, body: (id) => ({ jsonrpc: '2.0', id, method: 'tools/call', params }) });
  return [
    call('search', search),
    call('search, Origin of the server itself (CORS)', search, [...h, 'origin', `http://${HOST}`]),
    call('search, Origin not allowed', search, [...h, 'origin', 'https://evil.example']),
    // (Not a repeated Content-Type: Astro's adapter reads Node's parsed headers, which keep the first, where the
    // Node entry's Web bridge joins them as Headers does (415); the replay reads them as the bridge does.)
    call('search, Accept split over two headers', search, [...base.slice(0, 4), 'accept', 'application/json', 'accept', 'text/event-stream', ...h.slice(6)]),
    call('search, Accept without event streams', search, [...base.slice(0, 4), 'accept', 'application/json', ...h.slice(6)]),
    call('search, Host not served', search, ['host', 'evil.example', ...h.slice(2)]),
    call('search, another session version', search, [...base, 'mcp-session-id', session, 'mcp-protocol-version', '2025-03-26']),
    call('search, forged session', search, [...base, 'mcp-session-id', `${session.slice(0, -2)}AA`, 'mcp-protocol-version', '2025-06-18']),
    call('search, no session', search, [...base, 'mcp-protocol-version', '2025-06-18']),
    call('invalid arguments (a tool error)', { name: 'search_reviews', arguments: { min_rating: 9 } }),
    { label: '2025-06-18 tools/list', headers: h, body: (id) => ({ jsonrpc: '2.0', id, method: 'tools/list' }) },
    { label: '2025-06-18 tools/list spaced out', headers: h, body: (id) => `{ "jsonrpc" : "2.0", "id" : ${JSON.stringify(id)}, "method" : "tools/list" }` },
    { label: '2025-06-18 not JSON', headers: h, body: () => '{"jsonrpc":' },
  ];
};

const modernHeaders = (name?: string) => [...base, 'mcp-protocol-version', '2026-07-28', 'mcp-method', 'tools/call', ...(name ? ['mcp-name', name] : [])];
const modernCall = (label: string, headers: string[], params: Record<string, unknown> = search): Case => ({
  label: `2026-07-28 ${label}`,
  headers,
  body: (id) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { ...params, _meta: META } }),
});
const modern: Case[] = [
  modernCall('search', modernHeaders('search_reviews')),
  modernCall('search, Origin of the server itself (CORS)', [...modernHeaders('search_reviews'), 'origin', `http://${HOST}`]),
  modernCall('search, Mcp-Name missing', modernHeaders()),
  modernCall('search, Mcp-Name of another tool', modernHeaders('get_business')),
  modernCall('search, Mcp-Name repeated', [...modernHeaders('search_reviews'), 'mcp-name', 'search_reviews']),
  modernCall('search, Mcp-Method repeated', [...modernHeaders('search_reviews'), 'mcp-method', 'tools/call']),
  modernCall('invalid arguments', modernHeaders('search_reviews'), { name: 'search_reviews', arguments: { limit: 0 } }),
];

async function compare(c: Case) {
  for (const id of [1, 'two', 3]) {
    const body = c.body(id);
    const payload = typeof body === 'string' ? body : JSON.stringify(body);
    const viaAstro = await send(servers.astro.port, c.headers, payload);
    const viaNode = await send(servers.direct.port, c.headers, payload);
    if (viaNode.contentLength !== undefined) assert.equal(Number(viaNode.contentLength), viaNode.length, `${c.label}: Content-Length`);
    const strip = ({ status, headers, body: text }: Reply) => ({ status, headers, body: text });
    assert.deepEqual(strip(viaNode), strip(viaAstro), `${c.label} (id ${JSON.stringify(id)})`);
  }
}

describe('/mcp replay on the Node entry', () => {
  it('answers as the Web path does (API_THROUGH_ASTRO=true): status, headers and bytes', async () => {
    const { sessionId } = await initialize(`${servers.direct.url}/mcp`);
    for (const c of [...legacy(sessionId), ...modern]) await compare(c);
  });
});

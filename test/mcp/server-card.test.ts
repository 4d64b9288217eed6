/**
 * The MCP server card (SEP-2127, a draft) at both well-known paths of the real
 * built server: a static data file (ETag, 304, Cache-Control, CORS, compression)
 * whose tools, resources, prompts, capabilities, version and revisions are what
 * the running server answers to tools/list, resources/list, prompts/list and
 * server/discover, so the card cannot drift from the server.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { CONTENT_CACHE } from '../../src/lib/http/representation.ts';
import { startServer, type RunningServer } from '../helpers/server.ts';
import { post, tempDir } from './helpers.ts';

const PATHS = ['/.well-known/mcp/server-card.json', '/.well-known/mcp.json'];
const VERSION = '2026-07-28';
let server: RunningServer;
const store = tempDir('mcp-card-');

before(async () => (server = await startServer('content', { STORE_DIR: store.path })));
after(async () => {
  await server?.stop();
  store.remove();
});

/** A raw 2026-07-28 request, its result. */
async function modern(method: string, params: Record<string, unknown> = {}): Promise<any> {
  const reply = await post(
    `${server.url}/mcp`,
    {
      jsonrpc: '2.0',
      id: 1,
      method,
      params: {
        ...params,
        _meta: {
          'io.modelcontextprotocol/protocolVersion': VERSION,
          'io.modelcontextprotocol/clientInfo': { name: 'card-test', version: '1' },
          'io.modelcontextprotocol/clientCapabilities': {},
        },
      },
    },
    { 'mcp-protocol-version': VERSION, 'mcp-method': method },
  );
  assert.equal(reply.status, 200, reply.text);
  return reply.json.result;
}

/** A result as the list it holds, without the revision's envelope (resultType, caching hints). */
const listOf = (result: any, key: string) => result[key];

describe('the MCP server card', () => {
  it('is served at both paths, the same bytes, as a static data file with ETag, 304, caching and CORS', async () => {
    const bodies: string[] = [];
    for (const path of PATHS) {
      const response = await fetch(`${server.url}${path}`, { headers: { 'accept-encoding': 'identity' } });
      assert.equal(response.status, 200, path);
      assert.equal(response.headers.get('content-type'), 'application/json; charset=utf-8');
      assert.equal(response.headers.get('cache-control'), CONTENT_CACHE);
      assert.equal(response.headers.get('access-control-allow-origin'), '*');
      const etag = response.headers.get('etag') ?? '';
      assert.match(etag, /^"[^"]+"$/, 'a strong ETag');
      bodies.push(await response.text());
      const again = await fetch(`${server.url}${path}`, { headers: { 'if-none-match': etag } });
      assert.equal(again.status, 304, `${path} revalidates`);
      const compressed = await fetch(`${server.url}${path}`, { headers: { 'accept-encoding': 'br' } });
      assert.equal(compressed.headers.get('content-encoding'), 'br');
      assert.equal(await compressed.text(), bodies.at(-1), 'fetch decodes it to the same JSON');
    }
    const preflight = await fetch(`${server.url}${PATHS[0]}`, {
      method: 'OPTIONS',
      headers: {
        origin: 'https://client.example',
        'access-control-request-method': 'GET',
        'access-control-request-headers': 'content-type',
      },
    });
    assert.ok(preflight.status === 204 || preflight.status === 200, `preflight ${preflight.status}`);
    assert.equal(preflight.headers.get('access-control-allow-origin'), '*');
    assert.match(preflight.headers.get('access-control-allow-methods') ?? '', /\bGET\b/);
    assert.equal(bodies[0], bodies[1]);
    assert.doesNotThrow(() => JSON.parse(bodies[0]!));
  });

  it("lists exactly what tools/list, resources/list and prompts/list answer, and server/discover's capabilities and version", async () => {
    const card = await (await fetch(`${server.url}${PATHS[0]}`)).json();
    assert.deepEqual(card.tools, listOf(await modern('tools/list'), 'tools'));
    assert.ok(
      card.tools.some((tool: any) => tool.name === 'search') && card.tools.some((tool: any) => tool.name === 'fetch'),
    );
    assert.deepEqual(card.resources, listOf(await modern('resources/list'), 'resources'));
    assert.deepEqual(card.prompts, listOf(await modern('prompts/list'), 'prompts'));
    const discovered = await modern('server/discover');
    assert.deepEqual(card.capabilities, discovered.capabilities);
    const serverInfo = discovered._meta['io.modelcontextprotocol/serverInfo'];
    assert.equal(card.version, serverInfo.version);
    const draft = card._meta['roofing-reviews/server-card'];
    assert.deepEqual(draft.serverInfo, serverInfo);
    assert.equal(draft.instructions, discovered.instructions);
    assert.deepEqual(draft.resourceTemplates, listOf(await modern('resources/templates/list'), 'resourceTemplates'));
    for (const version of discovered.supportedVersions)
      assert.ok(card.remotes[0].supportedProtocolVersions.includes(version), version);
  });

  it('says it is a draft, where to connect, every revision /mcp speaks, and that no authentication is needed', async () => {
    const card = await (await fetch(`${server.url}${PATHS[1]}`)).json();
    assert.equal(card.$schema, 'https://static.modelcontextprotocol.io/schemas/v1/server-card.schema.json');
    assert.equal(card._meta['roofing-reviews/server-card'].status, 'draft');
    assert.match(card._meta['roofing-reviews/server-card'].specification, /SEP-2127.*draft/);
    assert.match(card.name, /^[a-zA-Z0-9.-]+\/[a-zA-Z0-9._-]+$/, 'a reverse-DNS name, as server.json has');
    const [remote] = card.remotes;
    assert.equal(card.remotes.length, 1);
    assert.equal(remote.type, 'streamable-http');
    assert.equal(remote.url, new URL('/mcp', card.websiteUrl).href);
    assert.deepEqual(remote.authentication, { required: false, schemes: [] });
    // The versions a client learns from an unsupported-version error: every one the endpoint serves.
    const refused = await post(
      `${server.url}/mcp`,
      { jsonrpc: '2.0', id: 1, method: 'ping' },
      {
        'mcp-protocol-version': '1999-01-01',
      },
    );
    assert.equal(refused.status, 400);
    assert.deepEqual(remote.supportedProtocolVersions, refused.json.error.data.supported);
  });
});

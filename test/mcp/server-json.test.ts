/**
 * server.json, the MCP Registry entry at the repository root: valid against the
 * registry's published 2025-12-11 schema (a byte-for-byte copy in
 * test/fixtures/mcp-registry, since tests run offline), and in step with
 * package.json's version, the version the server reports, and the tools the
 * built server lists.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv-provider.js';
import { SERVER_INFO } from '../../src/lib/mcp/definitions.ts';
import { ROOT } from '../helpers/builds.ts';
import { startServer, type RunningServer } from '../helpers/server.ts';
import { initialize, post, tempDir } from './helpers.ts';

const SCHEMA_URL = 'https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json';
/** The published file's SHA-256: the copy must be that file, not an edited one. */
const SCHEMA_SHA256 = '3fba09590c99f61735d234822279f4223fab9e300c0a81e81c91ab62a4114de0';
const PUBLISHER = 'io.modelcontextprotocol.registry/publisher-provided';

const schemaBytes = readFileSync(join(ROOT, 'test/fixtures/mcp-registry/server.schema.json'));
const serverJson = JSON.parse(readFileSync(join(ROOT, 'server.json'), 'utf8'));
const packageJson = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
const validate = new AjvJsonSchemaValidator().getValidator(JSON.parse(schemaBytes.toString('utf8')));

let server: RunningServer;
const store = tempDir('mcp-server-json-');
before(async () => (server = await startServer('content', { STORE_DIR: store.path })));
after(async () => {
  await server?.stop();
  store.remove();
});

describe('server.json', () => {
  it('is valid against the copy of the published 2025-12-11 schema, which is that file byte for byte', () => {
    assert.equal(createHash('sha256').update(schemaBytes).digest('hex'), SCHEMA_SHA256);
    assert.equal(JSON.parse(schemaBytes.toString('utf8')).$id, SCHEMA_URL);
    assert.equal(serverJson.$schema, SCHEMA_URL);
    const result = validate(serverJson);
    assert.ok(result.valid, result.errorMessage);
  });

  it('the schema check can fail: a long description, a name without a namespace, a remote without url or of type stdio are refused', () => {
    const broken = [
      { ...serverJson, description: 'x'.repeat(101) },
      { ...serverJson, name: 'no-namespace' },
      { ...serverJson, remotes: [{ type: 'streamable-http' }] },
      { ...serverJson, remotes: [{ type: 'stdio', url: 'https://{host}/mcp' }] },
    ];
    for (const document of broken)
      assert.equal(validate(document).valid, false, JSON.stringify(document).slice(0, 200));
  });

  it("has package.json's version, the one the server reports", async () => {
    assert.equal(serverJson.version, packageJson.version);
    assert.equal(SERVER_INFO.version, packageJson.version);
    const { reply } = await initialize(`${server.url}/mcp`);
    assert.deepEqual(reply.json.result.serverInfo, { name: SERVER_INFO.name, version: serverJson.version });
  });

  it('is one streamable-http remote, https://{host}/mcp, with host a required variable', () => {
    assert.deepEqual(
      serverJson.remotes.map((remote: any) => [remote.type, remote.url]),
      [['streamable-http', 'https://{host}/mcp']],
    );
    const { host } = serverJson.remotes[0].variables;
    assert.equal(host.isRequired, true);
    assert.ok(host.description && host.placeholder);
    assert.equal(serverJson.packages, undefined, 'a remote server only: nothing to install');
  });

  it('names the tools the built server lists, in its order', async () => {
    const { sessionId } = await initialize(`${server.url}/mcp`);
    const list = await post(
      `${server.url}/mcp`,
      { jsonrpc: '2.0', id: 2, method: 'tools/list', params: {} },
      { 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-06-18' },
    );
    const served = list.json.result.tools.map((tool: { name: string }) => tool.name);
    assert.ok(served.includes('get_insights'), 'the sample content has insights, so every tool is served');
    assert.deepEqual(serverJson._meta[PUBLISHER].tools, served);
    assert.equal(serverJson._meta[PUBLISHER].serverCard, 'https://{host}/.well-known/mcp/server-card.json');
  });
});

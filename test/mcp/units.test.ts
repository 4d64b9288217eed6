/**
 * The MCP pieces that need no server: the shared signing key under a start-up
 * race, the settings, session expiry and ending, and get_insights (registered
 * only when insights exist) over an in-memory transport.
 */
import assert from 'node:assert/strict';
import { readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { after, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { mcpConfigFromEnv } from '../../src/lib/mcp/config.ts';
import { SessionSigner, type EndedSessions } from '../../src/lib/mcp/session-ids.ts';
import { sessionSecret, storeEndedSessions } from '../../src/lib/mcp/session-store.ts';
import { insightsDataset } from '../../src/lib/insights/schema.ts';
import { toolJsonSchema } from '../../src/lib/mcp/json-schema.ts';
import { ANSWER_MAX_BYTES, OVER_BUDGET_CODE } from '../../src/lib/mcp/budget.ts';
import { createCatalog } from '../../src/lib/mcp/catalog.ts';
import type { McpContent } from '../../src/lib/mcp/definitions.ts';
import { createSessionServer } from '../../src/lib/mcp/servers.ts';
import { createStore } from '../../src/lib/store/index.ts';
import { BUILDS } from '../helpers/builds.ts';
import { startRedis, tempDir } from './helpers.ts';

const cleanups: Array<() => void> = [];
after(() => cleanups.forEach((cleanup) => cleanup()));

describe('the session signing key in the store', () => {
  it('twenty store clients starting at once on one folder (as twenty processes would) end up with one key, stored once', async () => {
    const dir = tempDir('mcp-key-race-');
    cleanups.push(dir.remove);
    let stored = 0;
    const stores = Array.from({ length: 20 }, () => {
      const store = createStore({ dir: dir.path, redisPrefix: 'test' });
      const setIfAbsent = store.setIfAbsent.bind(store);
      // Counts the offers the store kept: exactly one may win.
      store.setIfAbsent = async (...args) => {
        const won = await setIfAbsent(...args);
        if (won) stored++;
        return won;
      };
      return store;
    });
    const keys = await Promise.all(stores.map((store) => sessionSecret(store, undefined)));
    const distinct = new Set(keys.map((key) => Buffer.from(key).toString('hex')));
    assert.equal(distinct.size, 1);
    assert.equal(stored, 1);
    assert.equal(keys[0]!.length, 32);
    // Later starts read the same key.
    const later = await sessionSecret(createStore({ dir: dir.path, redisPrefix: 'test' }), undefined);
    assert.deepEqual(later, keys[0]);
    // Only its owner may read the key file.
    const mode = statSync(join(dir.path, 'mcp', 'session-key')).mode & 0o777;
    assert.equal(mode & 0o077, 0, `mode ${mode.toString(8)}`);
    await Promise.all(stores.map((store) => store.close()));
  });

  it('the same on Redis (SET NX): twenty clients, one key', async () => {
    const redis = await startRedis();
    try {
      const stores = Array.from({ length: 20 }, () =>
        createStore({ dir: '/nonexistent', redisUrl: redis.url, redisPrefix: 'race' }),
      );
      const keys = await Promise.all(stores.map((store) => sessionSecret(store, undefined)));
      assert.equal(new Set(keys.map((key) => Buffer.from(key).toString('hex'))).size, 1);
      await Promise.all(stores.map((store) => store.close()));
    } finally {
      await redis.stop();
    }
  });

  it("a store whose setIfAbsent loses uses the winner's key, not its own", async () => {
    const dir = tempDir('mcp-key-loser-');
    cleanups.push(dir.remove);
    const store = createStore({ dir: dir.path, redisPrefix: 'test' });
    const winner = Buffer.alloc(32, 9).toString('base64url');
    // Another process stores its key between this one's first read and its offer.
    store.setIfAbsent = async (key) => {
      await store.set(key, winner);
      return false;
    };
    assert.deepEqual(await sessionSecret(store, undefined), new Uint8Array(Buffer.alloc(32, 9)));
    await store.close();
  });

  it('an unusable stored key stops the start with a message naming it', async () => {
    const dir = tempDir('mcp-key-bad-');
    cleanups.push(dir.remove);
    const store = createStore({ dir: dir.path, redisPrefix: 'test' });
    await store.set('mcp:session-key', 'short');
    await assert.rejects(sessionSecret(store, undefined), /mcp:session-key/);
    await store.close();
  });

  it('a configured secret is used as is and nothing is stored', async () => {
    const dir = tempDir('mcp-key-configured-');
    cleanups.push(dir.remove);
    const store = createStore({ dir: dir.path, redisPrefix: 'test' });
    const key = await sessionSecret(store, 'x'.repeat(40));
    assert.equal(Buffer.from(key).toString(), 'x'.repeat(40));
    assert.deepEqual(await store.keys('mcp'), []);
  });
});

describe('session ids', () => {
  const memoryEnded = (): EndedSessions => {
    const ended = new Set<string>();
    return { isEnded: async (id) => ended.has(id), markEnded: async (id) => void ended.add(id) };
  };

  it('expire after the TTL and can be ended; the ended marker lives in the store until expiry', async () => {
    let now = 1_000_000;
    const dir = tempDir('mcp-ended-');
    cleanups.push(dir.remove);
    const store = createStore({ dir: dir.path, redisPrefix: 'test' }, () => now * 1000);
    const signer = new SessionSigner({
      secret: new Uint8Array(32).fill(7),
      ttlSeconds: 3600,
      ended: storeEndedSessions(store),
      now: () => now,
    });
    const id = await signer.issue('2025-06-18');
    const check = await signer.check(id);
    assert.ok(check.ok);
    assert.equal(check.claims.pv, '2025-06-18');
    now += 3599;
    assert.ok((await signer.check(id)).ok);
    await signer.end(id, check.claims);
    assert.deepEqual(await signer.check(id), { ok: false, reason: 'ended' });
    assert.equal((await store.keys('mcp:ended')).length, 1);
    now += 1;
    assert.deepEqual(await signer.check(id), { ok: false, reason: 'expired' });
    assert.equal((await store.keys('mcp:ended')).length, 0, 'the marker is gone once the id would have expired');
    await store.close();
  });

  it('a different key or a changed payload is refused', async () => {
    const a = new SessionSigner({ secret: new Uint8Array(32).fill(1), ttlSeconds: 60, ended: memoryEnded() });
    const b = new SessionSigner({ secret: new Uint8Array(32).fill(2), ttlSeconds: 60, ended: memoryEnded() });
    const id = await a.issue('2025-06-18');
    assert.deepEqual(await b.check(id), { ok: false, reason: 'bad-signature' });
    const [payload, signature] = id.split('.') as [string, string];
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString());
    const changed = Buffer.from(JSON.stringify({ ...claims, pv: '2024-11-05' })).toString('base64url');
    assert.deepEqual(await a.check(`${changed}.${signature}`), { ok: false, reason: 'bad-signature' });
    assert.deepEqual(await a.check('no dots here'), { ok: false, reason: 'malformed' });
  });
});

describe('settings', () => {
  const site = 'https://reviews.example.com';
  it('Host names: the site, loopback names only when bound to loopback, MCP_ALLOWED_HOSTS', () => {
    assert.deepEqual(mcpConfigFromEnv({}, site, '0.0.0.0').allowedHosts, ['reviews.example.com']);
    assert.deepEqual(mcpConfigFromEnv({}, site, undefined).allowedHosts, ['reviews.example.com']);
    for (const bind of ['localhost', '127.0.0.1', '::1', '[::1]']) {
      assert.deepEqual(
        mcpConfigFromEnv({}, site, bind).allowedHosts.sort(),
        ['127.0.0.1', '[::1]', 'localhost', 'reviews.example.com'],
        bind,
      );
    }
    const listed = mcpConfigFromEnv(
      { MCP_ALLOWED_HOSTS: 'MCP.Example.org:8443, ::1 ,10.0.0.5' },
      site,
      '0.0.0.0',
    ).allowedHosts;
    assert.deepEqual(listed.sort(), ['10.0.0.5', '[::1]', 'mcp.example.org', 'reviews.example.com']);
  });

  it('Origins: the site by default, MCP_ALLOWED_ORIGINS added and normalised', () => {
    assert.deepEqual(mcpConfigFromEnv({}, site, 'localhost').allowedOrigins, [site]);
    assert.deepEqual(
      mcpConfigFromEnv({ MCP_ALLOWED_ORIGINS: 'https://App.example.com/, *' }, site, 'localhost').allowedOrigins,
      [site, 'https://app.example.com', '*'],
    );
    assert.throws(
      () => mcpConfigFromEnv({ MCP_ALLOWED_ORIGINS: 'app.example.com' }, site, 'localhost'),
      /MCP_ALLOWED_ORIGINS/,
    );
  });

  it('TTL and secret are checked', () => {
    assert.equal(mcpConfigFromEnv({}, site, 'localhost').sessionTtlSeconds, 30 * 24 * 3600);
    assert.equal(mcpConfigFromEnv({ MCP_SESSION_TTL_SECONDS: '3600' }, site, 'localhost').sessionTtlSeconds, 3600);
    for (const bad of ['0', '-5', '1.5', 'soon', '59']) {
      assert.throws(
        () => mcpConfigFromEnv({ MCP_SESSION_TTL_SECONDS: bad }, site, 'localhost'),
        /MCP_SESSION_TTL_SECONDS/,
        bad,
      );
    }
    assert.throws(() => mcpConfigFromEnv({ MCP_SESSION_SECRET: 'too-short' }, site, 'localhost'), /at least 32/);
    assert.equal(mcpConfigFromEnv({ MCP_SESSION_SECRET: 's'.repeat(32) }, site, 'localhost').secret, 's'.repeat(32));
  });
});

describe('get_insights', () => {
  const dataset = JSON.parse(readFileSync(resolve(BUILDS.content.outDir, 'client/reviews.json'), 'utf8'));
  // The built insights.json: the tool's output schema is the insights schema, which the client checks.
  const insights = JSON.parse(readFileSync(resolve(BUILDS.content.outDir, 'client/insights.json'), 'utf8'));

  async function connect(content: McpContent) {
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    const server = createSessionServer(createCatalog(content));
    await server.connect(serverSide);
    const client = new Client({ name: 'unit', version: '1.0.0' });
    await client.connect(clientSide);
    return { client, close: () => Promise.all([client.close(), server.close()]) };
  }

  it("the insights dataset's zod schema makes a self-contained output schema (one section or all)", () => {
    const schema = toolJsonSchema(insightsDataset.partial(), 'output');
    assert.equal(schema.type, 'object');
    assert.ok(!JSON.stringify(schema).includes('$ref'));
    assert.ok('aspects' in (schema.properties as object));
  });

  it('is not registered, nor its resource, while there are no insights', async () => {
    const { client, close } = await connect({ site: 'http://localhost:4321', dataset });
    const { tools } = await client.listTools();
    assert.ok(!tools.some((t) => t.name === 'get_insights'));
    const { resources } = await client.listResources();
    assert.ok(!resources.some((r) => r.name === 'insights.json'));
    await close();
  });

  it('answers all or one section, names a bad section, and has its resource', async () => {
    const { client, close } = await connect({ site: 'http://localhost:4321', dataset, insights });
    const { tools } = await client.listTools();
    const tool = tools.find((t) => t.name === 'get_insights');
    assert.ok(tool);
    assert.equal(tool.annotations?.readOnlyHint, true);
    assert.equal(tool.annotations?.openWorldHint, false);
    assert.equal(tool.outputSchema?.type, 'object');
    // Every structured part of the insights schema is a section, whatever sections it grows.
    const sections = Object.keys(insightsDataset.shape).filter((key) => !['updated', 'review_count'].includes(key));
    assert.deepEqual((tool.inputSchema.properties as any).section.enum, sections);
    assert.ok(sections.includes('aspects') && sections.includes('summary'));

    const all = (await client.callTool({ name: 'get_insights', arguments: {} })) as any;
    assert.deepEqual(all.structuredContent, insights);
    assert.deepEqual(JSON.parse(all.content[0].text), insights);
    const faq = (await client.callTool({ name: 'get_insights', arguments: { section: 'faq' } })) as any;
    assert.deepEqual(faq.structuredContent, {
      updated: insights.updated,
      review_count: insights.review_count,
      faq: insights.faq,
    });
    const bad = (await client.callTool({ name: 'get_insights', arguments: { section: 'gossip' } })) as any;
    assert.equal(bad.isError, true);
    assert.deepEqual(JSON.parse(bad.content[0].text).issues[0].path, ['section']);

    const { resources } = await client.listResources();
    const resource = resources.find((r) => r.name === 'insights.json');
    assert.equal(resource?.uri, 'http://localhost:4321/insights.json');
    const read = await client.readResource({ uri: resource!.uri });
    assert.deepEqual(JSON.parse((read.contents[0] as { text: string }).text), insights);
    await close();
  });
});

describe('the answer budget of one POST', () => {
  const dataset = JSON.parse(readFileSync(resolve(BUILDS.content.outDir, 'client/reviews.json'), 'utf8'));
  const catalog = createCatalog({ site: 'http://localhost:4321', dataset });

  it('every method spends from it, lists and completions too: past it each is refused, never answered', () => {
    const methods: Array<[string, unknown]> = [
      ['tools/list', {}],
      ['resources/list', {}],
      ['resources/templates/list', {}],
      ['prompts/list', {}],
      [
        'completion/complete',
        { ref: { type: 'ref/prompt', name: 'draft_reply' }, argument: { name: 'review_id', value: '' } },
      ],
    ];
    for (const [method, params] of methods) {
      // One handler set is one POST; in process, no batch limit stops the calls first.
      const handlers = catalog.handlers((code, message, data) => Object.assign(new Error(message), { code, data }));
      const handle = (handlers as unknown as Record<string, (request: { params: unknown }) => unknown>)[method]!;
      let bytes = 0;
      let refused: { code?: number } | undefined;
      for (let calls = 0; calls < 200_000 && !refused; calls++) {
        try {
          bytes += Buffer.byteLength(JSON.stringify(handle({ params })));
        } catch (error) {
          refused = error as { code?: number };
        }
      }
      assert.equal(refused?.code, OVER_BUDGET_CODE, `${method} was never refused`);
      assert.ok(bytes <= ANSWER_MAX_BYTES, `${method}: ${bytes} bytes answered`);
      assert.ok(bytes > ANSWER_MAX_BYTES * 0.9, `${method}: refused at ${bytes} bytes already`);
    }
  });
});

/**
 * The owner's prompt `draft_reply` in both revisions, against the real built
 * server: listed with its argument (and, at 2026-07-28, a caching hint), its
 * messages keep the customer's review in an embedded resource of its own,
 * the facts resolved against the business's lists, earlier replies as tone
 * examples; completion of the review id; bad arguments are -32602.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Client as SessionClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as SessionTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { startServer, type RunningServer } from '../helpers/server.ts';
import { post, tempDir } from './helpers.ts';

let server: RunningServer;
let dataset: any;
const store = tempDir('mcp-prompts-');
const clients: Array<{ close(): Promise<void> }> = [];

before(async () => {
  server = await startServer('content', { STORE_DIR: store.path });
  dataset = await (await fetch(`${server.url}/reviews.json`)).json();
});
after(async () => {
  for (const client of clients) await client.close();
  await server?.stop();
  store.remove();
});

async function sessionClient() {
  const client = new SessionClient({ name: 'prompts-test', version: '1.0.0' });
  await client.connect(new SessionTransport(new URL(`${server.url}/mcp`)));
  clients.push(client);
  return client;
}

async function statelessClient() {
  const client = new Client(
    { name: 'prompts-test', version: '1.0.0' },
    { versionNegotiation: { mode: { pin: '2026-07-28' } } },
  );
  await client.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`)));
  clients.push(client);
  return client;
}

/** What both revisions must answer alike. */
async function checkDraftReply(client: {
  listPrompts(): Promise<any>;
  getPrompt(p: any): Promise<any>;
  complete(p: any): Promise<any>;
}) {
  const { prompts } = await client.listPrompts();
  const prompt = prompts.find((p: { name: string }) => p.name === 'draft_reply');
  assert.ok(prompt, 'draft_reply is listed');
  assert.deepEqual(
    prompt.arguments.map((a: { name: string; required: boolean }) => [a.name, a.required]),
    [['review_id', true]],
  );
  assert.match(prompt.description, /written by customers/);

  const review = dataset.reviews.find((r: any) => r.technicians.length > 0 && r.services.length > 0 && r.service_area);
  const { messages } = await client.getPrompt({ name: 'draft_reply', arguments: { review_id: review.id } });
  assert.ok(messages.every((m: { role: string }) => m.role === 'user'));
  const [instructions, embedded, facts, examples] = messages.map((m: any) => m.content);
  assert.equal(instructions.type, 'text');
  assert.match(instructions.text, /never as instructions/);
  assert.ok(!instructions.text.includes(review.text), 'the review text stays out of our words');
  // The customer's words in a part of their own: the review record exactly as published.
  assert.equal(embedded.type, 'resource');
  assert.equal(embedded.resource.uri, `http://localhost:4321/reviews/${review.id}.json`);
  assert.deepEqual(JSON.parse(embedded.resource.text), review);
  const named = JSON.parse(facts.text.slice(facts.text.indexOf('{')));
  assert.deepEqual(named.technicians, review.technicians);
  const services = new Map(dataset.business.services.map((s: any) => [s.id, s.name]));
  assert.deepEqual(
    named.services,
    review.services.map((id: string) => ({ id, name: services.get(id) })),
  );
  assert.equal(named.service_area.id, review.service_area);
  assert.equal(
    named.service_area.name,
    dataset.business.service_areas.find((a: any) => a.id === review.service_area).name,
  );
  const replies = JSON.parse(examples.text.slice(examples.text.indexOf('[')));
  assert.ok(replies.length > 0 && replies.length <= 3);
  for (const reply of replies) {
    const replied = dataset.reviews.find((r: any) => r.id === reply.review_id);
    assert.notEqual(replied.id, review.id);
    assert.equal(reply.reply, replied.response.text);
  }

  const prefix = review.id.slice(0, 7);
  const { completion } = await client.complete({
    ref: { type: 'ref/prompt', name: 'draft_reply' },
    argument: { name: 'review_id', value: prefix },
  });
  const expected = dataset.reviews.map((r: any) => r.id).filter((id: string) => id.startsWith(prefix));
  assert.equal(completion.total, expected.length);
  assert.deepEqual(completion.values, expected.sort().slice(0, 100));

  await assert.rejects(
    client.getPrompt({ name: 'draft_reply', arguments: { review_id: 'no-such-review' } }),
    (error: { code?: number }) => error.code === -32602,
  );
  await assert.rejects(
    client.getPrompt({ name: 'draft_reply', arguments: {} }),
    (error: { code?: number }) => error.code === -32602,
  );
}

describe('the draft_reply prompt', () => {
  it('in a 2025-06-18 session (SDK v1 client)', async () => {
    await checkDraftReply(await sessionClient());
  });

  it('at 2026-07-28 (SDK v2 client), prompts/list with the caching hint of the other lists', async () => {
    await checkDraftReply(await statelessClient());
    const meta = {
      'io.modelcontextprotocol/protocolVersion': '2026-07-28',
      'io.modelcontextprotocol/clientCapabilities': {},
    };
    const reply = await post(
      `${server.url}/mcp`,
      { jsonrpc: '2.0', id: 1, method: 'prompts/list', params: { _meta: meta } },
      { 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'prompts/list' },
    );
    assert.equal(reply.status, 200, reply.text);
    assert.equal(reply.json.result.cacheScope, 'public');
    assert.equal(reply.json.result.ttlMs, 60_000);
  });
});

/**
 * One review as a static JSON file, /reviews/{id}.json, over the real server:
 * the record of reviews.json byte for byte, served like the other data files,
 * and the URIs the MCP resource template advertises resolve to it.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { TEST_BUILDS_DIR } from '../helpers/builds.ts';
import { bytesOf, conditional, rawGet, sha256Etag } from '../helpers/http.ts';
import { startServer, type RunningServer } from '../helpers/server.ts';
import type { Review, ReviewsDataset } from '../../src/lib/reviews/schema.ts';

let server: RunningServer;
let dataset: ReviewsDataset;
const store = mkdtempSync(join(TEST_BUILDS_DIR, 'review-json-'));

before(async () => {
  server = await startServer('content', { STORE_DIR: store });
  dataset = (await (await fetch(`${server.url}/reviews.json`)).json()) as ReviewsDataset;
  assert.ok(dataset.reviews.length > 100, 'the sample content has its reviews');
});
after(async () => {
  await server?.stop();
  rmSync(store, { recursive: true, force: true });
});

/** The bytes as stored, whose SHA-256 is the ETag without an encoding suffix. */
const IDENTITY = { 'accept-encoding': 'identity' };

describe('/reviews/{id}.json', () => {
  it('serves every review as its record in reviews.json, with a final newline', async () => {
    for (const review of dataset.reviews) {
      const response = await fetch(`${server.url}/reviews/${review.id}.json`, { headers: IDENTITY });
      assert.equal(response.status, 200, review.id);
      assert.equal(response.headers.get('content-type'), 'application/json; charset=utf-8');
      const body = await bytesOf(response);
      assert.equal(body.toString('utf8'), `${JSON.stringify(review)}\n`, `${review.id} is the record of reviews.json`);
      assert.equal(response.headers.get('etag'), sha256Etag(body));
      assert.equal(
        response.headers.get('last-modified'),
        new Date(review.updated).toUTCString(),
        'its own updated, not the dataset’s',
      );
      assert.equal(response.headers.get('access-control-allow-origin'), '*');
    }
  });

  it('answers conditional requests with 304, precompressed variants and a CORS preflight', async () => {
    // Files of 1 KiB or more have precompressed variants (smaller ones are sent as they are).
    const review = dataset.reviews.find(
      (r) => r.updated !== dataset.updated && JSON.stringify(r).length >= 1024,
    ) as Review;
    const path = `/reviews/${review.id}.json`;
    const first = await fetch(server.url + path, { headers: IDENTITY });
    const etag = first.headers.get('etag') as string;
    const again = await fetch(server.url + path, { headers: conditional({ 'if-none-match': etag }) });
    assert.equal(again.status, 304);
    assert.equal((await again.arrayBuffer()).byteLength, 0);
    const byDate = await fetch(server.url + path, {
      headers: conditional({ 'if-modified-since': new Date(review.updated).toUTCString() }),
    });
    assert.equal(byDate.status, 304);
    const brotli = await rawGet(server.port, path, { 'accept-encoding': 'br' });
    assert.equal(brotli.headers['content-encoding'], 'br');
    assert.equal(brotli.headers.etag, `${etag.slice(0, -1)}-br"`);
    const small = dataset.reviews.find((r) => JSON.stringify(r).length < 900) as Review;
    const plain = await rawGet(server.port, `/reviews/${small.id}.json`, { 'accept-encoding': 'br' });
    assert.equal(plain.headers['content-encoding'], undefined, 'a file under 1 KiB is sent as it is');
    const preflight = await fetch(server.url + path, {
      method: 'OPTIONS',
      headers: { origin: 'https://elsewhere.example', 'access-control-request-method': 'GET' },
    });
    assert.equal(preflight.status, 204);
    assert.equal(preflight.headers.get('access-control-allow-origin'), '*');
  });

  it('answers an unknown id with a JSON 404 that no cache keeps (the review may be published later)', async () => {
    const response = await fetch(`${server.url}/reviews/no-such-review.json`);
    assert.equal(response.status, 404);
    assert.match(response.headers.get('content-type') ?? '', /^application\/json/);
    assert.equal(response.headers.get('cache-control'), 'no-store');
    assert.equal(((await response.json()) as { error: string }).error, 'not_found');
  });

  it('is what the review page links as its JSON alternate', async () => {
    const review = dataset.reviews[0] as Review;
    const html = await (await fetch(`${server.url}/reviews/${review.id}`)).text();
    assert.ok(
      html.includes(
        `<link rel="alternate" type="application/json" href="http://localhost:4321/reviews/${review.id}.json">`,
      ),
      'the page names its JSON',
    );
  });
});

describe('the MCP review resource template resolves over HTTP', () => {
  let client: Client;
  before(async () => {
    client = new Client({ name: 'review-json-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`)));
  });
  after(async () => {
    await client?.close();
  });

  it('advertises {site}/reviews/{id}.json, and each URI serves what resources/read answers', async () => {
    const { resourceTemplates } = await client.listResourceTemplates();
    const template = resourceTemplates.find((t) => t.name === 'review');
    assert.ok(template, 'a review resource template is listed');
    assert.equal(template.uriTemplate, 'http://localhost:4321/reviews/{id}.json');
    // The newest, the oldest and one with the business's reply: the site's URL is the build's, the server listens elsewhere.
    const picks = [dataset.reviews[0], dataset.reviews.at(-1), dataset.reviews.find((r) => r.response)] as Review[];
    for (const review of picks) {
      const uri: string = template.uriTemplate.replace('{id}', review.id);
      const read = await client.readResource({ uri });
      const content = read.contents[0] as { uri: string; mimeType?: string; text: string };
      assert.equal(content.mimeType, 'application/json');
      const response: Response = await fetch(server.url + new URL(uri).pathname);
      assert.equal(response.status, 200, `${uri} resolves`);
      assert.equal(response.headers.get('content-type'), 'application/json; charset=utf-8');
      assert.deepEqual(await response.json(), JSON.parse(content.text), `${uri}: the file is the resource`);
    }
  });
});

/**
 * What every serverless target must do, run against the built function of one
 * host (netlify.test.ts, vercel.test.ts): the same src/lib handlers answer as
 * on Node; state lives in a real Redis shared by separately loaded copies;
 * work after a 202 runs under the host's waitUntil; time passes only when the
 * host's scheduler calls the sweep; a deploy publishes each change once.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, it } from 'node:test';
import { HOST_BUILDS, type HostName } from '../helpers/builds.ts';
import { makeTestCerts, type TestCerts } from '../helpers/certs.ts';
import { sha256Etag } from '../helpers/http.ts';
import { startSubscriber, type TestSubscriber } from '../helpers/subscriber.ts';
import { initializeRequest, JSON_HEADERS, startRedis } from '../mcp/helpers.ts';
import { forgetDistributedContent, isSubscribed, openStore, until } from '../websub/helpers.ts';
import { siteLinks } from '../../src/lib/feeds/links.ts';
import { CONTENT_CACHE } from '../../src/lib/http/representation.ts';
import { callbackKey, type DistributedHash } from '../../src/lib/websub/subscriptions.ts';
import type { Store } from '../../src/lib/store/index.ts';
import { closeOpenStores } from '../../src/lib/store/open-stores.ts';
import { removeCopies, trustTestCa, type LoadedFunction } from './helpers.ts';

export interface HostUnderTest {
  name: HostName;
  load(): Promise<LoadedFunction>;
  /** The folder the host's CDN serves. */
  staticDir: string;
  /** A name only this deployment's preview answers under, and the variable the host sets it in. */
  preview: { variable: string; value: string; host: string };
  /** The host's scheduler calling the sweep once; resolves with its JSON answer. */
  runSchedule(): Promise<{ status: number; body: any }>;
  /** A new deploy has gone live: the host's post-deploy step, on `copies` racing instances. */
  announceDeploy(copies: number): Promise<void>;
  /** Settings this host's functions need besides Redis and the MCP secret (set before `load`). */
  env?: Record<string, string>;
}

export const SECRET = 'a-test-session-secret-of-more-than-32-characters';

const HUB_ENV = {
  WEBSUB_ALLOW_LOOPBACK: 'true',
  WEBSUB_RETRY_DELAYS: '0.3,0.6',
  WEBSUB_TIMEOUT_MS: '1500',
  WEBSUB_SUBSCRIBE_RATE_LIMIT: '10000',
  WEBSUB_PUBLISH_RATE_LIMIT: '10000',
};

export function hostScenarios(host: HostUnderTest): void {
  const site = HOST_BUILDS[host.name].site;
  const links = siteLinks(site);
  let certs: TestCerts;
  let sub: TestSubscriber;
  let redis: { url: string; stop: () => Promise<void> };
  let store: Store;
  let a: LoadedFunction;
  let b: LoadedFunction;

  const form = (fields: Record<string, string>) =>
    new Request(links.hub, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(fields).toString(),
    });
  const subscribeOn = (fn: LoadedFunction, callback: string, topic: string) =>
    fn.call(form({ 'hub.mode': 'subscribe', 'hub.callback': callback, 'hub.topic': topic }));
  const rpc = (body: unknown, headers: Record<string, string> = {}) =>
    new Request(`${site}/mcp`, {
      method: 'POST',
      headers: { ...JSON_HEADERS, host: new URL(site).host, ...headers },
      body: JSON.stringify(body),
    });

  before(async () => {
    for (const name of ['REDIS_URL', 'MCP_SESSION_SECRET', 'CRON_SECRET', 'WEBSUB_CONTENT_ORIGIN'])
      delete process.env[name];
    Object.assign(process.env, HUB_ENV, host.env ?? {}, { [host.preview.variable]: host.preview.value });
    certs = makeTestCerts();
    trustTestCa(certs.ca);
    sub = await startSubscriber(certs);
    redis = await startRedis();
    store = openStore({ REDIS_URL: redis.url });
    [a, b] = await Promise.all([host.load(), host.load()]);
  });
  after(async () => {
    // The functions' own Redis connections (a function never closes its store), then ours.
    await closeOpenStores();
    await store?.close();
    await redis?.stop();
    await sub?.close();
    certs?.remove();
    removeCopies();
  });

  it('without REDIS_URL and MCP_SESSION_SECRET, 2025 sessions and the hub answer 503 naming them (no 500); search and a 2026-07-28 MCP call still answer; the build warned', async () => {
    const mcp = await a.fetch(rpc(initializeRequest()));
    assert.equal(mcp.status, 503);
    const body = await mcp.json();
    assert.equal(body.error, 'not_configured');
    assert.deepEqual(body.settings, ['REDIS_URL', 'MCP_SESSION_SECRET']);
    assert.match(body.message, /REDIS_URL is not set/);
    const hub = await a.fetch(form({ 'hub.mode': 'publish', 'hub.url': links.atomFeed }));
    assert.equal(hub.status, 503);
    assert.deepEqual((await hub.json()).settings, ['REDIS_URL']);
    assert.equal((await a.fetch(new Request(`${site}/api/reviews/search?min_rating=1`))).status, 200);
    const log = readFileSync(join(HOST_BUILDS[host.name].dir, 'build.log'), 'utf8');
    assert.match(log, new RegExp(`${host.name}: REDIS_URL is not set`));
    assert.match(log, new RegExp(`${host.name}: MCP_SESSION_SECRET is not set`));
    // A 2026-07-28 client needs neither setting: a tools/call through the same function answers.
    const meta = {
      'io.modelcontextprotocol/protocolVersion': '2026-07-28',
      'io.modelcontextprotocol/clientInfo': { name: 'host-test', version: '1' },
      'io.modelcontextprotocol/clientCapabilities': {},
    };
    const modern = await a.fetch(
      rpc(
        {
          jsonrpc: '2.0',
          id: 7,
          method: 'tools/call',
          params: { name: 'search_reviews', arguments: { min_rating: 5 }, _meta: meta },
        },
        { 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': 'search_reviews' },
      ),
    );
    assert.equal(modern.status, 200, await modern.clone().text());
    const answer = (await modern.json()).result;
    assert.equal(answer.isError, undefined);
    assert.ok(
      answer.structuredContent.reviews.length >= 1 &&
        answer.structuredContent.reviews.every((review: { rating: number }) => review.rating === 5),
    );
    // From here on the deployment is configured: settings reach a host's functions with a new deployment, so fresh copies.
    process.env.REDIS_URL = redis.url;
    process.env.MCP_SESSION_SECRET = SECRET;
    [a, b] = await Promise.all([host.load(), host.load()]);
  });

  it('search with validators and a 304 on revalidation; since; bad input is a 400, never a 5xx', async () => {
    const first = await a.fetch(new Request(`${site}/api/reviews/search?min_rating=4`));
    assert.equal(first.status, 200);
    assert.equal(first.headers.get('content-type'), 'application/json; charset=utf-8');
    const etag = first.headers.get('etag');
    assert.match(etag ?? '', /^"[\w-]+"$/);
    assert.ok(first.headers.get('last-modified'));
    assert.ok((await first.json()).total >= 1);
    const again = await b.fetch(
      new Request(`${site}/api/reviews/search?min_rating=4`, { headers: { 'if-none-match': etag! } }),
    );
    assert.equal(again.status, 304);
    assert.equal(again.headers.get('etag'), etag);
    assert.equal(await again.text(), '');
    const since = await a.fetch(new Request(`${site}/api/reviews/since/2020-01-01`));
    assert.equal(since.status, 200);
    const sinceBody = await since.json();
    assert.equal(sinceBody.since, '2020-01-01');
    assert.ok(sinceBody.count >= 1);
    for (const bad of [
      '/api/reviews/search?rating=9',
      '/api/reviews/since/2025-02-30',
      '/api/reviews/search?limit=x&limit=y',
    ]) {
      const response = await a.fetch(new Request(`${site}${bad}`));
      assert.equal(response.status, 400, bad);
      assert.equal((await response.json()).error, 'invalid_request');
    }
  });

  it('/reviews/{id}.json: made by the function from the dataset, the record byte for byte, with a strong ETag, a 304 and the CDN cache policy', async () => {
    const dataset = JSON.parse(readFileSync(join(host.staticDir, 'reviews.json'), 'utf8')) as {
      reviews: Array<{ id: string; updated: string }>;
    };
    const review = dataset.reviews[0]!;
    assert.equal(
      existsSync(join(host.staticDir, 'reviews', `${review.id}.json`)),
      false,
      'no file per review in the build',
    );
    const first = await a.fetch(new Request(`${site}/reviews/${review.id}.json`));
    assert.equal(first.status, 200);
    const body = Buffer.from(await first.arrayBuffer());
    assert.equal(body.toString('utf8'), `${JSON.stringify(review)}\n`);
    assert.equal(first.headers.get('content-type'), 'application/json; charset=utf-8');
    assert.equal(first.headers.get('etag'), sha256Etag(body));
    assert.equal(first.headers.get('cache-control'), CONTENT_CACHE, 'the CDN keeps it as it kept the static file');
    assert.equal(first.headers.get('last-modified'), new Date(review.updated).toUTCString());
    assert.equal(first.headers.get('access-control-allow-origin'), '*');
    const again = await b.fetch(
      new Request(`${site}/reviews/${review.id}.json`, { headers: { 'if-none-match': sha256Etag(body) } }),
    );
    assert.equal(again.status, 304);
    assert.equal(await again.text(), '');
    const unknown = await a.fetch(new Request(`${site}/reviews/no-such-review.json`));
    assert.equal(unknown.status, 404);
    assert.equal(unknown.headers.get('cache-control'), 'no-store');
  });

  it('/mcp: initialize on one copy, tools/call on a second copy, sharing one Redis; DELETE on one ends it on the other', async () => {
    const init = await a.fetch(rpc(initializeRequest()));
    assert.equal(init.status, 200, await init.clone().text());
    const session = init.headers.get('mcp-session-id');
    assert.ok(session);
    const headers = { 'mcp-session-id': session, 'mcp-protocol-version': '2025-06-18' };
    const initialized = await b.fetch(rpc({ jsonrpc: '2.0', method: 'notifications/initialized' }, headers));
    assert.equal(initialized.status, 202, await initialized.text());
    const call = await b.fetch(
      rpc(
        {
          jsonrpc: '2.0',
          id: 2,
          method: 'tools/call',
          params: { name: 'search_reviews', arguments: { min_rating: 5 } },
        },
        headers,
      ),
    );
    assert.equal(call.status, 200);
    const result = (await call.json()).result;
    assert.equal(result.isError, undefined);
    assert.ok(result.structuredContent.reviews.every((review: { rating: number }) => review.rating === 5));
    const ended = await b.fetch(
      new Request(`${site}/mcp`, { method: 'DELETE', headers: { ...headers, host: new URL(site).host } }),
    );
    assert.equal(ended.status, 204);
    assert.equal((await a.fetch(rpc({ jsonrpc: '2.0', id: 3, method: 'tools/list' }, headers))).status, 404);
  });

  it("/mcp answers a preview deployment's own host with no extra setting, and still refuses others", async () => {
    const preview = await b.fetch(
      rpc(initializeRequest(), { host: host.preview.host, origin: `https://${host.preview.host}` }),
    );
    assert.equal(preview.status, 200, await preview.clone().text());
    assert.equal((await b.fetch(rpc(initializeRequest(), { host: 'evil.example' }))).status, 403);
  });

  it('a subscribe answers 202 at once; its verification runs on under waitUntil and completes through that promise', async () => {
    const callback = sub.url('/slow');
    sub.set('/slow', { verify: 'slow' });
    const { response, deferred } = await subscribeOn(a, callback, links.atomFeed);
    assert.equal(response.status, 202);
    assert.ok(deferred.length >= 1, 'the verification was handed to waitUntil');
    assert.equal(await isSubscribed(store, 'atom', callback), false, 'not verified yet when the answer went out');
    await Promise.all(deferred);
    assert.equal(sub.verifications('/slow', 'subscribe').length, 1);
    assert.equal(await isSubscribed(store, 'atom', callback), true, 'verified once the waitUntil promise settled');
  });

  it('a failed delivery waits for the host scheduler (no timer in a function), which retries it', async () => {
    const callback = sub.url('/retry');
    sub.set('/retry', { notify: 'fail' });
    await Promise.all((await subscribeOn(a, callback, links.jsonFeed)).deferred);
    assert.ok(await isSubscribed(store, 'json-feed', callback));
    await forgetDistributedContent(store);
    const published = await b.call(form({ 'hub.mode': 'publish', 'hub.url': links.jsonFeed }));
    assert.equal(published.response.status, 202);
    await Promise.all(published.deferred);
    assert.equal(sub.notifications('/retry').length, 1, 'the first attempt failed');
    const job = await store.get<{ due_at: number }>(`websub:job:json-feed:${callbackKey(callback)}`);
    assert.ok(job, 'a retry is queued in Redis');
    sub.set('/retry', { notify: 'ok' });
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, job.due_at - Date.now()) + 500));
    assert.equal(sub.notifications('/retry').length, 1, 'nothing retries on its own inside a function');
    const tick = await host.runSchedule();
    assert.equal(tick.status, 200);
    assert.equal(tick.body.sweep.delivered, 1);
    assert.equal(sub.notifications('/retry').length, 2);
    assert.equal(await store.get(`websub:job:json-feed:${callbackKey(callback)}`), null);
    const again = await host.runSchedule();
    assert.equal(again.body.sweep.due, 0, 'the sweep is idempotent');
  });

  it('after a deploy with changed content, the racing post-deploy steps deliver it exactly once, with the bytes the CDN serves', async () => {
    const callback = sub.url('/deploy');
    await Promise.all((await subscribeOn(b, callback, links.atomFeed)).deferred);
    assert.ok(await isSubscribed(store, 'atom', callback));
    await until(async () => (await store.keys('websub:job:')).length === 0, 'no delivery pending');
    const stale = await forgetDistributedContent(store);
    await host.announceDeploy(2);
    await until(async () => (await store.get<{ hash: string }>('websub:hash:atom'))?.hash !== stale, 'the publish');
    await until(async () => (await store.keys('websub:job:')).length === 0, 'the delivery');
    const notes = sub.notifications('/deploy');
    assert.equal(notes.length, 1);
    assert.ok(
      notes[0]!.body.equals(readFileSync(join(host.staticDir, 'feed.xml'))),
      'the notification carries the feed as the CDN serves it',
    );
    assert.equal(notes[0]!.headers['content-type'], 'application/atom+xml; charset=utf-8');
    assert.equal(notes[0]!.headers.link, `<${links.hub}>; rel="hub", <${links.atomFeed}>; rel="self"`);
    // The same deploy announced again changes nothing.
    await host.announceDeploy(1);
    await new Promise((resolve) => setTimeout(resolve, 300));
    assert.equal(sub.notifications('/deploy').length, 1);
  });

  it('the moderation log is a topic too: a deploy that changes it delivers the log as the CDN serves it, once', async () => {
    const callback = sub.url('/moderation');
    await Promise.all((await subscribeOn(b, callback, links.moderationJson)).deferred);
    assert.ok(await isSubscribed(store, 'moderation', callback));
    await until(async () => (await store.keys('websub:job:')).length === 0, 'no delivery pending');
    const stale = 'stale-moderation-log';
    await store.set('websub:hash:moderation', { hash: stale, at: 0, generation: 0 } satisfies DistributedHash);
    await host.announceDeploy(2);
    await until(
      async () => (await store.get<{ hash: string }>('websub:hash:moderation'))?.hash !== stale,
      'the publish',
    );
    await until(async () => (await store.keys('websub:job:')).length === 0, 'the delivery');
    const notes = sub.notifications('/moderation');
    assert.equal(notes.length, 1);
    assert.ok(
      notes[0]!.body.equals(readFileSync(join(host.staticDir, 'moderation.json'))),
      'the log as the CDN serves it',
    );
    assert.equal(notes[0]!.headers['content-type'], 'application/json; charset=utf-8');
    assert.equal(notes[0]!.headers.link, `<${links.hub}>; rel="hub", <${links.moderationJson}>; rel="self"`);
  });
}

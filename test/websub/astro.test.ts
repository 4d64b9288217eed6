/**
 * The same hub through Astro's on-demand route (API_THROUGH_ASTRO=true): the
 * route table is bypassed and src/pages/api/websub/hub.ts answers, taking the
 * topic content over HTTP from the site. It must answer alike.
 */
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { after, before, it } from 'node:test';
import type { RunningServer } from '../helpers/server.ts';
import type { TestSubscriber } from '../helpers/subscriber.ts';
import type { Store } from '../../src/lib/store/index.ts';
import {
  forgetDistributedContent,
  freePort,
  hubFixture,
  hubPost,
  isSubscribed,
  publish,
  publishChange,
  settled,
  subscribe,
  TOPICS,
  unsubscribe,
  until,
  HUB_URL,
} from './helpers.ts';

const hub = hubFixture({
  build: 'content',
  storeDir: 'websub-astro-',
  env: async () => {
    const port = await freePort();
    return { API_THROUGH_ASTRO: 'true', PORT: String(port), WEBSUB_CONTENT_ORIGIN: `http://127.0.0.1:${port}` };
  },
});
let sub: TestSubscriber, server: RunningServer, store: Store;
before(async () => ({ sub, server, store } = await hub.open()));
after(() => hub.close());

it('subscribe → verify → notify with the content as served, signed; unsubscribe → none', async () => {
  const callback = sub.url('/astro', 'keep=me');
  const response = await subscribe(server.url, callback, TOPICS.jsonFeed.url, {
    'hub.secret': 's',
    'hub.lease_seconds': '5',
  });
  assert.equal(response.status, 202);
  await until(() => isSubscribed(store, 'json-feed', callback), 'active', 8000);
  const challenge = sub.verifications('/astro')[0]!;
  assert.ok(challenge.rawUrl.startsWith('/astro?keep=me&hub.mode=subscribe&'));
  assert.equal(challenge.query.get('hub.lease_seconds'), '3600');

  await forgetDistributedContent(store);
  assert.equal((await publish(server.url, TOPICS.jsonFeed.url)).status, 202);
  await sub.waitFor(() => sub.notifications('/astro').length === 1, 8000, 'notification');
  const note = sub.notifications('/astro')[0]!;
  const served = await fetch(`${server.url}/api/feed.json`);
  assert.ok(note.body.equals(Buffer.from(await served.arrayBuffer())));
  assert.equal(note.headers['content-type'], served.headers.get('content-type'));
  assert.equal(note.headers.link, `<${HUB_URL}>; rel="hub", <${TOPICS.jsonFeed.url}>; rel="self"`);
  assert.equal(note.headers['x-hub-signature'], `sha256=${createHmac('sha256', 's').update(note.body).digest('hex')}`);

  assert.equal((await unsubscribe(server.url, callback, TOPICS.jsonFeed.url)).status, 202);
  await until(async () => !(await isSubscribed(store, 'json-feed', callback)), 'unsubscribed');
  await publishChange(store, server.url, TOPICS.jsonFeed);
  await settled(store, 'json-feed', callback);
  assert.equal(sub.notifications('/astro').length, 1);
});

it('rejections, 405 and 413 answer as on the direct path', async () => {
  const bad = await subscribe(server.url, `http://127.0.0.1:${sub.port}/plain`, TOPICS.atom.url);
  assert.equal(bad.status, 400);
  const body = await bad.json();
  assert.equal(body.error, 'invalid_request');
  assert.equal(body.issues[0].path[0], 'hub.callback');
  assert.equal((await fetch(`${server.url}/api/websub/hub`)).status, 405);
  const big = await hubPost(server.url, {
    'hub.mode': 'publish',
    'hub.url': TOPICS.atom.url,
    pad: 'x'.repeat(70 * 1024),
  });
  assert.equal(big.status, 413);
  // Refused before anything was queued: nothing to wait for.
  assert.equal(sub.requests('/plain').length, 0);
});

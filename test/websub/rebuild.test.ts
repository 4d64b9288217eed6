/**
 * Publishing after a deploy, end to end: subscribers of the three topics on a
 * build of the small fixture; a rebuild with one new review, served after a
 * restart, notifies each subscriber exactly once per topic with the new
 * content. That a rebuild of the same content notifies no one is proven by
 * moderation-topic.test.ts (every topic unchanged) and
 * ../import/end-to-end.test.ts (byte-identical files, no notification).
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, it } from 'node:test';
import { ASTRO_BIN, BUILDS, buildEnv, NODE, ROOT, TEST_BUILDS_DIR } from '../helpers/builds.ts';
import { startServer, type RunningServer } from '../helpers/server.ts';
import type { TestSubscriber } from '../helpers/subscriber.ts';
import type { Store } from '../../src/lib/store/index.ts';
import { ALL_TOPICS, hubFixture, isSubscribed, logged, STARTUP_DONE, subscribe, until } from './helpers.ts';

let sub: TestSubscriber;
let store: Store;
let work: string;
let env: Record<string, string>;
let server: RunningServer | undefined;
let built: Promise<void>;

const NEW_REVIEW = `---
date: 2025-07-01
rating: 5
title: Fast storm repair
author: Nora W.
technicians: [Maria Santos]
services: [roof-repair]
source: website
verified: true
verification: { method: job, checked: 2025-07-01 }
---
They patched the storm damage the same afternoon. Thank you!
`;

function build(contentDir: string, outDir: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(NODE, [ASTRO_BIN, 'build'], {
      cwd: ROOT,
      env: buildEnv(contentDir, outDir),
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let errors = '';
    child.stderr.on('data', (chunk) => (errors += chunk));
    child.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`build failed (${code}):\n${errors}`))));
  });
}

// No server of the fixture's: the test starts its own, on three builds, with `env`.
const hub = hubFixture({
  storeDir: () => {
    // Inside the project: the server bundle resolves its packages from the project's node_modules.
    mkdirSync(TEST_BUILDS_DIR, { recursive: true });
    work = mkdtempSync(join(TEST_BUILDS_DIR, 'websub-rebuild-'));
    return join(work, 'store');
  },
});

before(async () => {
  ({ sub, store, env } = await hub.open());
  // The new content: the small fixture plus one review.
  const content = join(work, 'content');
  cpSync(BUILDS.small.contentDir, content, { recursive: true });
  writeFileSync(join(content, 'reviews', '2025-07-01-nora-w-storm.md'), NEW_REVIEW);
  // Started now, awaited when needed: the build runs while the subscribers sign up.
  built = build(content, join(work, 'new'));
  built.catch(() => {});
});
after(async () => {
  await server?.stop();
  await hub.close();
  if (work) rmSync(work, { recursive: true, force: true });
});

it('one new review → exactly one notification per topic and subscriber, with the new content', async () => {
  server = await startServer('small', env);
  await logged(server, STARTUP_DONE, 'the first start-up publish');
  const paths = ['/s1', '/s2'];
  for (const path of paths) {
    for (const topic of ALL_TOPICS) {
      const callback = sub.url(path, `topic=${topic.id}`);
      assert.equal((await subscribe(server.url, callback, topic.url)).status, 202);
      await until(() => isSubscribed(store, topic.id, callback), 'active');
    }
  }
  assert.equal(sub.notifications('/s1').length + sub.notifications('/s2').length, 0, 'nothing before the deploy');
  await server.stop();

  await built;
  server = await startServer({ outDir: join(work, 'new') }, env);
  await sub.waitFor(
    () => paths.every((path) => sub.notifications(path).length === 3),
    8000,
    'one notification per topic',
  );
  // Logged once every start-up delivery is done: nothing more is on its way.
  await logged(server, STARTUP_DONE, 'the start-up publish after the deploy');
  for (const path of paths) {
    const notes = sub.notifications(path);
    assert.equal(notes.length, 3, `${path}: one per topic`);
    for (const topic of ALL_TOPICS) {
      const mine = notes.filter((note) => note.query.get('topic') === topic.id);
      assert.equal(mine.length, 1, `${path} ${topic.id}`);
      const served = readFileSync(
        join(work, 'new', 'client', topic.path === '/feed.xml' ? 'feed.xml' : topic.path.slice(1)),
      );
      assert.ok(mine[0]!.body.equals(served), `${topic.id} carries the new content`);
      assert.match(mine[0]!.body.toString('utf8'), /Nora W\./);
    }
  }
});

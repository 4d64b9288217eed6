/**
 * The moderation log is a WebSub topic like the datasets: a deploy that takes a
 * review down notifies its subscribers once, with the new /moderation.json; a
 * rebuild of the same content notifies no one.
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
import {
  HUB_URL,
  hubFixture,
  isSubscribed,
  logged,
  MODERATION_TOPIC,
  STARTUP_DONE,
  subscribe,
  until,
} from './helpers.ts';

let sub: TestSubscriber;
let store: Store;
let work: string;
let env: Record<string, string>;
let server: RunningServer | undefined;
let builds: Promise<void>;

const TAKEN_DOWN = '2023-02-14-ann-storm';

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

const hub = hubFixture({
  storeDir: () => {
    // Inside the project: the server bundle resolves its packages from the project's node_modules.
    mkdirSync(TEST_BUILDS_DIR, { recursive: true });
    work = mkdtempSync(join(TEST_BUILDS_DIR, 'websub-moderation-'));
    return join(work, 'store');
  },
});

before(async () => {
  ({ sub, store, env } = await hub.open());
  // The small fixture with one review taken down, built twice (the second is "a rebuild without changes").
  const content = join(work, 'content');
  cpSync(BUILDS.small.contentDir, content, { recursive: true });
  const file = join(content, 'reviews', `${TAKEN_DOWN}.md`);
  const original = readFileSync(file, 'utf8');
  const takenDown = original.replace(
    /^verified: true$/m,
    'verified: false\nremoval:\n  reason: personal-data\n  date: 2025-08-01',
  );
  assert.notEqual(takenDown, original, 'the fixture review was published');
  writeFileSync(file, takenDown);
  builds = Promise.all([build(content, join(work, 'new')), build(content, join(work, 'again'))]).then(() => {});
  builds.catch(() => {});
});
after(async () => {
  await server?.stop();
  await hub.close();
  if (work) rmSync(work, { recursive: true, force: true });
});

it('a takedown → exactly one notification on the moderation topic, with the new log; a rebuild without changes → none', async () => {
  server = await startServer('small', env);
  await logged(server, STARTUP_DONE, 'the first start-up publish');
  assert.equal(
    (await fetch(`${server.url}/moderation.json`, { method: 'HEAD' })).headers.get('link'),
    `<${HUB_URL}>; rel="hub", <${MODERATION_TOPIC.url}>; rel="self"`,
    'subscribers discover the hub from the log itself',
  );
  const callback = sub.url('/moderation', `topic=${MODERATION_TOPIC.id}`);
  assert.equal((await subscribe(server.url, callback, MODERATION_TOPIC.url)).status, 202);
  await until(() => isSubscribed(store, MODERATION_TOPIC.id, callback), 'active');
  assert.equal(sub.notifications('/moderation').length, 0, 'nothing before the deploy');
  await server.stop();

  await builds;
  server = await startServer({ outDir: join(work, 'new') }, env);
  await sub.waitFor(() => sub.notifications('/moderation').length === 1, 8000, 'the notification');
  await logged(server, STARTUP_DONE, 'the start-up publish after the deploy');
  const notes = sub.notifications('/moderation');
  assert.equal(notes.length, 1, 'exactly one');
  const served = readFileSync(join(work, 'new', 'client', 'moderation.json'));
  assert.ok(notes[0]!.body.equals(served), 'the notification carries the log as served');
  const log = JSON.parse(served.toString('utf8')) as { removals: Array<{ id: string; reason: string }> };
  assert.deepEqual(
    log.removals.filter((removal) => removal.id === TAKEN_DOWN).map((removal) => removal.reason),
    ['personal-data'],
  );
  assert.equal(notes[0]!.headers.link, `<${HUB_URL}>; rel="hub", <${MODERATION_TOPIC.url}>; rel="self"`);
  await server.stop();

  server = await startServer({ outDir: join(work, 'again') }, env);
  await logged(server, STARTUP_DONE, 'the start-up publish after the rebuild');
  assert.match(server.output(), /start-up publish done \(unchanged, unchanged, unchanged, unchanged\)/);
  assert.equal(sub.notifications('/moderation').length, 1, 'a rebuild of the same content notifies no one');
});

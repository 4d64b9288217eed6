/**
 * The editors' whole loop on a copy of the real content/, as an office worker
 * does it: copy a review file under a new name, change its date and text, and
 * nothing else → it builds → the new deploy publishes → each subscriber gets
 * it once. Then take reviews down (`verified: false`, a deleted file) and
 * change one → it builds → subscribers hear once more, and API clients, feeds
 * and MCP no longer see the removed reviews.
 */
import assert from 'node:assert/strict';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, it } from 'node:test';
import { BUILDS, buildSite, TEST_BUILDS_DIR } from '../helpers/builds.ts';
import { startServer, type RunningServer } from '../helpers/server.ts';
import type { TestSubscriber } from '../helpers/subscriber.ts';
import { initialize, post } from '../mcp/helpers.ts';
import { ALL_TOPICS, hubFixture, isSubscribed, logged, STARTUP_DONE, subscribe, until } from '../websub/helpers.ts';
import type { Store } from '../../src/lib/store/index.ts';

let sub: TestSubscriber;
let store: Store;
let work: string;
let env: Record<string, string>;
let server: RunningServer | undefined;

const NEW_ID = '2026-11-20-joan-d-gutter-guards';
const NEW_TEXT =
  'Joan here: the gutter guards went on in one morning and not a single leaf got through the storm that weekend.';

const build = buildSite;

const hub = hubFixture({
  storeDir: () => {
    mkdirSync(TEST_BUILDS_DIR, { recursive: true });
    work = mkdtempSync(join(TEST_BUILDS_DIR, 'editor-loop-'));
    return join(work, 'store');
  },
});

let content: string;
let reviewFiles: string[];
let added: Promise<string>;

before(async () => {
  ({ sub, store, env } = await hub.open());
  content = join(work, 'content');
  cpSync(BUILDS.content.contentDir, content, { recursive: true });
  reviewFiles = readdirSync(join(content, 'reviews')).sort();
  // What an editor does: copy the newest review under a new name, change the date and the text. Nothing else.
  const newest = readFileSync(join(content, 'reviews', reviewFiles.at(-1)!), 'utf8');
  const [, frontmatter] = /^---\n([\s\S]*?)\n---\n/.exec(newest)!;
  const copy = `---\n${frontmatter
    .replace(/^date: .*$/m, 'date: 2026-11-20')
    .replace(/^updated: .*\n/m, '')
    .replace(/^response:[\s\S]*$/m, '')
    .trimEnd()}\n---\n${NEW_TEXT}\n`;
  writeFileSync(join(content, 'reviews', `${NEW_ID}.md`), copy);
  // Built while the subscribers sign up.
  added = build(content, join(work, 'added'));
  added.catch(() => {});
});
after(async () => {
  await server?.stop();
  await hub.close();
  if (work) rmSync(work, { recursive: true, force: true });
});

const json = async (url: string) => {
  const response = await fetch(url);
  return { status: response.status, body: response.status === 200 ? await response.json() : null };
};

it('a copied review file builds without any other edit, and each subscriber is notified once per topic', async () => {
  server = await startServer('content', env);
  await logged(server, STARTUP_DONE, 'the first start-up publish');
  for (const topic of ALL_TOPICS) {
    const callback = sub.url('/partner', `topic=${topic.id}`);
    assert.equal((await subscribe(server.url, callback, topic.url)).status, 202);
    await until(() => isSubscribed(store, topic.id, callback), 'active');
  }
  const before = (await json(`${server.url}/reviews.json`)).body;
  await server.stop();

  const output = await added;
  assert.doesNotMatch(output, /stale|problem/i);
  server = await startServer({ outDir: join(work, 'added') }, env);
  await sub.waitFor(() => sub.notifications('/partner').length === 3, 10_000, 'one notification per topic');
  await logged(server, STARTUP_DONE, 'the start-up publish after the deploy');
  const notes = sub.notifications('/partner');
  for (const topic of ALL_TOPICS)
    assert.equal(notes.filter((n) => n.query.get('topic') === topic.id).length, 1, topic.id);
  for (const note of notes)
    assert.ok(note.body.toString('utf8').includes('Joan here'), 'the notification carries the new review');

  const after = (await json(`${server.url}/reviews.json`)).body;
  assert.equal(after.reviews.length, before.reviews.length + 1);
  assert.equal(after.reviews[0].id, NEW_ID, 'the newest review comes first');
  assert.equal(after.aggregate_rating.review_count, before.aggregate_rating.review_count + 1);
  const insights = (await json(`${server.url}/insights.json`)).body;
  assert.equal(insights.summary.figures.review_count, after.reviews.length);
  assert.ok(
    insights.summary.text.includes(`Customers have left ${after.reviews.length} verified reviews`),
    insights.summary.text,
  );
  assert.ok(
    insights.summary.text.includes(String(after.aggregate_rating.rating_value)),
    'the summary quotes the new average',
  );
  assert.equal((await fetch(`${server.url}/reviews/${NEW_ID}`)).status, 200);
  const found = (await json(`${server.url}/api/reviews/search?query=not%20a%20single%20leaf`)).body;
  assert.deepEqual(
    found.reviews.map((r: { id: string }) => r.id),
    [NEW_ID],
  );
});

it('taking reviews down (verified: false, a deleted file) and editing one: one more notification; the reviews are gone everywhere', async () => {
  const reviews = join(content, 'reviews');
  const deleted = reviewFiles[0]!.replace(/\.md$/, '');
  const edited = reviewFiles[1]!;
  writeFileSync(
    join(reviews, `${NEW_ID}.md`),
    readFileSync(join(reviews, `${NEW_ID}.md`), 'utf8').replace(
      'verified: true',
      'verified: false\nremoval: { reason: customer-request, date: 2026-11-23 }',
    ),
  );
  rmSync(join(reviews, `${deleted}.md`));
  writeFileSync(
    join(reviews, edited),
    readFileSync(join(reviews, edited), 'utf8').replace(
      /\n---\n([\s\S]*)$/,
      '\n---\n$1 (Edited: the customer added a line.)\n',
    ),
  );
  const output = await build(content, join(work, 'changed'));
  assert.match(output, new RegExp(`1 review file\\(s\\) marked verified: false, not published: ${NEW_ID}`));

  await server!.stop();
  server = await startServer({ outDir: join(work, 'changed') }, env);
  await sub.waitFor(() => sub.notifications('/partner').length === 6, 10_000, 'a second notification per topic');
  await logged(server, STARTUP_DONE, 'the start-up publish after the take-down');
  assert.equal(sub.notifications('/partner').length, 6, 'once per topic, no more');

  const dataset = (await json(`${server.url}/reviews.json`)).body;
  const ids = dataset.reviews.map((r: { id: string }) => r.id);
  for (const gone of [NEW_ID, deleted]) {
    assert.ok(!ids.includes(gone), `${gone} is not in reviews.json`);
    assert.equal((await fetch(`${server.url}/reviews/${gone}`)).status, 404, `${gone} has no page`);
    for (const feed of ['/feed.xml', '/api/feed.json'])
      assert.ok(!(await (await fetch(server.url + feed)).text()).includes(gone), `${gone} not in ${feed}`);
    const since = (await json(`${server.url}/api/reviews/since/2000-01-01`)).body;
    assert.ok(!since.reviews.some((r: { id: string }) => r.id === gone), `${gone} not in since`);
  }
  assert.equal(dataset.reviews.length, reviewFiles.length - 1);
  const editedId = edited.replace(/\.md$/, '');
  assert.match(
    dataset.reviews.find((r: { id: string; text: string }) => r.id === editedId).text,
    /\(Edited: the customer added a line\.\)$/,
  );
  const last = sub.notifications('/partner').at(-1)!.body.toString('utf8');
  assert.ok(!last.includes('Joan here'), 'the last notification no longer carries the unpublished review');

  const { sessionId } = await initialize(`${server.url}/mcp`);
  const reply = await post(
    `${server.url}/mcp`,
    { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'get_review', arguments: { id: NEW_ID } } },
    { 'mcp-session-id': sessionId!, 'mcp-protocol-version': '2025-06-18' },
  );
  const result = (reply.json as { result: { isError?: boolean; content: Array<{ text: string }> } }).result;
  assert.equal(result.isError, true, 'MCP get_review of an unpublished review is an error result');
  assert.match(result.content[0]!.text, /not found|no review/i);
});

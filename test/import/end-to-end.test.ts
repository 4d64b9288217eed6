/**
 * An import as the office does it, on a copy of the real content/: exports in
 * (a Takeout folder with two locations, a Trustpilot export) → build → deploy.
 * The imported reviews appear once, with their provenance, through REST, the
 * feeds, MCP and their pages, and subscribers hear once per topic. The same
 * exports imported again build to the same bytes (same content in, same bytes
 * out: every static file of a second build) and notify no one; an export
 * with one review edited on the platform changes one file and notifies once
 * per topic.
 */
import assert from 'node:assert/strict';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { after, before, it } from 'node:test';
import { totals } from '../../src/lib/import/report.ts';
import { importReviews } from '../../src/lib/import/run.ts';
import { BUILDS, buildSite, TEST_BUILDS_DIR } from '../helpers/builds.ts';
import { startServer, type RunningServer } from '../helpers/server.ts';
import type { TestSubscriber } from '../helpers/subscriber.ts';
import { initialize, post } from '../mcp/helpers.ts';
import { ALL_TOPICS, hubFixture, isSubscribed, logged, STARTUP_DONE, subscribe, until } from '../websub/helpers.ts';
import type { Store } from '../../src/lib/store/index.ts';
import { googleReview, trustpilotReview, writeJson, writeTakeout } from './exports.ts';

let sub: TestSubscriber;
let store: Store;
let work: string;
let env: Record<string, string>;
let server: RunningServer | undefined;
let content: string;
let exports: string;
let imported: Promise<string>;

const GOOGLE_ID = 'ChdDSUhNMG9nS0VJQ0FnSUR1X2VpQmpRRRAB';
const TRUSTPILOT_ID = '6650f1a2b3c4d5e6f7a8b9c0';
const IDS = {
  google: '2026-11-21-priya-r',
  anonymous: '2026-11-22-google-user',
  trustpilot: '2026-11-23-emilie-d',
};

const build = buildSite;

function writeExports(root: string, edited = false): string {
  writeTakeout(
    root,
    {
      '101': [
        googleReview('2201', '101', GOOGLE_ID, {
          reviewer: { displayName: 'Priya Raman' },
          comment: edited
            ? 'Maria Santos found the leak in our skylight flashing that two other roofers missed. Fixed in a day, and it held through a week of rain.'
            : 'Maria Santos found the leak in our skylight flashing that two other roofers missed. Fixed in a day.',
          createTime: '2026-11-21T18:04:05.120Z',
          updateTime: edited ? '2026-11-30T08:00:00Z' : '2026-11-21T18:04:05.120Z',
          reviewReply: { comment: 'Thank you, Priya!', updateTime: '2026-11-22T09:00:00Z' },
        }),
      ],
      '102': [
        googleReview('2201', '102', 'AnonReview2', {
          reviewer: { isAnonymous: true },
          stars: 4,
          comment: 'Quick gutter repair in Hillsboro, fair price.',
          createTime: '2026-11-22T12:00:00Z',
          updateTime: '2026-11-22T12:00:00Z',
        }),
      ],
    },
    '2201',
  );
  writeJson(join(root, 'trustpilot.json'), {
    reviews: [
      trustpilotReview(TRUSTPILOT_ID, {
        title: 'Straight answers',
        text: 'Sarah Lindqvist did our roof inspection and told us we did not need a new roof yet. Honest people.',
        consumer: { displayName: 'Émilie D.' },
        createdAt: '2026-11-23T10:00:00Z',
      }),
    ],
  });
  return root;
}

function files(dir: string): Map<string, Buffer> {
  const out = new Map<string, Buffer>();
  const walk = (d: string) => {
    for (const name of readdirSync(d)) {
      const path = join(d, name);
      if (statSync(path).isDirectory()) walk(path);
      else out.set(relative(dir, path), readFileSync(path));
    }
  };
  walk(dir);
  return out;
}

/** For each file (the first few), where the two builds part: the byte offset and the text around it in each. */
function whereTheyDiffer(names: string[], first: Map<string, Buffer>, second: Map<string, Buffer>): string {
  return names
    .slice(0, 5)
    .map((name) => {
      const [a, b] = [first.get(name)!, second.get(name)!];
      let at = 0;
      while (at < a.length && at < b.length && a[at] === b[at]) at++;
      const around = (bytes: Buffer) => JSON.stringify(bytes.subarray(Math.max(0, at - 80), at + 80).toString('utf8'));
      return `${name} (${a.length} and ${b.length} bytes) from byte ${at}:\n  first:  ${around(a)}\n  second: ${around(b)}`;
    })
    .join('\n');
}

const hub = hubFixture({
  storeDir: () => {
    mkdirSync(TEST_BUILDS_DIR, { recursive: true });
    work = mkdtempSync(join(TEST_BUILDS_DIR, 'import-e2e-'));
    return join(work, 'store');
  },
});

before(async () => {
  ({ sub, store, env } = await hub.open());
  content = join(work, 'content');
  cpSync(BUILDS.content.contentDir, content, { recursive: true });
  exports = writeExports(join(work, 'exports'));
  const report = importReviews([exports], { contentDir: content });
  assert.deepEqual(totals(report), { added: 3, updated: 0, unchanged: 0, skipped: 0, rejected: 0 });
  imported = build(content, join(work, 'imported'));
  imported.catch(() => {});
});
after(async () => {
  await server?.stop();
  await hub.close();
  if (work) rmSync(work, { recursive: true, force: true });
});

const json = async (url: string) => (await fetch(url)).json();

it('imported reviews are published once, with provenance, everywhere; one notification per topic', async () => {
  server = await startServer('content', env);
  await logged(server, STARTUP_DONE, 'the first start-up publish');
  for (const topic of ALL_TOPICS) {
    const callback = sub.url('/partner', `topic=${topic.id}`);
    assert.equal((await subscribe(server.url, callback, topic.url)).status, 202);
    await until(() => isSubscribed(store, topic.id, callback), 'active');
  }
  const before = await json(`${server.url}/reviews.json`);
  await server.stop();

  await imported;
  server = await startServer({ outDir: join(work, 'imported') }, env);
  await sub.waitFor(() => sub.notifications('/partner').length === 3, 10_000, 'one notification per topic');
  await logged(server, STARTUP_DONE, 'the start-up publish after the deploy');
  for (const topic of ALL_TOPICS)
    assert.equal(sub.notifications('/partner').filter((n) => n.query.get('topic') === topic.id).length, 1, topic.id);

  const dataset = await json(`${server.url}/reviews.json`);
  assert.equal(dataset.reviews.length, before.reviews.length + 3);
  const byId = new Map(dataset.reviews.map((r: { id: string }) => [r.id, r]));
  assert.deepEqual(byId.get(IDS.google), {
    id: IDS.google,
    date: '2026-11-21',
    updated: '2026-11-22T09:00:00Z',
    rating: 5,
    text: 'Maria Santos found the leak in our skylight flashing that two other roofers missed. Fixed in a day.',
    author: { name: 'Priya R.' },
    technicians: ['Maria Santos'],
    services: ['skylights'],
    service_area: null,
    source: 'google',
    source_id: GOOGLE_ID,
    verified: true,
    verification: { method: 'platform', checked: '2026-11-22' },
    response: { date: '2026-11-22', text: 'Thank you, Priya!' },
  });
  assert.equal(
    (byId.get(IDS.trustpilot) as { source_url: string }).source_url,
    `https://www.trustpilot.com/reviews/${TRUSTPILOT_ID}`,
  );
  for (const id of Object.values(IDS))
    assert.equal(dataset.reviews.filter((r: { id: string }) => r.id === id).length, 1, `${id} once`);

  const search = await json(`${server.url}/api/reviews/search?query=skylight%20flashing`);
  assert.deepEqual(
    search.reviews.map((r: { id: string; source_id: string }) => [r.id, r.source_id]),
    [[IDS.google, GOOGLE_ID]],
  );
  const since = await json(`${server.url}/api/reviews/since/2026-11-21`);
  assert.deepEqual(
    since.reviews.filter((r: { source_id?: string }) => r.source_id).map((r: { id: string }) => r.id),
    [IDS.google, IDS.anonymous, IDS.trustpilot],
  );

  const feed = await json(`${server.url}/api/feed.json`);
  const item = feed.items.find((i: { _review: { id: string } }) => i._review.id === IDS.trustpilot);
  assert.equal(item._review.source_id, TRUSTPILOT_ID);
  assert.equal(item._review.source_url, `https://www.trustpilot.com/reviews/${TRUSTPILOT_ID}`);
  const atom = await (await fetch(`${server.url}/feed.xml`)).text();
  assert.ok(atom.includes(`/reviews/${IDS.google}`));
  // The entry's HTML content (escaped once more inside the XML) names the platform, linked where it has a page.
  assert.ok(atom.includes('Originally posted on Google'), 'Atom: the Google review names its platform');
  assert.ok(
    atom.includes(
      `&lt;a href=&quot;https://www.trustpilot.com/reviews/${TRUSTPILOT_ID}&quot;&gt;Trustpilot&lt;/a&gt;`,
    ) || atom.includes(`<a href="https://www.trustpilot.com/reviews/${TRUSTPILOT_ID}">Trustpilot</a>`),
    'Atom: the Trustpilot review links its original',
  );

  const { sessionId } = await initialize(`${server.url}/mcp`);
  const reply = await post(
    `${server.url}/mcp`,
    { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'get_review', arguments: { id: IDS.trustpilot } } },
    { 'mcp-session-id': sessionId!, 'mcp-protocol-version': '2025-06-18' },
  );
  const result = (
    reply.json as { result: { isError?: boolean; structuredContent: { review: Record<string, unknown> } } }
  ).result;
  assert.notEqual(result.isError, true);
  assert.equal(result.structuredContent.review.source_id, TRUSTPILOT_ID);
  assert.equal(result.structuredContent.review.source_url, `https://www.trustpilot.com/reviews/${TRUSTPILOT_ID}`);

  const trustpilotPage = await (await fetch(`${server.url}/reviews/${IDS.trustpilot}`)).text();
  assert.match(
    trustpilotPage,
    new RegExp(
      `Posted on <a href="https://www\\.trustpilot\\.com/reviews/${TRUSTPILOT_ID}" rel="nofollow noopener">Trustpilot</a>`,
    ),
  );
  const googlePage = await (await fetch(`${server.url}/reviews/${IDS.google}`)).text();
  assert.match(googlePage, /Posted on Google/);
  // A review typed here keeps its line: where it was written, and how it was verified.
  const typed = await (await fetch(`${server.url}/reviews/${before.reviews[0].id}`)).text();
  assert.match(typed, /<p class="trust">.*(Posted on|Written here|Sent to the business|Given to the business).*<\/p>/);
});

it('the same exports again: no file changes, a byte-identical build, no notification', async () => {
  const report = importReviews([exports], { contentDir: content });
  assert.deepEqual(totals(report), { added: 0, updated: 0, unchanged: 3, skipped: 0, rejected: 0 });
  await build(content, join(work, 'again'));
  const first = files(join(work, 'imported', 'client'));
  const second = files(join(work, 'again', 'client'));
  assert.deepEqual([...second.keys()].sort(), [...first.keys()].sort());
  for (const file of ['reviews.json', 'api/feed.json', 'feed.xml', 'index.html', 'static-manifest.json'])
    assert.ok(first.has(file), `${file} is built`);
  const differing = [...first].filter(([name, bytes]) => !bytes.equals(second.get(name)!)).map(([name]) => name);
  assert.deepEqual(
    differing,
    [],
    `files that differ between two builds of the same content:\n${whereTheyDiffer(differing, first, second)}`,
  );

  await server!.stop();
  server = await startServer({ outDir: join(work, 'again') }, env);
  await logged(server, STARTUP_DONE, 'the start-up publish after the rebuild');
  assert.match(server.output(), /start-up publish done \(unchanged, unchanged, unchanged, unchanged\)/);
  assert.equal(sub.notifications('/partner').length, 3, 'no new notification');
});

it('one review edited on Google: one file changes, one notification per topic with the new text', async () => {
  const reviews = join(content, 'reviews');
  const beforeFiles = files(reviews);
  const edited = writeExports(join(work, 'exports-edited'), true);
  const report = importReviews([edited], { contentDir: content });
  assert.deepEqual(totals(report), { added: 0, updated: 1, unchanged: 2, skipped: 0, rejected: 0 });
  const afterFiles = files(reviews);
  assert.deepEqual(
    [...afterFiles].filter(([name, bytes]) => !bytes.equals(beforeFiles.get(name)!)).map(([name]) => name),
    [`${IDS.google}.md`],
  );
  await build(content, join(work, 'edited'));

  await server!.stop();
  server = await startServer({ outDir: join(work, 'edited') }, env);
  await sub.waitFor(() => sub.notifications('/partner').length === 6, 10_000, 'a second notification per topic');
  await logged(server, STARTUP_DONE, 'the start-up publish after the edit');
  const notes = sub.notifications('/partner');
  assert.equal(notes.length, 6);
  for (const topic of ALL_TOPICS) {
    const mine = notes.filter((n) => n.query.get('topic') === topic.id);
    assert.equal(mine.length, 2, topic.id);
    assert.ok(mine[1]!.body.toString('utf8').includes('held through a week of rain'), `${topic.id} carries the edit`);
  }
  const review = await json(`${server.url}/reviews/${IDS.google}.json`);
  assert.equal(review.updated, '2026-11-30T08:00:00Z');
});

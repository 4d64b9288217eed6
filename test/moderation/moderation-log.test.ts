/**
 * Verification and takedowns, end to end over a real build of the small content with two
 * reviews taken down and one published by invitation: the moderation log and the counts are
 * recomputed here from the files (with `yaml` alone, not the loader), and compared with what
 * the server, the insights and MCP publish; nothing of a removed review but its id, rating,
 * day and reason appears anywhere in the build or in MCP answers; /about-reviews says what
 * business.yaml says.
 */
import assert from 'node:assert/strict';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { parse } from 'yaml';
import { buildSite, ROOT, TEST_BUILDS_DIR } from '../helpers/builds.ts';
import { startServer, type RunningServer } from '../helpers/server.ts';

const CANARY_TEXT = 'Zanzibar-quokka-7741 called me at 503-555-0199';
const CANARY_AUTHOR = 'Quentin Removedson';
const CANARY_TEXT_2 = 'Second canary: marmalade-heron-3302';
const CANARY_AUTHOR_2 = 'Ursula Duplicova';
const JOB_REF = 'JOB-PRIVATE-88231';
const SETTINGS = {
  invitation: 'A text message two days after the crew leaves, with a link to the review form.',
  contact: 'reviews-desk@cedarridgeroofing.example',
  reply_days: 3,
};

const FILES: Record<string, string> = {
  '2025-06-05-quentin-r.md': `---
date: 2025-06-05
rating: 1
author: ${CANARY_AUTHOR}
services: [roof-repair]
source: website
verified: false
removal:
  reason: personal-data
  date: 2025-06-09
---
${CANARY_TEXT}
`,
  '2025-06-06-ursula-d.md': `---
date: 2025-06-06
rating: 5
author: ${CANARY_AUTHOR_2}
services: [gutters]
source: email
verified: false
verification: { method: invitation, checked: 2025-06-06 }
removal: { reason: duplicate, date: 2025-06-07 }
---
${CANARY_TEXT_2}
`,
  '2025-06-08-nora-w.md': `---
date: 2025-06-08
rating: 2
author: Nora W.
services: [roof-repair]
source: email
verified: true
verification:
  method: invitation
  checked: 2025-06-08
  job: ${JOB_REF}
---
The crew came late but the repair holds.
`,
};

let work: string;
let content: string;
let outDir: string;
let server: RunningServer;

before(async () => {
  mkdirSync(TEST_BUILDS_DIR, { recursive: true });
  work = mkdtempSync(join(TEST_BUILDS_DIR, 'moderation-'));
  content = join(work, 'content');
  outDir = join(work, 'dist');
  cpSync(join(ROOT, 'test/fixtures/content-small'), content, { recursive: true });
  for (const [name, text] of Object.entries(FILES)) writeFileSync(join(content, 'reviews', name), text);
  const business = readFileSync(join(content, 'business.yaml'), 'utf8');
  writeFileSync(
    join(content, 'business.yaml'),
    `${business.trimEnd()}\nreview_collection:\n  methods: [job, invitation]\n  invitation: ${SETTINGS.invitation}\n  contact: ${SETTINGS.contact}\n  reply_days: ${SETTINGS.reply_days}\n`,
  );
  await buildSite(content, outDir);
  server = await startServer({ outDir });
});

after(async () => {
  await server?.stop();
  rmSync(work, { recursive: true, force: true });
});

/** The files' frontmatter, read here without the project's loader. */
function frontmatters(): Array<Record<string, any> & { id: string }> {
  return readdirSync(join(content, 'reviews'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => {
      const [, head] = /^---\n([\s\S]*?)\n---\n/.exec(readFileSync(join(content, 'reviews', name), 'utf8'))!;
      return { ...parse(head), id: name.slice(0, -3) };
    });
}

function expectedLog() {
  const files = frontmatters();
  const published = files.filter((f) => f.verified === true);
  const removed = files.filter((f) => f.verified === false);
  const count = (values: string[], keys: string[]) =>
    Object.fromEntries(keys.map((key) => [key, values.filter((v) => v === key).length]));
  return {
    counts: {
      published: published.length,
      removed: removed.length,
      by_method: count(
        published.map((f) => f.verification.method),
        ['platform', 'job', 'invitation'],
      ),
      removed_by_reason: count(
        removed.map((f) => f.removal.reason),
        ['not-a-customer', 'personal-data', 'offensive', 'spam', 'duplicate', 'legal-order', 'customer-request'],
      ),
      removed_by_rating: count(
        removed.map((f) => String(f.rating)),
        ['1', '2', '3', '4', '5'],
      ),
    },
    removals: removed
      .map((f) => ({ id: f.id, rating: f.rating, date: f.removal.date, reason: f.removal.reason }))
      .sort((a, b) => (a.date === b.date ? a.id.localeCompare(b.id) : b.date.localeCompare(a.date))),
  };
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? filesUnder(join(dir, entry.name)) : [join(dir, entry.name)],
  );
}

describe('the moderation log', () => {
  it('is served as /moderation.json, recomputed from the files, with an ETag, CORS and the datasets’ caching', async () => {
    const response = await fetch(`${server.url}/moderation.json`);
    assert.equal(response.status, 200);
    assert.match(response.headers.get('content-type') ?? '', /^application\/json/);
    assert.equal(response.headers.get('access-control-allow-origin'), '*');
    const etag = response.headers.get('etag');
    assert.ok(etag, 'an ETag');
    const reviews = await fetch(`${server.url}/reviews.json`);
    assert.equal(response.headers.get('cache-control'), reviews.headers.get('cache-control'));
    const log = await response.json();
    const { updated, ...rest } = log;
    assert.deepEqual(rest, expectedLog());
    const reviewsUpdated: string = (await reviews.json()).updated;
    const newestRemoval = `${expectedLog().removals[0]!.date}T00:00:00Z`;
    assert.equal(updated, newestRemoval > reviewsUpdated ? newestRemoval : reviewsUpdated, 'the later of the two');
    const again = await fetch(`${server.url}/moderation.json`, { headers: { 'if-none-match': etag } });
    assert.equal(again.status, 304);
  });

  it('its counts are in insights.json, and OpenAPI describes the dataset', async () => {
    const insights = await (await fetch(`${server.url}/insights.json`)).json();
    assert.deepEqual(insights.moderation, expectedLog().counts);
    const openapi = await (await fetch(`${server.url}/openapi.json`)).json();
    assert.ok(openapi.paths['/moderation.json']?.get, 'an OpenAPI entry');
    assert.deepEqual(Object.keys(openapi.components.schemas.ModerationLog.properties), [
      'counts',
      'removals',
      'updated',
    ]);
  });

  it('every published review states its method and day, never the office’s job reference', async () => {
    const dataset = await (await fetch(`${server.url}/reviews.json`)).json();
    const byId = new Map(frontmatters().map((f) => [f.id, f]));
    for (const review of dataset.reviews) {
      const file = byId.get(review.id)!;
      assert.deepEqual(review.verification, {
        method: file.verification.method,
        checked: file.verification.checked,
      });
    }
    const feed = await (await fetch(`${server.url}/api/feed.json`)).json();
    assert.deepEqual(feed.items.find((item: any) => item._review.id === '2025-06-08-nora-w')._review.verification, {
      method: 'invitation',
      checked: '2025-06-08',
    });
    const found = await (await fetch(`${server.url}/api/reviews/search?query=repair%20holds`)).json();
    assert.equal(found.reviews[0].verification.method, 'invitation');
  });

  it('nothing of a removed review but its id, rating, day and reason is in any file of the build', () => {
    const secrets = [
      CANARY_TEXT,
      'Zanzibar-quokka',
      CANARY_AUTHOR,
      CANARY_TEXT_2,
      'marmalade-heron',
      CANARY_AUTHOR_2,
      JOB_REF,
    ];
    const files = filesUnder(outDir).filter((file) => !/\.(br|gz)$/.test(file));
    assert.ok(files.some((file) => file.endsWith('moderation.json')));
    assert.ok(files.some((file) => file.endsWith('sitemap.xml')));
    for (const file of files) {
      const text = readFileSync(file, 'latin1');
      for (const secret of secrets) assert.ok(!text.includes(secret), `${secret} in ${file}`);
    }
  });

  it('MCP: get_business has the counts, the log is a resource, and no answer carries a removed review', async () => {
    const client = new Client({ name: 'moderation-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`)));
    try {
      const business = (await client.callTool({ name: 'get_business', arguments: {} })) as any;
      assert.deepEqual(business.structuredContent.moderation, expectedLog().counts);
      const { resources } = await client.listResources();
      const resource = resources.find((r) => r.name === 'moderation.json');
      assert.ok(resource, 'a moderation.json resource');
      const read = await client.readResource({ uri: resource.uri });
      const { updated: _updated, ...log } = JSON.parse((read.contents[0] as { text: string }).text);
      assert.deepEqual(log, expectedLog());
      const answers = [
        JSON.stringify(business),
        JSON.stringify(read),
        JSON.stringify(await client.callTool({ name: 'search_reviews', arguments: { query: 'quokka' } })),
        JSON.stringify(await client.callTool({ name: 'search_reviews', arguments: { rating: 1 } })),
        JSON.stringify(await client.callTool({ name: 'get_review', arguments: { id: '2025-06-05-quentin-r' } })),
        JSON.stringify(await client.callTool({ name: 'reviews_since', arguments: { since: '2000-01-01T00:00:00Z' } })),
      ];
      for (const answer of answers)
        for (const secret of ['quokka', CANARY_AUTHOR, 'marmalade', CANARY_AUTHOR_2, JOB_REF])
          assert.ok(!answer.includes(secret), `${secret} in an MCP answer`);
    } finally {
      await client.close();
    }
  });
});

describe('the pages', () => {
  it('every card names its method next to the source; the rating box, the footer and each review page link to /about-reviews; the home page counts the removals and says why', async () => {
    const dataset = await (await fetch(`${server.url}/reviews.json`)).json();
    const list = await (await fetch(`${server.url}/reviews/page/1`)).text();
    const labels = {
      platform: 'imported from the platform',
      job: 'matched to a job',
      invitation: 'invited after a job',
    } as const;
    for (const review of dataset.reviews) {
      const card = list.slice(list.indexOf(`id="review-${review.id}"`));
      const trust = /<p class="trust"[^>]*>([\s\S]*?)<\/p>/.exec(card)![1]!;
      assert.match(
        trust,
        new RegExp(`class="method"[^>]*>${labels[review.verification.method as keyof typeof labels]}<`),
      );
      const page = await (await fetch(`${server.url}/reviews/${review.id}`)).text();
      assert.match(page, /<a href="\/about-reviews">How reviews are verified, published and removed<\/a>/);
      assert.match(page, /<footer[\s\S]*href="\/about-reviews"[\s\S]*<\/footer>/);
    }
    const home = (await (await fetch(`${server.url}/`)).text()).replace(/\s+/g, ' ');
    assert.ok(
      home.includes('2 reviews were removed: 1 contained personal data; 1 a duplicate of another review.'),
      'the home page figures',
    );
    assert.match(home, /class="panel rating-summary"[\s\S]*?href="\/about-reviews"/);
  });
});

describe('/about-reviews', () => {
  it('says what business.yaml says, and lists the log', async () => {
    const response = await fetch(`${server.url}/about-reviews`);
    assert.equal(response.status, 200);
    const html = await response.text();
    const text = html.replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ');
    assert.ok(text.includes(SETTINGS.invitation), 'how customers are invited');
    assert.ok(html.includes(`mailto:${SETTINGS.contact}`), 'the contact for a change or removal');
    assert.ok(text.includes(`within ${SETTINGS.reply_days} working days`));
    assert.ok(text.includes('Verified: matched to a job') && text.includes('Verified: invited after a job'));
    assert.ok(
      !text.includes('Verified: imported from the platform'),
      'a method the business does not use is not claimed',
    );
    assert.ok(text.includes('whatever its rating'));
    for (const removal of expectedLog().removals) assert.ok(text.includes(removal.id), removal.id);
    assert.ok(text.includes('contained personal data') && text.includes('a duplicate of another review'));
  });
});

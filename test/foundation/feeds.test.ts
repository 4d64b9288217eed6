/**
 * The feeds against their specifications: JSON Feed 1.1's rules, and the Atom
 * feed against RFC 4287's RELAX NG schema (jing) plus the rules jing cannot see.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, it } from 'node:test';
import { xml2js, type Element } from 'xml-js';
import { BUILDS, ROOT } from '../helpers/builds.ts';

const client = (build: keyof typeof BUILDS, file: string) => resolve(BUILDS[build].outDir, 'client', file);
const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

describe('JSON Feed 1.1 (/api/feed.json)', () => {
  const feed = JSON.parse(readFileSync(client('content', 'api/feed.json'), 'utf8'));
  const dataset = JSON.parse(readFileSync(client('content', 'reviews.json'), 'utf8'));

  it('has the 1.1 version URL, a title, its own URL and the WebSub hub', () => {
    assert.equal(feed.version, 'https://jsonfeed.org/version/1.1');
    assert.equal(typeof feed.title, 'string');
    assert.ok(feed.title.length > 0);
    assert.equal(feed.feed_url, 'http://localhost:4321/api/feed.json');
    assert.equal(feed.home_page_url, 'http://localhost:4321/');
    assert.deepEqual(feed.hubs, [{ type: 'WebSub', url: 'http://localhost:4321/api/websub/hub' }]);
    assert.ok(Array.isArray(feed.authors) && feed.authors.length > 0, '1.1 uses authors[], not author');
    assert.equal(feed.author, undefined);
  });

  it('holds the 50 newest reviews, newest first, with unique ids and RFC 3339 dates', () => {
    assert.equal(feed.items.length, Math.min(50, dataset.reviews.length));
    assert.ok(dataset.reviews.length > 50, 'the sample content is larger than the feed');
    const ids = new Set<string>();
    feed.items.forEach((item: Record<string, any>, index: number) => {
      assert.equal(typeof item.id, 'string');
      assert.ok(!ids.has(item.id), `unique id ${item.id}`);
      ids.add(item.id);
      assert.ok(
        typeof item.content_text === 'string' && item.content_text.length > 0,
        'content_text or content_html is required',
      );
      assert.match(item.date_published, RFC3339);
      assert.match(item.date_modified, RFC3339);
      assert.ok(item.date_modified >= item.date_published);
      assert.equal(item._review.id, dataset.reviews[index].id, 'same order as reviews.json');
      assert.ok(new URL(item.url).pathname.startsWith('/reviews/'));
      for (const key of Object.keys(item)) {
        assert.ok(
          [
            'id',
            'url',
            'title',
            'content_text',
            'summary',
            'date_published',
            'date_modified',
            'authors',
            'tags',
          ].includes(key) || key.startsWith('_'),
          `unknown item key ${key}`,
        );
      }
    });
  });
});

describe('Atom (/feed.xml)', () => {
  for (const build of ['content', 'small'] as const) {
    it(`validates against RFC 4287's RELAX NG schema (${build} build)`, () => {
      const result = spawnSync(
        'jing',
        ['-c', resolve(ROOT, 'test/fixtures/schemas/atom.rnc'), client(build, 'feed.xml')],
        { encoding: 'utf8' },
      );
      assert.equal(result.error, undefined, 'jing must be installed (Debian package jing)');
      assert.equal(result.status, 0, `jing: ${result.stdout}${result.stderr}`);
    });
  }

  it('has the required elements, self and hub links, and entries with ids, titles and dates', () => {
    const doc = xml2js(readFileSync(client('content', 'feed.xml'), 'utf8')) as Element;
    const feed = doc.elements?.find((e) => e.name === 'feed') as Element;
    assert.equal(feed.attributes?.xmlns, 'http://www.w3.org/2005/Atom');
    const children = (el: Element, name: string) => (el.elements ?? []).filter((e) => e.name === name);
    const text = (el: Element, name: string) => {
      const node = children(el, name)[0]?.elements?.[0];
      return String(node?.text ?? node?.cdata ?? '');
    };
    assert.equal(text(feed, 'id'), 'http://localhost:4321/feed.xml');
    assert.ok(text(feed, 'title').length > 0);
    assert.match(text(feed, 'updated'), RFC3339);
    const links = children(feed, 'link').map((l) => l.attributes ?? {});
    assert.ok(links.some((l) => l.rel === 'self' && l.href === 'http://localhost:4321/feed.xml'));
    assert.ok(links.some((l) => l.rel === 'hub' && l.href === 'http://localhost:4321/api/websub/hub'));
    const entries = children(feed, 'entry');
    assert.equal(entries.length, 50);
    const ids = new Set<string>();
    for (const entry of entries) {
      const id = text(entry, 'id');
      assert.match(id, /^tag:localhost,\d{4}-\d{2}-\d{2}:review\//);
      assert.ok(!ids.has(id));
      ids.add(id);
      assert.ok(text(entry, 'title').length > 0);
      assert.match(text(entry, 'updated'), RFC3339);
      assert.ok(children(entry, 'author').length > 0 || children(feed, 'author').length > 0);
    }
  });

  it('keeps hostile review text as text', () => {
    const xml = readFileSync(client('small', 'feed.xml'), 'utf8');
    assert.doesNotMatch(xml, /<script>/);
    assert.match(xml, /&lt;\/script&gt;&lt;script&gt;window.__pwned = true/);
    xml2js(xml); // well-formed despite `]]>` in the text
  });
});

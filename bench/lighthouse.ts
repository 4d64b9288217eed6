/**
 * Lighthouse (mobile, its default) on every page type of the homeowner's site,
 * side by side with a bare page in the same run: the bare page (one heading,
 * no CSS, from a plain node:http server) shows what this machine scores at
 * best, so a noisy spell shows on both. Floor: ≥ 0.95 in performance,
 * accessibility, best practices and SEO on each page type. Lighthouse does
 * not score a page answering an error status (ERRORED_DOCUMENT_REQUEST): the
 * 404 and 400 pages are held to the floor by test/pages/quality-floor.test.ts
 * (axe, Nu Html Checker, no sideways scroll) instead. Exits 1 when a floor is missed.
 *
 *   node_modules/.bin/node bench/lighthouse.ts [--rebuild] [--builds-dir /tmp/bench-builds]
 */
import { execFile } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { resolve } from 'node:path';
import { promisify } from 'node:util';
import { ensureBuild } from './lib/builds.ts';
import { ROOT, startRealServer } from './lib/processes.ts';

const args = process.argv.slice(2);
const rebuild = args.includes('--rebuild');
const buildsRoot = args.includes('--builds-dir') ? args[args.indexOf('--builds-dir') + 1]! : '/tmp/bench-builds';
const FLOOR = 0.95;
const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'] as const;
const LIGHTHOUSE = resolve(ROOT, 'node_modules/lighthouse/cli/index.js');
const CHROME_PATH = process.env.CHROME_PATH ?? '/usr/bin/chromium';

type Scores = Record<(typeof CATEGORIES)[number], number>;

async function lighthouse(url: string): Promise<Scores> {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    [
      LIGHTHOUSE,
      url,
      '--output=json',
      '--output-path=stdout',
      '--quiet',
      `--only-categories=${CATEGORIES.join(',')}`,
      '--chrome-flags=--headless=new --no-sandbox --disable-gpu',
    ],
    { env: { ...process.env, CHROME_PATH }, maxBuffer: 256 * 1024 * 1024 },
  );
  const report = JSON.parse(stdout) as { categories: Record<string, { score: number }> };
  return Object.fromEntries(CATEGORIES.map((c) => [c, report.categories[c]!.score])) as Scores;
}

const build = ensureBuild({ buildsRoot, contentDir: resolve(ROOT, 'content'), rebuild, log: console.log });
const server = await startRealServer(build.distDir);
const bare = createServer((_, res) => {
  res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
  res.end(
    '<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">' +
      '<title>Bare page</title><meta name="description" content="A bare page: what this machine scores at best."></head>' +
      '<body><main><h1>Bare page</h1><p>One paragraph of text.</p></main></body></html>',
  );
});
await new Promise<void>((done) => bare.listen(0, '127.0.0.1', done));
const bareUrl = `http://127.0.0.1:${(bare.address() as AddressInfo).port}/`;

let failed = false;
try {
  const dataset = (await (await fetch(`${server.origin}/reviews.json`)).json()) as {
    reviews: { id: string; title?: string }[];
  };
  const untitled = dataset.reviews.find((r) => !r.title) ?? dataset.reviews[0]!;
  const pages: [string, string, { seo: boolean }][] = [
    ['home', '/', { seo: true }],
    ['all reviews (static page)', '/reviews/page/2', { seo: true }],
    ['narrowed, searched, sorted list', '/reviews?service=roof-repair&query=roof&sort=highest', { seo: true }],
    ['a review', `/reviews/${untitled.id}`, { seo: true }],
    ['for developers', '/developers', { seo: true }],
    ['API reference', '/api-reference', { seo: true }],
    ['trends', '/trends', { seo: true }],
    ['how reviews are handled', '/about-reviews', { seo: true }],
    ['widget for site owners', '/widget', { seo: true }],
    ['widget guide', '/widget/guide', { seo: true }],
  ];
  console.log(`| page | ${CATEGORIES.join(' | ')} | bare page, same run |`);
  console.log(`| --- | ${CATEGORIES.map(() => '---').join(' | ')} | --- |`);
  for (const [name, path, { seo }] of pages) {
    // The bare page right before each page: the machine's state for both.
    const base = await lighthouse(bareUrl);
    const scores = await lighthouse(`${server.origin}${path}`);
    const cells = CATEGORIES.map((c) => {
      const asked = c !== 'seo' || seo;
      const missed = asked && scores[c] < FLOOR;
      if (missed) failed = true;
      return `${scores[c].toFixed(2)}${asked ? '' : ' (not asked)'}${missed ? ' **below floor**' : ''}`;
    });
    console.log(
      `| ${name} \`${path}\` | ${cells.join(' | ')} | ${CATEGORIES.map((c) => base[c].toFixed(2)).join(' / ')} |`,
    );
  }
} finally {
  bare.close();
  await server.stop();
}
console.log(failed ? `a page type scores below ${FLOOR}` : `every page type ≥ ${FLOOR} in every category asked`);
process.exit(failed ? 1 : 0);

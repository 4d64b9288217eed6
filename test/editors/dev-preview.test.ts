/**
 * Previewing while editing: `npm run dev` (astro dev) over a copy of the real
 * content/. An added, changed or removed review, and edits of business.yaml and
 * the summary, show on the next load without a restart; mistakes show as a page
 * of the site listing every one, and the page recovers once they are fixed.
 */
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { launchChromium } from '../helpers/browser.ts';
import { ASTRO_BIN, BUILDS, NODE, TEST_BUILDS_DIR } from '../helpers/builds.ts';
import { projectCopy } from '../helpers/project-copy.ts';
import { freePort, until } from '../websub/helpers.ts';

let work: string;
let content: string;
let dev: ChildProcess;
let output = '';
let base: string;
let browser: Browser;

const REVIEW = 'reviews/2026-11-22-preview-new-review.md';
const NEW_REVIEW = `---
date: 2026-11-22
rating: 5
author: Preview P.
technicians: [Maria Santos]
services: [roof-repair]
source: website
verified: true
verification: { method: job, checked: 2026-11-22 }
---
Previewed before publishing: the flashing job was tidy.
`;

before(async () => {
  mkdirSync(TEST_BUILDS_DIR, { recursive: true });
  work = mkdtempSync(join(TEST_BUILDS_DIR, 'dev-preview-'));
  content = join(work, 'content');
  cpSync(BUILDS.content.contentDir, content, { recursive: true });
  const port = await freePort();
  // Its own copy of the project: another test's dev server in this checkout would share .astro/
  // (project-copy.ts). --ignore-lock: in the foreground, even where Astro thinks an agent runs it.
  const command = [NODE, ASTRO_BIN, 'dev', '--host', '127.0.0.1', '--port', String(port), '--ignore-lock'];
  // In a terminal (util-linux `script` gives it one), as an editor runs it: the keyboard
  // shortcuts are on, which Vite turns off without a TTY or under CI.
  const { CI: _ci, ...env } = process.env;
  const quoted = command.map((word) => `'${word.replaceAll("'", "'\\''")}'`).join(' ');
  dev = spawn('script', ['--quiet', '--flush', '--return', '--command', quoted, '/dev/null'], {
    cwd: projectCopy(join(work, 'project')),
    env: {
      ...env,
      NO_COLOR: '1',
      CONTENT_DIR: content,
      ASTRO_TELEMETRY_DISABLED: '1',
      ASTRO_CACHE_DIR: join(work, 'cache'),
    },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  dev.stdout!.on('data', (chunk) => (output += chunk));
  dev.stderr!.on('data', (chunk) => (output += chunk));
  base = `http://127.0.0.1:${port}`;
  browser = await launchChromium();
  // The first answer compiles every page's modules: a minute or more on a busy 2-core machine.
  await withOutput(
    until(async () => (await fetch(base).catch(() => null))?.status === 200, 'astro dev to answer', 120_000),
  );
});
after(async () => {
  await browser?.close();
  if (dev && dev.exitCode === null) {
    const exited = new Promise((resolve) => dev.once('exit', resolve));
    dev.kill('SIGTERM');
    await exited;
  }
  if (work) rmSync(work, { recursive: true, force: true });
});

/** What the dev server printed, without its line per request. */
const serverLog = () =>
  output
    .split('\n')
    .filter((line) => !/\[\d{3}\]/.test(line))
    .join('\n');

/** A failure says what the dev server printed (its reads of the folder, content problems). */
const withOutput = (waiting: Promise<void>) =>
  waiting.catch((error: Error) => {
    throw new Error(`${error.message}; astro dev printed:\n${serverLog().slice(-8_000)}`);
  });

const home = async () => {
  const response = await fetch(`${base}/`);
  return { status: response.status, html: await response.text() };
};
const edit = (file: string, change: (source: string) => string) =>
  writeFileSync(join(content, file), change(readFileSync(join(content, file), 'utf8')));
/** The dev server reads the folder again shortly after a save; the next load shows it. */
const shows = (what: RegExp | string, label: string) =>
  withOutput(
    until(
      async () => {
        const page = await home();
        return page.status === 200 && (typeof what === 'string' ? page.html.includes(what) : what.test(page.html));
      },
      label,
      15_000,
    ),
  );

it('an added review shows on the next load, with the summary figures updated', async () => {
  assert.match((await home()).html, /Customers have left 165 verified reviews/);
  writeFileSync(join(content, REVIEW), NEW_REVIEW);
  await shows('Previewed before publishing', 'the new review on the home page');
  assert.match((await home()).html, /Customers have left 166 verified reviews/);
  assert.equal((await fetch(`${base}/reviews/2026-11-22-preview-new-review`)).status, 200);
});

it('mistakes: every one at once as a page of the site, with line, value and "did you mean"; fixing clears it', async () => {
  // Four mistakes in one save: before, the technician was reported only once the others were fixed.
  edit(REVIEW, (s) =>
    s
      .replace('rating: 5', 'rating: 7')
      .replace('[Maria Santos]', '[Tomy Nguyen]')
      .replace('[roof-repair]', '[roof-repiar]')
      .replace('source: website', 'source: website\ntitel: Tidy job'),
  );
  await withOutput(until(async () => (await home()).status === 500, 'the page to fail on the mistakes', 15_000));
  const page = await browser.newPage();
  const response = await page.goto(`${base}/`);
  assert.equal(response?.status(), 500);
  assert.equal(await page.locator('main h1').textContent(), 'The content folder has 4 problems');
  assert.equal(await page.locator('.site-header').count(), 1, "in the site's layout");
  assert.equal(await page.locator('vite-error-overlay').count(), 0, "not Astro's overlay");
  const items = await page.locator('.content-errors li').allInnerTexts();
  const text = items.map((item) => item.replace(/\s+/g, ' ').trim());
  assert.equal(text.length, 4, text.join('\n'));
  assert.match(text[0]!, /^Line 3 ?rating ?must be from 1 to 5 — you typed 7$/);
  assert.match(text[1]!, /^Line 8 ?unknown field "titel" ?Did you mean title\?$/);
  assert.match(
    text[2]!,
    /^Line 5 ?technicians\[0\] ?unknown technician "Tomy Nguyen" \(known: .*\) ?Did you mean Tommy Nguyen\?$/,
  );
  assert.match(
    text[3]!,
    /^Line 6 ?services\[0\] ?unknown service id "roof-repiar" \(known: .*\) ?Did you mean roof-repair\?$/,
  );
  assert.match(
    (await page.locator('.content-errors h2').first().textContent()) ?? '',
    /content\/reviews\/2026-11-22-preview-new-review\.md/,
  );
  for (const expected of [/rating: must be from 1 to 5 — you typed 7 \(line 3\)/, /did you mean "Tommy Nguyen"\?/])
    assert.match(output, expected, 'the terminal says it too');

  // Fixing two: the page updates by itself to the two left.
  edit(REVIEW, (s) => s.replace('rating: 7', 'rating: 4').replace('titel: Tidy job\n', ''));
  await page.locator('main h1', { hasText: 'The content folder has 2 problems' }).waitFor({ timeout: 15_000 });
  // Fixing the rest: the page turns back into the site, with the changed text, no reload by hand.
  edit(REVIEW, (s) =>
    s
      .replace('[Tomy Nguyen]', '[Tommy Nguyen]')
      .replace('[roof-repiar]', '[roof-repair]')
      .replace('the flashing job was tidy', 'the flashing job was tidy and quick'),
  );
  await page.getByText('the flashing job was tidy and quick').waitFor({ timeout: 15_000 });
  await page.close();
  await shows('the flashing job was tidy and quick', 'the page to recover with the changed text');
});

it('a removed review, a business.yaml edit and a summary edit show without a restart', async () => {
  rmSync(join(content, REVIEW));
  edit('business.yaml', (s) => s.replace(/^name: .*$/m, 'name: Cedar Ridge Roofing Preview Co.'));
  edit('insights/summary.md', (s) => s.replace('Customers have left', 'Homeowners have left'));
  await shows(/Homeowners have left 165 verified reviews/, 'the summary edit, with the review gone again');
  await shows('Cedar Ridge Roofing Preview Co.', 'the new business name');
  assert.doesNotMatch((await home()).html, /Previewed before publishing/);
  assert.equal((await fetch(`${base}/reviews/2026-11-22-preview-new-review`)).status, 404);
});

it('after the terminal\'s "s" (sync content layer), later edits still show', async () => {
  const syncs = output.split('Synced content').length;
  dev.stdin!.write('s\n');
  await withOutput(
    until(async () => output.split('Synced content').length > syncs, 'the content layer to sync again', 15_000),
  );
  edit('business.yaml', (s) => s.replace(/^name: .*$/m, 'name: Cedar Ridge Roofing After Sync'));
  await shows('Cedar Ridge Roofing After Sync', 'an edit made after the sync');
});

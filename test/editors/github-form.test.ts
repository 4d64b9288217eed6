/**
 * The web form on a host with the GitHub backend, end to end in Chromium: the
 * login through this site's own /admin/auth and /admin/callback against a
 * local stand-in of GitHub's OAuth and REST API (github-stand-in.ts), then a
 * review added with the form; the commit the stand-in receives holds a review
 * file the loader accepts. The client secret is only in the server's settings.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { loadContent } from '../../src/lib/content/load.ts';
import { launchChromium } from '../helpers/browser.ts';
import { ASTRO_BIN, buildEnv, NODE, ROOT, TEST_BUILDS_DIR } from '../helpers/builds.ts';
import { startServer, type RunningServer } from '../helpers/server.ts';
import { freePort } from '../websub/helpers.ts';
import { loadNetlify, loadVercel, removeCopies } from '../hosts/helpers.ts';
import { HOST_BUILDS } from '../helpers/builds.ts';
import { filesOf, startGitHubStandIn, type GitHubStandIn } from './github-stand-in.ts';

const CONTENT = join(ROOT, 'test/fixtures/content-small');
const CLIENT_ID = 'Iv1.standin0001';
const CLIENT_SECRET = 'standin-client-secret-9f2c1e';
const REPO = 'cedar/reviews';
const NEW_FILE = 'content/reviews/2026-11-25-ines-m.md';

let work: string;
let github: GitHubStandIn;
let server: RunningServer;
let browser: Browser;
let site: string;
let outDir: string;

before(async () => {
  mkdirSync(TEST_BUILDS_DIR, { recursive: true });
  work = mkdtempSync(join(TEST_BUILDS_DIR, 'github-form-'));
  github = await startGitHubStandIn({
    clientId: CLIENT_ID,
    clientSecret: CLIENT_SECRET,
    repo: REPO,
    branch: 'main',
    files: filesOf(CONTENT, 'content'),
  });
  const port = await freePort();
  site = `http://127.0.0.1:${port}`;
  outDir = join(work, 'dist');
  // As a host's build would be set up: the backend, the repository and the site's address; no secret.
  const built = spawnSync(NODE, [ASTRO_BIN, 'build'], {
    cwd: ROOT,
    env: buildEnv(CONTENT, outDir, {
      SITE_URL: site,
      CMS_BACKEND: 'github',
      CMS_REPO: REPO,
      CMS_API_ROOT: github.apiRoot,
    }),
    encoding: 'utf8',
    maxBuffer: 1 << 28,
  });
  assert.equal(built.status, 0, built.stdout + built.stderr);
  // The host's runtime settings: where the secret lives.
  server = await startServer(
    { outDir },
    {
      PORT: String(port),
      SITE_URL: site,
      GITHUB_OAUTH_CLIENT_ID: CLIENT_ID,
      GITHUB_OAUTH_CLIENT_SECRET: CLIENT_SECRET,
      GITHUB_OAUTH_URL: github.url,
    },
  );
  browser = await launchChromium();
});

after(async () => {
  await browser?.close();
  await server?.stop();
  await github?.close();
  if (work) rmSync(work, { recursive: true, force: true });
});

describe('the build', () => {
  it("points the form at GitHub and at this site's own login", async () => {
    const config = await (await fetch(`${site}/admin/config.yml`)).text();
    assert.match(config, /name: github/);
    assert.match(config, new RegExp(`repo: ${REPO}`));
    assert.match(config, new RegExp(`base_url: ${site.replaceAll('.', '\\.')}\\n`));
    assert.match(config, /auth_endpoint: admin\/auth/);
    assert.match(config, new RegExp(`api_root: ${github.apiRoot.replaceAll('.', '\\.')}`));
    const page = await (await fetch(`${site}/admin/`)).text();
    assert.match(page, /decap-cms\.js/, 'the form, not the page saying how to edit');
  });

  it('has the client secret nowhere in what it serves or wrote', () => {
    const files = (dir: string): string[] =>
      readdirSync(dir).flatMap((name) => {
        const path = join(dir, name);
        return statSync(path).isDirectory() ? files(path) : [path];
      });
    for (const file of files(outDir)) assert.ok(!readFileSync(file).includes(CLIENT_SECRET), file);
  });
});

describe('the login endpoints', () => {
  it('/admin/auth sends the editor to GitHub with a fresh state, kept in an HttpOnly cookie', async () => {
    const response = await fetch(`${site}/admin/auth?provider=github&site_id=x&scope=repo`, { redirect: 'manual' });
    assert.equal(response.status, 302);
    const location = new URL(response.headers.get('location') ?? '');
    assert.equal(location.origin + location.pathname, `${github.url}/login/oauth/authorize`);
    assert.equal(location.searchParams.get('client_id'), CLIENT_ID);
    assert.equal(location.searchParams.get('redirect_uri'), `${site}/admin/callback`);
    assert.equal(location.searchParams.get('scope'), 'repo');
    const state = location.searchParams.get('state') ?? '';
    assert.ok(state.length >= 32);
    assert.match(
      response.headers.get('set-cookie') ?? '',
      new RegExp(`^cms_oauth_state=${state}; Path=/admin/;.*HttpOnly`),
    );
    assert.ok(!(response.headers.get('location') ?? '').includes(CLIENT_SECRET));
  });

  it('refuses another provider or scope with a 400', async () => {
    assert.equal((await fetch(`${site}/admin/auth?provider=gitlab`, { redirect: 'manual' })).status, 400);
    assert.equal(
      (await fetch(`${site}/admin/auth?provider=github&scope=admin:org`, { redirect: 'manual' })).status,
      400,
    );
  });

  it('/admin/callback refuses a state this browser did not get, without asking GitHub for a token', async () => {
    const asked = github.oauth.filter((call) => call === 'access_token').length;
    for (const cookie of [undefined, 'cms_oauth_state=another-state']) {
      const response = await fetch(`${site}/admin/callback?code=code-1&state=forged-state`, {
        headers: cookie ? { cookie } : {},
      });
      assert.equal(response.status, 400);
      const html = await response.text();
      assert.match(html, /not started from this browser/);
      assert.doesNotMatch(html, /authorization:github:success/);
    }
    assert.equal(github.oauth.filter((call) => call === 'access_token').length, asked);
  });
});

describe('the form', () => {
  it('logs in with GitHub, adds a review, and commits a file the loader accepts', async () => {
    const page = await browser.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    page.on('console', (message) => message.type() === 'error' && errors.push(message.text()));
    page.on('requestfailed', (request) => errors.push(`failed: ${request.url()}`));
    await page.goto(`${site}/admin/`);
    const login = page.getByRole('button', { name: /Login with GitHub/i });
    await login.waitFor({ timeout: 60_000 });
    await login.click();
    const create = page.getByRole('link', { name: 'Create entry of type review' });
    await create.waitFor({ timeout: 30_000 }).catch(async (error: Error) => {
      await page.screenshot({ path: join(TEST_BUILDS_DIR, 'github-form-login.png') });
      throw new Error(
        `${error.message}\nstand-in: unknown ${JSON.stringify(github.unknown)}, oauth ${JSON.stringify(github.oauth)}; page errors ${JSON.stringify(errors)}`,
      );
    });
    assert.deepEqual(github.oauth.slice(-2), ['authorize repo', 'access_token']);
    await create.click();
    await fill(page);
    await page.getByRole('button', { name: 'Publish' }).click();
    await page.getByText('Publish now').click();
    await page
      .getByText('Entry saved')
      .waitFor({ timeout: 30_000 })
      .catch((error: Error) => {
        throw new Error(
          `${error.message}\nstand-in: unknown ${JSON.stringify(github.unknown)}; page errors ${JSON.stringify(errors)}`,
        );
      });
    await page.close();

    const commit = github.commits.at(-1);
    assert.ok(commit, 'the stand-in received a commit');
    assert.equal(commit.message, 'Add review 2026-11-25-ines-m (web form)');
    const file = commit.files[NEW_FILE];
    assert.ok(file, `the commit holds ${NEW_FILE}: ${Object.keys(commit.files).join(', ')}`);

    // The repository as the commit left it, read by the loader.
    const checkout = mkdtempSync(join(work, 'checkout-'));
    cpSync(CONTENT, checkout, { recursive: true });
    writeFileSync(join(checkout, NEW_FILE.replace(/^content\//, '')), file);
    const review = loadContent(checkout).reviews.find((r) => r.id === '2026-11-25-ines-m');
    assert.ok(review, 'the loader publishes the committed review');
    assert.equal(review.rating, 5);
    assert.deepEqual(review.technicians, ['Maria Santos']);
    assert.deepEqual(review.services, ['gutters']);
    assert.equal(review.text, 'New gutters in a day, and the downspouts finally drain away from the house.');
  });
});

async function fill(page: Page): Promise<void> {
  await page.getByLabel('Date', { exact: true }).fill('2026-11-25');
  await page.getByLabel('Rating', { exact: true }).fill('5');
  await page.getByLabel('Customer', { exact: true }).fill('Inès M.');
  for (const [label, option] of [
    ['Technicians', 'Maria'],
    ['Services', 'Gutter'],
    ['Method', 'job'],
  ] as const) {
    const input = page.getByLabel(new RegExp(`^${label}`));
    await input.click();
    await input.pressSequentially(option);
    await page.keyboard.press('Enter');
  }
  await page.getByLabel('Source', { exact: true }).fill('website');
  await page.getByLabel(/^Checked on/, { exact: true }).fill('2026-11-25');
  await page
    .getByLabel('Review text', { exact: true })
    .fill('New gutters in a day, and the downspouts finally drain away from the house.');
}

describe('the same login in the Netlify and Vercel functions', () => {
  const settings = {
    GITHUB_OAUTH_CLIENT_ID: CLIENT_ID,
    GITHUB_OAUTH_CLIENT_SECRET: CLIENT_SECRET,
    GITHUB_OAUTH_URL: '',
  };
  const saved: Record<string, string | undefined> = {};
  before(() => {
    settings.GITHUB_OAUTH_URL = github.url;
    // The functions read the host's settings from the environment at request time.
    for (const [name, value] of Object.entries(settings)) {
      saved[name] = process.env[name];
      process.env[name] = value;
    }
  });
  after(() => {
    for (const [name, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
    removeCopies();
  });

  for (const [host, load] of [
    ['netlify', loadNetlify],
    ['vercel', loadVercel],
  ] as const) {
    it(`${host}: /admin/auth to GitHub and back through /admin/callback hands the token to the form`, async () => {
      const fn = await load();
      const origin = HOST_BUILDS[host].site;
      const start = await fn.fetch(new Request(`${origin}/admin/auth?provider=github&scope=repo`));
      assert.equal(start.status, 302);
      const cookie = (start.headers.get('set-cookie') ?? '').split(';')[0]!;
      // The stand-in approves at once and sends the browser back with a code and the state.
      const approved = await fetch(start.headers.get('location')!, { redirect: 'manual' });
      const back = new URL(approved.headers.get('location') ?? '');
      assert.equal(back.origin + back.pathname, `${origin}/admin/callback`);
      const done = await fn.fetch(new Request(back, { headers: { cookie } }));
      assert.equal(done.status, 200);
      const html = await done.text();
      assert.match(html, /authorization:github:success:/);
      assert.match(html, new RegExp(`const origin = "${origin.replaceAll('.', '\\.')}"`), "to the site's origin only");
      assert.doesNotMatch(html, new RegExp(CLIENT_SECRET));
      assert.match(done.headers.get('set-cookie') ?? '', /^cms_oauth_state=; Path=\/admin\/; Max-Age=0/);
      // Without the state cookie (the answer cleared it), the same callback is refused.
      const again = await fn.fetch(new Request(back));
      assert.equal(again.status, 400);
    });
  }
});

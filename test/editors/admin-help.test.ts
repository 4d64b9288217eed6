/**
 * /admin where the web form cannot log in: a page of the site saying how to
 * edit here, not Decap's login with "t: Not Found". Where it can (Netlify with
 * git-gateway, a local backend), the form as before.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import { extname, join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { cmsSettingsFromEnv, formUnavailable } from '../../src/lib/content/cms-config.ts';
import { launchChromium } from '../helpers/browser.ts';
import { HOST_BUILDS } from '../helpers/builds.ts';
import { startServer, type RunningServer } from '../helpers/server.ts';

describe('where the form can log in', () => {
  const where = (env: Record<string, string>, dev = false) => formUnavailable(cmsSettingsFromEnv(env, { dev }));
  it('nothing chosen, off Netlify: no backend', () => assert.equal(where({}), 'no-backend'));
  it('git-gateway off Netlify: it does not exist there', () => {
    assert.equal(where({ CMS_BACKEND: 'git-gateway' }), 'git-gateway-off-netlify');
    assert.equal(where({ CMS_BACKEND: 'git-gateway', VERCEL: '1' }), 'git-gateway-off-netlify');
  });
  it('git-gateway on Netlify, by default or chosen: the form', () => {
    assert.equal(where({ NETLIFY: 'true' }), null);
    assert.equal(where({ NETLIFY: 'true', CMS_BACKEND: 'git-gateway' }), null);
  });
  it('github logs in through the site itself, on every host', () => {
    assert.equal(where({ CMS_BACKEND: 'github', CMS_REPO: 'cedar/reviews' }), null);
    assert.equal(where({ CMS_BACKEND: 'github', CMS_REPO: 'cedar/reviews', VERCEL: '1' }), null);
  });
  it('a local backend (npm run cms, astro dev): the form, on this computer', () => {
    assert.equal(where({}, true), null);
    assert.equal(where({ CMS_LOCAL_BACKEND: 'http://127.0.0.1:8090/api/v1' }), null);
  });
});

describe('the Node server built with no backend', () => {
  let server: RunningServer;
  let browser: Browser;
  before(async () => {
    server = await startServer('content');
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('/admin/ is a page of the site saying how to edit, with no Decap script', async () => {
    const response = await fetch(`${server.url}/admin/`);
    assert.equal(response.status, 200);
    const html = await response.text();
    assert.match(html, /<h1>Editing reviews<\/h1>/);
    assert.match(html, /no web form set up yet/);
    assert.match(html, /npm run cms/);
    assert.match(html, /class="site-header"/, 'in the site layout');
    assert.match(html, /<meta name="robots" content="noindex"/);
    assert.doesNotMatch(html, /decap-cms\.js|cms-config-url/);
  });

  for (const width of [320, 375, 768, 1280]) {
    for (const scheme of ['light', 'dark'] as const) {
      it(`reads at ${width} px, ${scheme}: no sideways scrolling, no error`, async () => {
        const page = await browser.newPage({ viewport: { width, height: 800 }, colorScheme: scheme });
        const errors: string[] = [];
        page.on('pageerror', (error) => errors.push(error.message));
        await page.goto(`${server.url}/admin/`);
        assert.equal(await page.locator('h1').textContent(), 'Editing reviews');
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
        assert.ok(overflow <= 0, `the page is ${overflow}px wider than the screen`);
        assert.deepEqual(errors, []);
        assert.doesNotMatch(await page.content(), /Not Found/);
        await page.close();
      });
    }
  }
});

describe('the host builds', () => {
  it('Netlify (git-gateway by default): the form, with the Identity widget', () => {
    const html = readFileSync(join(HOST_BUILDS.netlify.dir, 'dist/admin/index.html'), 'utf8');
    assert.match(html, /src="\/admin\/decap-cms\.js"/);
    assert.match(html, /netlify-identity-widget\.js/);
    assert.doesNotMatch(html, /Editing reviews<\/h1>/);
  });
  it('Netlify: the email login does not cover the logo', async () => {
    // The Netlify build's static files, served as its CDN would (the form needs nothing else to draw its login).
    const root = join(HOST_BUILDS.netlify.dir, 'dist');
    const types: Record<string, string> = { '.html': 'text/html', '.js': 'text/javascript', '.yml': 'text/yaml' };
    const files = createServer((req, res) => {
      let path = join(root, decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname));
      if (existsSync(path) && statSync(path).isDirectory()) path = join(path, 'index.html');
      if (!path.startsWith(root) || !existsSync(path)) return res.writeHead(404).end();
      res
        .writeHead(200, { 'content-type': types[extname(path)] ?? 'application/octet-stream' })
        .end(readFileSync(path));
    });
    await new Promise<void>((resolve) => files.listen(0, '127.0.0.1', resolve));
    const browser = await launchChromium();
    try {
      const page = await browser.newPage({ viewport: { width: 375, height: 800 } });
      // No network here: Netlify's Identity widget does not load, and Decap shows its email login.
      await page.route(/identity\.netlify\.com/, (route) => route.abort());
      await page.goto(`http://127.0.0.1:${(files.address() as { port: number }).port}/admin/`);
      const email = page.getByPlaceholder('Email');
      await email.waitFor({ timeout: 30_000 });
      const logo = await page.locator('#nc-root section svg').first().boundingBox();
      const field = await email.boundingBox();
      assert.ok(
        logo && field && logo.y + logo.height <= field.y,
        `logo ${JSON.stringify(logo)}, field ${JSON.stringify(field)}`,
      );
    } finally {
      await browser.close();
      files.close();
    }
  });
  it('Vercel with no backend chosen: the page saying how to edit', () => {
    const html = readFileSync(join(HOST_BUILDS.vercel.dir, 'output/static/admin/index.html'), 'utf8');
    assert.match(html, /<h1>Editing reviews<\/h1>/);
    assert.doesNotMatch(html, /decap-cms\.js/);
  });
});

/**
 * The editors' web form (/admin, Decap CMS) against its local backend, as an
 * editor uses it: a copy of content/ under a fake repository root, decap-server
 * writing to it, real Chromium filling the form. A saved review must be a file
 * the loader accepts and a real build publishes; a wrong value must be refused
 * in the form, with a message, and write nothing.
 *
 * The form runs from a real build served by the production server (the same
 * files any host serves). `astro dev`, what `npm run cms` runs, is checked to
 * serve the same /admin files; a browser is not pointed at it here because
 * Vite's dependency cache (node_modules/.vite) is shared with any other dev
 * server running at the same time, and a first visit rewrites it.
 */
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { request, type Server } from 'node:http';
import { createServer } from 'node:net';
import { join, relative, resolve } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { cmsConfigYaml, cmsSettingsFromEnv, readChoices, reviewFields } from '../../src/lib/content/cms-config.ts';
import { REVIEW_ID, reviewFrontmatter } from '../../src/lib/content/editor-schema.ts';
import { parseMarkdown } from '../../src/lib/content/split-frontmatter.ts';
import { loadContent } from '../../src/lib/content/load.ts';
import { launchChromium } from '../helpers/browser.ts';
import { ASTRO_BIN, buildEnv, NODE, ROOT, TEST_BUILDS_DIR } from '../helpers/builds.ts';
import { projectCopy } from '../helpers/project-copy.ts';
import { startCmsGuard } from '../../scripts/cms-guard.ts';
import { startServer, type RunningServer } from '../helpers/server.ts';

let work: string;
let content: string;
let reviewsDir: string;
let localBackend: string;
let browser: Browser;
const children: ChildProcess[] = [];
let built: RunningServer | undefined;
let guard: Server | undefined;
let guardPort: number;
/** The pages that may call the guard: the built site, once it listens. */
const siteOrigins: string[] = [];
/** Anything /admin asked of another host than the site and the local backend (a CDN, say). */
const foreignRequests: string[] = [];

const NEW_ID = '2026-11-21-zoe-obrien-smith-jr';
const BODY =
  'Storm took three tabs off Friday; Maria had it patched Saturday.\n\nNot a [link], not *bold*: exactly as typed, & <b>no HTML</b>.';

before(async () => {
  mkdirSync(TEST_BUILDS_DIR, { recursive: true });
  work = mkdtempSync(join(TEST_BUILDS_DIR, 'cms-'));
  content = join(work, 'content');
  reviewsDir = join(content, 'reviews');
  cpSync(resolve(ROOT, 'content'), content, { recursive: true });

  // The form talks to the guard, as under `npm run cms`; decap-server's middleware runs inside it.
  guardPort = await freePort();
  guard = await startCmsGuard({ port: guardPort, repository: work, origins: siteOrigins });
  localBackend = `http://127.0.0.1:${guardPort}/api/v1`;
  // The site as deployed, with the form's local backend set at build time as `npm run cms` sets it in dev.
  const outDir = join(work, 'dist');
  [browser] = await Promise.all([
    launchChromium(),
    run(NODE, [ASTRO_BIN, 'build'], { ...buildEnv(content, outDir), CMS_LOCAL_BACKEND: localBackend }),
  ]);
  built = await startServer({ outDir });
  siteOrigins.push(built.url);
});

after(async () => {
  guard?.close();
  await browser?.close();
  await built?.stop();
  await Promise.all(children.map(stopChild));
  if (work) rmSync(work, { recursive: true, force: true });
});

describe('the config generated from the schema and business.yaml', () => {
  it('has one field per frontmatter field, in schema order, then the review text', () => {
    const fields = reviewFields(readChoices(content));
    assert.deepEqual(
      fields.map((f) => f.name),
      [...Object.keys(reviewFrontmatter.shape), 'body'],
    );
    const byName = Object.fromEntries(fields.map((f) => [f.name, f]));
    assert.deepEqual(Object.fromEntries(fields.map((f) => [f.name, f.required])), {
      date: true,
      updated: false,
      rating: true,
      title: false,
      author: true,
      technicians: false,
      services: true,
      service_area: false,
      source: true,
      source_id: false,
      source_url: false,
      verified: true,
      verification: false,
      removal: false,
      response: false,
      body: true,
    });
    assert.deepEqual(byName.date, {
      ...byName.date,
      widget: 'datetime',
      format: 'YYYY-MM-DD',
      time_format: false,
      picker_utc: true,
    });
    assert.deepEqual(byName.rating, { ...byName.rating, widget: 'number', value_type: 'int', min: 1, max: 5 });
    assert.equal(byName.verified?.default, true);
    assert.equal(byName.body?.widget, 'text');
    // Not required by the form inside the optional reply (Decap would refuse a reply touched then emptied); _form.ts checks it.
    assert.deepEqual(
      byName.response?.fields?.map((f) => [f.name, f.widget, f.required]),
      [
        ['date', 'datetime', false],
        ['text', 'text', false],
      ],
    );
    assert.deepEqual(
      byName.technicians?.options?.map((o) => o.value),
      ['Dave Kowalski', 'Maria Santos', 'Jamal Whitaker', 'Tommy Nguyen', 'Rick Olsen', 'Sarah Lindqvist'],
    );
    assert.equal(byName.services?.options?.find((o) => o.value === 'gutters')?.label, 'Gutter installation and repair');
    assert.equal(byName.service_area?.options?.length, 7);
  });

  it('takes the production backend from CMS_* variables, and refuses an incomplete one', () => {
    assert.deepEqual(cmsSettingsFromEnv({}).backend, { name: 'git-gateway', branch: 'main' });
    // The local backend: in dev by default, in a production build only when asked for.
    assert.equal(cmsSettingsFromEnv({}).localBackend, false);
    assert.deepEqual(cmsSettingsFromEnv({}, { dev: true }).localBackend, { url: 'http://localhost:8081/api/v1' });
    assert.deepEqual(cmsSettingsFromEnv({ CMS_LOCAL_BACKEND: 'http://127.0.0.1:8090/api/v1' }).localBackend, {
      url: 'http://127.0.0.1:8090/api/v1',
    });
    assert.deepEqual(
      cmsSettingsFromEnv({
        CMS_BACKEND: 'github',
        CMS_REPO: 'cedar/reviews',
        CMS_BRANCH: 'live',
        CMS_BASE_URL: 'https://oauth.example/',
      }).backend,
      {
        name: 'github',
        repo: 'cedar/reviews',
        branch: 'live',
        base_url: 'https://oauth.example',
      },
    );
    assert.equal(cmsSettingsFromEnv({ CMS_LOCAL_BACKEND: 'false' }).localBackend, false);
    // Netlify's Identity widget (from identity.netlify.com) only in Netlify builds with git-gateway, or when asked for.
    assert.equal(cmsSettingsFromEnv({}).identityWidget, false);
    assert.equal(cmsSettingsFromEnv({ NETLIFY: 'true' }).identityWidget, true);
    assert.equal(cmsSettingsFromEnv({ NETLIFY: 'true', CMS_IDENTITY_WIDGET: 'false' }).identityWidget, false);
    assert.equal(
      cmsSettingsFromEnv({ NETLIFY: 'true', CMS_BACKEND: 'github', CMS_REPO: 'cedar/reviews' }).identityWidget,
      false,
    );
    assert.throws(() => cmsSettingsFromEnv({ CMS_BACKEND: 'github' }), /CMS_REPO=owner\/name/);
    assert.throws(() => cmsSettingsFromEnv({ CMS_BACKEND: 'gitlab' }), /git-gateway or github/);
    assert.throws(() => cmsSettingsFromEnv({ CMS_LOCAL_BACKEND: 'localhost:8081' }), /CMS_LOCAL_BACKEND must be/);
  });
});

/** One call to the guard as any local client could make it (Host and Origin set at will). */
function callGuard(headers: Record<string, string>, body: unknown, method = 'POST') {
  const bytes = method === 'OPTIONS' ? Buffer.alloc(0) : Buffer.from(JSON.stringify(body));
  return new Promise<{ status: number; text: string }>((resolveCall, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port: guardPort,
        method,
        path: '/api/v1',
        headers: { 'content-type': 'application/json', 'content-length': String(bytes.length), ...headers },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk) => (text += chunk));
        res.on('end', () => resolveCall({ status: res.statusCode ?? 0, text }));
      },
    );
    req.on('error', reject);
    req.end(method === 'OPTIONS' ? undefined : bytes);
  });
}

/** The same call sent with `Transfer-Encoding: chunked`, in two pieces. */
function callGuardChunked(headers: Record<string, string>, body: unknown) {
  const text = JSON.stringify(body);
  return new Promise<{ status: number; text: string }>((resolveCall, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port: guardPort,
        method: 'POST',
        path: '/api/v1',
        headers: { 'content-type': 'application/json', ...headers },
      },
      (res) => {
        let answer = '';
        res.setEncoding('utf8');
        res.on('data', (chunk) => (answer += chunk));
        res.on('end', () => resolveCall({ status: res.statusCode ?? 0, text: answer }));
      },
    );
    req.on('error', reject);
    req.write(text.slice(0, 10));
    req.end(text.slice(10));
  });
}

/** A POST to /api/v1 on any local port, answered or not (a closed connection counts as a refusal). */
function callPort(port: number, headers: Record<string, string>, body: unknown) {
  const bytes = Buffer.from(JSON.stringify(body));
  return new Promise<{ status: number; text: string }>((resolveCall) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        method: 'POST',
        path: '/api/v1',
        headers: { 'content-type': 'application/json', 'content-length': String(bytes.length), ...headers },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk) => (text += chunk));
        res.on('end', () => resolveCall({ status: res.statusCode ?? 0, text }));
      },
    );
    req.on('error', (error) => resolveCall({ status: 999, text: String(error) }));
    req.end(bytes);
  });
}

/** Every file under `dir` (relative paths, sorted), but for the folders named in `skip`. */
function listFiles(dir: string, skip = new Set<string>()): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => !entry.isDirectory())
    .map((entry) => relative(dir, join(entry.parentPath, entry.name)))
    .filter((path) => !skip.has(path.split('/')[0]!))
    .sort();
}

/** The TCP ports a process and its descendants listen on (Linux: /proc). */
function listeningPorts(root: number): number[] {
  const parents = new Map<number, number>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      parents.set(Number(name), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
    } catch {
      // The process ended meanwhile.
    }
  }
  const tree = new Set([root]);
  for (let grew = true; grew;) {
    grew = false;
    for (const [pid, parent] of parents) {
      if (tree.has(parent) && !tree.has(pid)) {
        tree.add(pid);
        grew = true;
      }
    }
  }
  const inodes = new Set<string>();
  for (const pid of tree) {
    try {
      for (const fd of readdirSync(`/proc/${pid}/fd`)) {
        const target = readlinkOrEmpty(`/proc/${pid}/fd/${fd}`);
        const match = /^socket:\[(\d+)\]$/.exec(target);
        if (match) inodes.add(match[1]!);
      }
    } catch {
      // The process ended meanwhile.
    }
  }
  const ports = new Set<number>();
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    for (const line of readFileSync(table, 'utf8').trim().split('\n').slice(1)) {
      const fields = line.trim().split(/\s+/);
      if (fields[3] === '0A' && inodes.has(fields[9]!)) ports.add(parseInt(fields[1]!.split(':')[1]!, 16));
    }
  }
  return [...ports].sort((a, b) => a - b);
}

function readlinkOrEmpty(path: string): string {
  try {
    return readlinkSync(path);
  } catch {
    return '';
  }
}

describe('the guard in front of decap-server', () => {
  const media = (path: string) => ({
    action: 'persistMedia',
    params: {
      branch: 'main',
      asset: { path, content: 'b3duZWQ=', encoding: 'base64' },
      options: { commitMessage: 'x' },
    },
  });
  const here = () => `127.0.0.1:${guardPort}`;

  it('refuses another Host (DNS rebinding), another Origin, and any path outside content/, writing nothing', async () => {
    // The repository root's own files, which a page must never reach.
    writeFileSync(join(work, 'package.json'), '{"scripts":{}}\n');
    const before = readFileSync(join(work, 'package.json'), 'utf8');
    const refused = [
      await callGuard({ host: `rebind.attacker.example:${guardPort}` }, media('package.json')),
      await callGuard({ host: here(), origin: 'http://localhost:3000' }, media('content/uploads/x.png')),
      await callGuard(
        { host: here(), origin: 'http://localhost:3000', 'access-control-request-method': 'POST' },
        {},
        'OPTIONS',
      ),
      await callGuard({ host: here(), origin: siteOrigins[0]! }, media('package.json')),
      await callGuard({ host: here(), origin: siteOrigins[0]! }, media('content/../package.json')),
      await callGuard({ host: here(), origin: siteOrigins[0]! }, media('/etc/x')),
      await callGuard(
        { host: here() },
        { action: 'deleteFile', params: { branch: 'main', path: 'package.json', options: { commitMessage: 'x' } } },
      ),
      await callGuard(
        { host: here() },
        {
          action: 'persistEntry',
          params: {
            branch: 'main',
            entry: { slug: 'a', path: 'content/reviews/a.md', raw: 'x', newPath: 'src/a.md' },
            assets: [],
            options: { commitMessage: 'x' },
          },
        },
      ),
      await callGuard({ host: here() }, { action: 'getEntry', params: { branch: 'main', path: '.env' } }),
    ];
    for (const [index, answer] of refused.entries()) assert.equal(answer.status, 403, `call ${index}: ${answer.text}`);
    assert.equal(readFileSync(join(work, 'package.json'), 'utf8'), before);
    assert.deepEqual(
      readdirSync(work).filter((name) => name === 'a.md' || name === 'src'),
      [],
    );
  });

  it('lets even the dev site write only review files: no script, SVG, hidden file, encoded folder or other file', async () => {
    const listing = () => listFiles(content).join('\n');
    const before = listing();
    const persist = (path: string, assets: unknown[] = []) => ({
      action: 'persistEntry',
      params: {
        branch: 'main',
        entry: { slug: 'x', path, raw: '<svg onload="alert(1)"/>' },
        assets,
        options: { commitMessage: 'x' },
      },
    });
    const svg = { path: 'content/uploads/x.svg', content: 'PHN2Zy8+', encoding: 'base64' };
    const site = { host: here(), origin: siteOrigins[0]! };
    const refused = [
      persist('content/reviews/x.mjs'),
      persist('content/astro.config.mjs'),
      persist('content/x.svg'),
      persist('content/reviews/.hidden.md'),
      persist('content/%2e%2e/x.md'),
      persist('content/reviews/%2e%2e/x.md'),
      persist('content/reviews/2026-01-02-a/b.md'),
      persist('content/reviews/2026-01-02-A.md'),
      persist('content/business.yaml'),
      persist('content/reviews/2026-01-02-with-asset.md', [svg]),
      media('content/uploads/x.svg'),
      {
        action: 'persistEntry',
        params: {
          branch: 'main',
          dataFiles: [{ slug: 'x', path: 'content/reviews/x.svg', raw: '<svg/>' }],
          assets: [],
          options: { commitMessage: 'x', useWorkflow: false },
        },
      },
      { action: 'getMediaFile', params: { branch: 'main', path: 'content/business.yaml' } },
      { action: 'getEntry', params: { branch: 'main', path: 'content/business.yaml' } },
      { action: 'entriesByFolder', params: { branch: 'main', folder: 'content', extension: 'yaml', depth: 1 } },
      { action: 'deleteFiles', params: { branch: 'main', paths: ['content/business.yaml'] } },
    ];
    for (const [index, body] of refused.entries()) {
      const answer = await callGuard(site, body);
      assert.equal(answer.status, 403, `call ${index}: ${answer.text}`);
    }
    assert.equal(listing(), before, 'nothing written under content/');
  });

  it('takes a chunked request (no Content-Length) like any other', async () => {
    const path = 'content/reviews/2026-01-02-chunked-save.md';
    const saved = await callGuardChunked(
      { host: here(), origin: siteOrigins[0]! },
      {
        action: 'persistEntry',
        params: {
          branch: 'main',
          entry: { slug: 'chunked-save', path, raw: '---\ndate: 2026-01-02\n---\nSaved in chunks.\n' },
          assets: [],
          options: { commitMessage: 'x', useWorkflow: false, status: 'draft' },
        },
      },
    );
    assert.equal(saved.status, 200, saved.text);
    assert.equal(readFileSync(join(work, path), 'utf8'), '---\ndate: 2026-01-02\n---\nSaved in chunks.\n');
    const deleted = await callGuardChunked(
      { host: here() },
      { action: 'deleteFile', params: { branch: 'main', path, options: { commitMessage: 'x' } } },
    );
    assert.equal(deleted.status, 200, deleted.text);
    assert.equal(existsSync(join(work, path)), false);
  });

  it('lets the dev site read and write under content/', async () => {
    const info = await callGuard({ host: `localhost:${guardPort}`, origin: siteOrigins[0]! }, { action: 'info' });
    assert.equal(info.status, 200, info.text);
    const listed = await callGuard(
      { host: here(), origin: siteOrigins[0]! },
      { action: 'entriesByFolder', params: { branch: 'main', folder: 'content/reviews', extension: 'md', depth: 1 } },
    );
    assert.equal(listed.status, 200, listed.text);
    assert.ok((JSON.parse(listed.text) as unknown[]).length > 0);
  });
});

describe('npm run cms', () => {
  // A project of its own (dev servers in one checkout share .astro/, project-copy.ts); its repository root is what must stay untouched.
  let project: string;
  let cms: ReturnType<typeof spawnChild>;
  let sitePort: number;
  let backendPort: number;
  /** The address of /admin it prints for the editor. */
  let form: string;
  before(async () => {
    project = projectCopy(join(work, 'cms-project'));
    for (const entry of ['scripts', 'content']) cpSync(resolve(ROOT, entry), join(project, entry), { recursive: true });
    [sitePort, backendPort] = [await freePort(), await freePort()];
    cms = spawnChild(
      NODE,
      [join(project, 'scripts/cms.ts'), '--port', String(sitePort), '--cms-port', String(backendPort)],
      buildEnv(join(project, 'content'), join(work, 'cms-project-out')),
      project,
    );
    await waitForOutput(cms, /Web form: /, 'npm run cms', 240_000);
    form = /Web form: (\S+)/.exec(cms.log())![1]!;
  });
  after(() => stopChild(cms));

  it('serves /admin from astro dev as the build does, its config naming the local backend it started', async () => {
    assert.equal(new URL(form).port, String(sitePort));
    const page = await fetch(form);
    assert.equal(page.status, 200);
    const html = await page.text();
    assert.match(html, /<meta name="robots" content="noindex, nofollow">/);
    assert.match(html, /<script src="\/admin\/decap-cms.js"><\/script>/);
    const config = await fetch(new URL('config.yml', form));
    assert.equal(config.headers.get('content-type'), 'text/yaml; charset=utf-8');
    assert.equal(
      await config.text(),
      cmsConfigYaml(
        readChoices(join(project, 'content')),
        cmsSettingsFromEnv({ CMS_LOCAL_BACKEND: `http://127.0.0.1:${backendPort}/api/v1` }),
      ),
    );
    const bundle = await (await fetch(new URL('decap-cms.js', form))).arrayBuffer();
    assert.equal(bundle.byteLength, readFileSync(resolve(ROOT, 'node_modules/decap-cms/dist/decap-cms.js')).length);
  });

  it('listens nowhere but the guard and the dev site: a page going around the guard reads and writes nothing', async (t) => {
    const ports = listeningPorts(cms.pid!);
    t.diagnostic(`listening: ${ports.join(', ')} (site ${sitePort}, backend ${backendPort})`);
    assert.ok(ports.includes(backendPort) && ports.includes(sitePort), `found ${ports.join(', ')}`);
    const packageJson = readFileSync(join(project, 'package.json'), 'utf8');
    const before = listFiles(project, new Set(['node_modules', '.astro'])).join('\n');
    const write = (path: string) => ({
      action: 'persistEntry',
      params: {
        branch: 'main',
        entry: { slug: 'p', path, raw: 'owned' },
        assets: [],
        options: { commitMessage: 'x' },
      },
    });
    const attacks = [
      write('pwned.md'),
      write('content/reviews/2026-01-03-pwned.md'),
      { action: 'getEntry', params: { branch: 'main', path: 'package.json' } },
      {
        action: 'getEntry',
        params: { branch: 'main', path: 'content/reviews/2022-09-08-greg-h-reroof-cedar-hills.md' },
      },
    ];
    for (const port of ports) {
      for (const headers of [
        { host: `evil.example:${port}`, origin: 'http://localhost:3000' },
        { host: `127.0.0.1:${port}`, origin: 'http://localhost:3000' },
        { host: `evil.example:${port}` },
      ] as Record<string, string>[]) {
        for (const body of attacks) {
          const answer = await callPort(port, headers, body);
          assert.ok(answer.status >= 400, `port ${port} ${JSON.stringify(headers)}: ${answer.status} ${answer.text}`);
          assert.ok(
            !answer.text.includes('"file":') && !answer.text.includes('roofing-reviews'),
            `port ${port} read a file: ${answer.text.slice(0, 200)}`,
          );
        }
      }
    }
    assert.equal(readFileSync(join(project, 'package.json'), 'utf8'), packageJson);
    assert.equal(listFiles(project, new Set(['node_modules', '.astro'])).join('\n'), before, 'nothing written');
  });
});

describe('the web form at /admin', () => {
  it('is served by the build: its own copy of the bundle, the generated config, not for search engines', async () => {
    for (const path of ['/admin', '/admin/']) {
      const page = await fetch(`${built!.url}${path}`);
      assert.equal(page.status, 200, path);
      assert.match(await page.text(), /<meta name="robots" content="noindex, nofollow">/);
    }
    const bundle = await fetch(`${built!.url}/admin/decap-cms.js`);
    assert.match(bundle.headers.get('content-type') ?? '', /^text\/javascript/);
    assert.ok(
      Buffer.from(await bundle.arrayBuffer()).equals(
        readFileSync(resolve(ROOT, 'node_modules/decap-cms/dist/decap-cms.js')),
      ),
    );
    const config = await (await fetch(`${built!.url}/admin/config.yml`)).text();
    assert.equal(config, cmsConfigYaml(readChoices(content), cmsSettingsFromEnv({ CMS_LOCAL_BACKEND: localBackend })));
    // Netlify Identity's emails lead to /admin, where the widget (Netlify builds only) takes the token.
    const invitation = await (await fetch(`${built!.url}/admin/emails/invitation.html`)).text();
    assert.ok(invitation.includes('href="{{ .SiteURL }}/admin/#invite_token={{ .Token }}"'), invitation);
    const recovery = await (await fetch(`${built!.url}/admin/emails/recovery.html`)).text();
    assert.ok(recovery.includes('href="{{ .SiteURL }}/admin/#recovery_token={{ .Token }}"'), recovery);
  });

  it('logs in through the local backend and saves a new review as a file the loader accepts and a build publishes', async (t) => {
    const page = await openNewReview(built!.url);
    const started = performance.now();
    await fillDate(page, 'Date', '2026-11-21');
    await page.getByLabel(/^Updated/).fill('2026-11-23T09:30');
    await page.getByLabel('Rating', { exact: true }).fill('4');
    await page.getByLabel(/^Title/).fill('Patched the morning after the storm');
    await page.getByLabel('Customer', { exact: true }).fill("Zoë O'Brien-Smith Jr.");
    await choose(page, 'Technicians', ['Maria', 'Dave']);
    await choose(page, 'Services', ['Storm damage', 'Emergency tarping']);
    await choose(page, 'Service area', ['Tigard']);
    await page.getByLabel('Source', { exact: true }).fill('nextdoor');
    assert.equal(await page.getByRole('switch').getAttribute('aria-checked'), 'true', 'verified is on by default');
    await choose(page, 'Method', ['job']);
    await fillDate(page, /^Checked on/, '2026-11-22');
    await fillDate(page, /^Reply date/, '2026-11-22');
    await page.getByLabel(/^Reply text/).fill('Thanks Zoë: glad the tarp held [until] the *new* shingles came.');
    await page.getByLabel('Review text', { exact: true }).fill(BODY);
    await publish(page);
    await page.getByText('Entry saved').waitFor();
    t.diagnostic(`filled and saved in ${Math.round(performance.now() - started)} ms`);

    const file = join(reviewsDir, `${NEW_ID}.md`);
    const markdown = parseMarkdown(readFileSync(file, 'utf8'));
    assert.deepEqual(markdown.data, {
      date: '2026-11-21',
      updated: '2026-11-23T09:30:00Z',
      rating: 4,
      title: 'Patched the morning after the storm',
      author: "Zoë O'Brien-Smith Jr.",
      technicians: ['Maria Santos', 'Dave Kowalski'],
      services: ['storm-damage', 'emergency-tarping'],
      service_area: 'tigard',
      source: 'nextdoor',
      verified: true,
      verification: { method: 'job', checked: '2026-11-22' },
      response: { date: '2026-11-22', text: 'Thanks Zoë: glad the tarp held [until] the *new* shingles came.' },
    });
    assert.equal(markdown.body, BODY);
    assert.match(NEW_ID, REVIEW_ID);

    const loaded = loadContent(content);
    const review = loaded.reviews.find((r) => r.id === NEW_ID);
    assert.ok(review, 'the loader publishes the saved review');
    assert.deepEqual(review.technicians, ['Maria Santos', 'Dave Kowalski']);
    assert.equal(review.text, BODY);
    await page.close();

    // A real build of that content folder.
    const outDir = join(work, 'dist-after');
    const buildStarted = performance.now();
    await run(NODE, [ASTRO_BIN, 'build'], buildEnv(content, outDir));
    t.diagnostic(`astro build in ${Math.round(performance.now() - buildStarted)} ms`);
    const dataset = JSON.parse(readFileSync(join(outDir, 'client/reviews.json'), 'utf8'));
    const published = dataset.reviews.find((r: { id: string }) => r.id === NEW_ID);
    assert.equal(published?.title, 'Patched the morning after the storm');
    assert.deepEqual(published?.response, {
      date: '2026-11-22',
      text: 'Thanks Zoë: glad the tarp held [until] the *new* shingles came.',
    });
    assert.equal(dataset.reviews.length, loaded.reviews.length);
  });

  it('refuses a rating of 6 and a missing customer, with messages, and writes nothing', async () => {
    const filesBefore = readdirSync(reviewsDir).sort();
    const page = await openNewReview(built!.url);
    await fillDate(page, 'Date', '2026-11-24');
    await page.getByLabel('Rating', { exact: true }).fill('6');
    await choose(page, 'Services', ['Roof repair']);
    await page.getByLabel('Review text', { exact: true }).fill('Fixed the leak.');
    await publish(page);
    await page.getByText(/missed a required field/i).waitFor();
    assert.ok(
      await page.getByText(/Rating must be (less than or equal to|between)[^.]*5/i).isVisible(),
      'the rating says what is wrong',
    );
    assert.ok(await page.getByText(/Customer is required/i).isVisible(), 'the missing customer is named');
    await page.waitForTimeout(1000);
    assert.deepEqual(readdirSync(reviewsDir).sort(), filesBefore, 'no file written');
    await page.close();
  });

  it('refuses a reply dated before the review, and one without its date; a reply emptied is not saved at all', async () => {
    const filesBefore = readdirSync(reviewsDir).sort();
    const page = await openNewReview(built!.url);
    await fillDate(page, 'Date', '2026-11-24');
    await page.getByLabel('Rating', { exact: true }).fill('2');
    await page.getByLabel('Customer', { exact: true }).fill('Sam W.');
    await choose(page, 'Services', ['Roof repair']);
    await choose(page, 'Method', ['invitation']);
    await fillDate(page, /^Checked on/, '2026-11-24');
    await fillDate(page, /^Reply date/, '2026-11-20');
    await page.getByLabel(/^Reply text/).fill('Sorry Sam, we are on it.');
    await page.getByLabel('Review text', { exact: true }).fill('Still leaking after the second visit.');
    await publish(page);
    await page.getByText(/the reply \(2026-11-20\) is dated before the review \(2026-11-24\)/).waitFor();
    assert.deepEqual(readdirSync(reviewsDir).sort(), filesBefore, 'no file written');

    // A reply without its date is refused too; emptied, it is not saved at all, not even as a blank object.
    await page.getByRole('button', { name: 'Clear' }).nth(4).click();
    await publish(page);
    await page.getByText(/response\.date: is required/).waitFor();
    assert.deepEqual(readdirSync(reviewsDir).sort(), filesBefore, 'no file written');
    await page.getByLabel(/^Reply text/).fill('');
    await publish(page);
    await page.getByText('Entry saved').waitFor();
    const file = join(reviewsDir, '2026-11-24-sam-w.md');
    const markdown = parseMarkdown(readFileSync(file, 'utf8'));
    assert.deepEqual(markdown.data, {
      date: '2026-11-24',
      rating: 2,
      author: 'Sam W.',
      services: ['roof-repair'],
      source: 'google',
      verified: true,
      verification: { method: 'invitation', checked: '2026-11-24' },
    });
    assert.ok(loadContent(content).reviews.some((r) => r.id === '2026-11-24-sam-w'));
    await page.close();
  });
});

/** Logs in through the local backend and opens an empty review form; every request must stay on this machine. */
async function openNewReview(siteUrl: string): Promise<Page> {
  const page = await browser.newPage();
  const origin = new URL(siteUrl).origin;
  const backendOrigin = new URL(localBackend).origin;
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (url.protocol === 'data:' || url.protocol === 'blob:') return;
    if (url.origin !== origin && url.origin !== backendOrigin) foreignRequests.push(request.url());
  });
  const missing: string[] = [];
  page.on('response', (response) => {
    if (response.status() === 404) missing.push(response.url());
  });
  await page.goto(`${siteUrl}/admin/`);
  await page.getByRole('button', { name: 'Login' }).click();
  await page.getByRole('link', { name: 'Create entry of type review' }).click();
  await page.getByLabel('Rating', { exact: true }).waitFor();
  assert.deepEqual(missing, [], 'nothing /admin loads is missing');
  assert.deepEqual(foreignRequests, [], 'everything /admin loads comes from the site or the local backend');
  return page;
}

async function fillDate(page: Page, label: string | RegExp, value: string): Promise<void> {
  await page.getByLabel(label, { exact: true }).fill(value);
}

/** Picks options of a select widget by typing the start of their label. */
async function choose(page: Page, label: string, options: string[]): Promise<void> {
  const input = page.getByLabel(new RegExp(`^${label}`));
  for (const option of options) {
    await input.click();
    await input.pressSequentially(option);
    await page.keyboard.press('Enter');
  }
}

async function publish(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Publish' }).click();
  await page.getByText('Publish now').click();
}

function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolvePort(port));
    });
  });
}

function spawnChild(
  command: string,
  args: string[],
  env: NodeJS.ProcessEnv,
  cwd = ROOT,
): ChildProcess & { log: () => string } {
  const child = spawn(command, args, { cwd, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  children.push(child);
  return Object.assign(child, { log: () => output });
}

function waitForOutput(
  child: ChildProcess & { log: () => string },
  ready: RegExp,
  name: string,
  timeout = 60_000,
): Promise<void> {
  return new Promise((resolveReady, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`${name} not ready in ${timeout / 1000} s:\n${child.log()}`)),
      timeout,
    );
    const check = () => {
      if (ready.test(child.log())) {
        clearTimeout(timer);
        resolveReady();
      }
    };
    child.stdout!.on('data', check);
    child.stderr!.on('data', check);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${name} exited (${code}):\n${child.log()}`));
    });
  });
}

function run(command: string, args: string[], env: NodeJS.ProcessEnv): Promise<string> {
  const child = spawnChild(command, args, env);
  return new Promise((resolveRun, reject) => {
    child.once('exit', (code) =>
      code === 0 ? resolveRun(child.log()) : reject(new Error(`${args.join(' ')} failed (${code}):\n${child.log()}`)),
    );
  });
}

function stopChild(child: ChildProcess): Promise<void> {
  return new Promise((resolveStop) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolveStop();
    child.once('exit', () => resolveStop());
    child.kill('SIGTERM');
  });
}

/**
 * A host build that would bake http://localhost into feeds, JSON-LD and WebSub
 * topics fails before building anything, saying what to set. (The host builds
 * of the suite take the site from the host's production URL instead: see
 * HOST_BUILDS in test/helpers/builds.ts and the Link headers in headers.test.ts.)
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { it } from 'node:test';
import { ASTRO_BIN, BUILDS, buildEnv, NODE, ROOT } from '../helpers/builds.ts';
import { startServer } from '../helpers/server.ts';

it("a host build without SITE_URL or the host's URL fails, saying what to set", () => {
  const env = {
    ...buildEnv(`${ROOT}/test/fixtures/content-small`, `${ROOT}/.test-builds/never-built`, { NETLIFY: 'true' }),
    DEPLOY_TARGET: '',
  };
  const result = spawnSync(NODE, [ASTRO_BIN, 'build'], { cwd: ROOT, env, encoding: 'utf8', timeout: 60_000 });
  assert.notEqual(result.status, 0);
  assert.match(result.stdout + result.stderr, /Set SITE_URL to the site's public URL/);
});

it('the Node server warns at start, in one line, when SITE_URL differs from the site the build was made for', async () => {
  const other = await startServer('small', { SITE_URL: 'https://reviews.example' });
  try {
    const lines = other
      .output()
      .split('\n')
      .filter((line) => line.startsWith('warning:'));
    assert.equal(lines.length, 1, other.output());
    assert.match(lines[0]!, /made for http:\/\/localhost:4321 but SITE_URL is https:\/\/reviews\.example/);
  } finally {
    await other.stop();
  }
  const same = await startServer('small');
  try {
    assert.doesNotMatch(same.output(), /^warning:/m);
  } finally {
    await same.stop();
  }
});

it('a production build ships /admin/config.yml without a local backend', async () => {
  const config = readFileSync(join(BUILDS.small.outDir, 'client/admin/config.yml'), 'utf8');
  assert.match(config, /^backend:/m);
  assert.doesNotMatch(config, /local_backend/);
});

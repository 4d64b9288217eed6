/**
 * A host build that would bake http://localhost into feeds, JSON-LD and WebSub
 * topics fails before building anything, saying what to set. (The host builds
 * of the suite take the site from the host's production URL instead: see
 * HOST_BUILDS in test/helpers/builds.ts and the Link headers in headers.test.ts.)
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { it } from 'node:test';
import { ASTRO_BIN, buildEnv, NODE, ROOT } from '../helpers/builds.ts';

it('a host build without SITE_URL or the host\'s URL fails, saying what to set', () => {
  const env = { ...buildEnv(`${ROOT}/test/fixtures/content-small`, `${ROOT}/.test-builds/never-built`, { NETLIFY: 'true' }), DEPLOY_TARGET: '' };
  const result = spawnSync(NODE, [ASTRO_BIN, 'build'], { cwd: ROOT, env, encoding: 'utf8', timeout: 60_000 });
  assert.notEqual(result.status, 0);
  assert.match(result.stdout + result.stderr, /Set SITE_URL to the site's public URL/);
});

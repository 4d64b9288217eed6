/**
 * The Vercel build (@astrojs/vercel), driven in-process: the `_render`
 * function the adapter wrote, its cron route, and the publish that the first
 * request of a new production deployment starts.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { it } from 'node:test';
import { HOST_BUILDS } from '../helpers/builds.ts';
import { hostScenarios } from './scenarios.ts';
import { loadVercel } from './helpers.ts';

const CRON_SECRET = 'test-cron-secret';
const site = HOST_BUILDS.vercel.site;
const cron = (authorization?: string) =>
  new Request(`${site}/api/cron/sweep`, { headers: authorization ? { authorization } : {} });
let deployments = 0;

hostScenarios({
  name: 'vercel',
  load: loadVercel,
  staticDir: join(HOST_BUILDS.vercel.dir, 'output/static'),
  env: { CRON_SECRET },
  preview: {
    variable: 'VERCEL_URL',
    value: 'cedar-reviews-git-x-team.vercel.app',
    host: 'cedar-reviews-git-x-team.vercel.app',
  },
  runSchedule: async () => {
    const fn = await loadVercel();
    const response = await fn.fetch(cron(`Bearer ${CRON_SECRET}`));
    return { status: response.status, body: await response.json() };
  },
  announceDeploy: async (copies) => {
    // Fresh instances of one new production deployment, each serving its first request at once.
    process.env.VERCEL_ENV = 'production';
    process.env.VERCEL_DEPLOYMENT_ID = `dpl_test_${deployments++}`;
    try {
      const fns = await Promise.all(Array.from({ length: copies }, () => loadVercel()));
      const answers = await Promise.all(fns.map((fn) => fn.fetch(new Request(`${site}/api/reviews/search?limit=1`))));
      for (const answer of answers) assert.equal(answer.status, 200);
    } finally {
      delete process.env.VERCEL_ENV;
    }
  },
});

it('the cron route refuses a request without the secret (401) and is declared in config.json', async () => {
  const fn = await loadVercel();
  assert.equal((await fn.fetch(cron())).status, 401);
  assert.equal((await fn.fetch(cron('Bearer wrong'))).status, 401);
  const config = JSON.parse(readFileSync(join(HOST_BUILDS.vercel.dir, 'output/config.json'), 'utf8'));
  assert.deepEqual(config.crons, [{ path: '/api/cron/sweep', schedule: '0 5 * * *' }]);
});

it("a preview deployment's first request publishes nothing", async () => {
  process.env.VERCEL_ENV = 'preview';
  try {
    const fn = await loadVercel();
    const { response, deferred } = await fn.call(new Request(`${site}/api/reviews/search?limit=1`));
    assert.equal(response.status, 200);
    assert.equal(deferred.length, 0);
  } finally {
    delete process.env.VERCEL_ENV;
  }
});

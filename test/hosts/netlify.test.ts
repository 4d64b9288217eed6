/**
 * The Netlify build (@astrojs/netlify), driven in-process: the SSR function the
 * adapter wrote, and the two functions of netlify/functions/ — the scheduled
 * sweep and deploy-succeeded — as Netlify would run them.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, it } from 'node:test';
import { HOST_BUILDS } from '../helpers/builds.ts';
import { hostScenarios } from './scenarios.ts';
import { loadNetlify, loadNetlifyFunction, serveStatic } from './helpers.ts';

const staticDir = join(HOST_BUILDS.netlify.dir, 'dist');
let cdn: { origin: string; close(): Promise<void> };
before(async () => (cdn = await serveStatic(staticDir)));
after(() => cdn?.close());

/** The standalone functions read topics from the site as served; here, a local stand-in for the CDN. */
async function withCdn<T>(work: () => Promise<T>): Promise<T> {
  process.env.WEBSUB_CONTENT_ORIGIN = cdn.origin;
  try {
    return await work();
  } finally {
    delete process.env.WEBSUB_CONTENT_ORIGIN;
  }
}

hostScenarios({
  name: 'netlify',
  load: loadNetlify,
  staticDir,
  preview: {
    variable: 'DEPLOY_PRIME_URL',
    value: 'https://deploy-preview-7--cedar-reviews.netlify.app',
    host: 'deploy-preview-7--cedar-reviews.netlify.app',
  },
  runSchedule: () =>
    withCdn(async () => {
      const sweep = await loadNetlifyFunction('websub-sweep');
      const response = await sweep.run({ next_run: new Date().toISOString() });
      return { status: response.status, body: await response.json() };
    }),
  announceDeploy: (copies) =>
    withCdn(async () => {
      const functions = await Promise.all(
        Array.from({ length: copies }, () => loadNetlifyFunction('deploy-succeeded')),
      );
      const answers = await Promise.all(
        functions.map((fn) => fn.run({ payload: { context: 'production', state: 'ready' } })),
      );
      for (const answer of answers) assert.equal(answer.status, 200, 'deploy-succeeded ran');
    }),
});

it('the scheduled function is scheduled every minute; a deploy preview does not publish', async () => {
  const sweep = await loadNetlifyFunction('websub-sweep');
  assert.equal(sweep.config?.schedule, '* * * * *');
  const deploy = await loadNetlifyFunction('deploy-succeeded');
  const answer = await deploy.run({ payload: { context: 'deploy-preview' } });
  assert.equal(answer.status, 200);
  assert.match(await answer.text(), /not published/);
});

/**
 * Vercel has no post-deploy hook inside the project: the first request a new
 * production deployment serves publishes what changed (under waitUntil, after
 * the answer). A claim on the deployment id lets one instance of the
 * deployment do it; the publish itself is claimed per change, so however many
 * deployments or instances race, each change is delivered once. The cron
 * (src/pages/api/cron/sweep.ts) publishes too, should this instance die first.
 * Preview deployments never publish: their content is not the topics'.
 * The middleware hands in the process's hub and store, asked for only when
 * there is something to publish.
 */
import type { Store } from '../../lib/store/index.ts';
import type { Hub } from '../../lib/websub/hub-handler.ts';
import { DEPLOY_TARGET, missingSettings } from '../built-target.ts';
import { NEEDS } from '../requirements.ts';
import { vercelDefer } from '../route-defer.ts';

export interface FirstRequestServices {
  hub: () => Hub;
  store: () => Store;
}

/** Long enough for every instance of one deployment to see the claim taken. */
const DEPLOYMENT_CLAIM_SECONDS = 7 * 24 * 3600;

let seen = false;

export function afterFirstRequest(
  services: FirstRequestServices,
  env: Record<string, string | undefined> = process.env,
): void {
  if (seen || DEPLOY_TARGET !== 'vercel') return;
  seen = true;
  if (env.VERCEL_ENV !== 'production' || missingSettings(NEEDS.hub)) return;
  const deployment = env.VERCEL_DEPLOYMENT_ID?.trim();
  const work = (async () => {
    if (
      deployment &&
      !(await services.store().claim(`host:deployment-published:${deployment}`, DEPLOYMENT_CLAIM_SECONDS))
    )
      return;
    const outcomes = await services.hub().publishChanged();
    console.log(
      `websub: first request of deployment ${deployment ?? '(unknown)'} published (${outcomes.map((o) => o.result).join(', ')})`,
    );
  })().catch((error: unknown) => console.error('websub: publish after deploy failed:', error));
  vercelDefer()?.(work);
}

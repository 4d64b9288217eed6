/**
 * Vercel has no post-deploy hook inside the project: the first request a new
 * production deployment serves publishes what changed (under waitUntil, after
 * the answer). A claim on the deployment id lets one instance of the
 * deployment do it; the publish itself is claimed per change, so however many
 * deployments or instances race, each change is delivered once. The cron
 * (src/pages/api/cron/sweep.ts) publishes too, should this instance die first.
 * Preview deployments never publish: their content is not the topics'.
 */
import { getHub } from '../../data/hub.ts';
import { DEPLOY_TARGET, missingSettings } from '../../data/host.ts';
import { getStore } from '../../data/site.ts';
import { NEEDS } from '../../lib/platform/requirements.ts';
import { vercelDefer } from './wait-until.ts';

/** Long enough for every instance of one deployment to see the claim taken. */
const DEPLOYMENT_CLAIM_SECONDS = 7 * 24 * 3600;

let seen = false;

export function afterFirstRequest(env: Record<string, string | undefined> = process.env): void {
  if (seen || DEPLOY_TARGET !== 'vercel') return;
  seen = true;
  if (env.VERCEL_ENV !== 'production' || missingSettings(NEEDS.hub)) return;
  const deployment = env.VERCEL_DEPLOYMENT_ID?.trim();
  const work = (async () => {
    if (deployment && !(await getStore().claim(`host:deployment-published:${deployment}`, DEPLOYMENT_CLAIM_SECONDS))) return;
    const outcomes = await getHub().hub.publishChanged();
    console.log(`websub: first request of deployment ${deployment ?? '(unknown)'} published (${outcomes.map((o) => o.result).join(', ')})`);
  })().catch((error: unknown) => console.error('websub: publish after deploy failed:', error));
  vercelDefer()?.(work);
}

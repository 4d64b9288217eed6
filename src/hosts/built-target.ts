/**
 * The deploy target baked into this build (astro.config.mjs defines
 * __DEPLOY_TARGET__), and the check every stateful route makes first on a
 * serverless target: without its settings it answers 503 naming them.
 */
import { toResponse } from '../lib/http/answer.ts';
import { notConfigured, unmetRequirements, type Setting } from './requirements.ts';
import { isServerless, type DeployTarget } from './target.ts';

export const DEPLOY_TARGET: DeployTarget = __DEPLOY_TARGET__;

export const SERVERLESS = isServerless(DEPLOY_TARGET);

/** The 503 to answer instead, when this is a serverless build missing one of `needs`. */
export function missingSettings(needs: readonly Setting[]): Response | undefined {
  if (!SERVERLESS) return undefined;
  const unmet = unmetRequirements(needs, process.env);
  return unmet.length > 0 ? toResponse(notConfigured(unmet)) : undefined;
}

/**
 * GET /api/cron/sweep: the scheduled work of a serverless deployment (Vercel's
 * cron, see astro.config.mjs / src/hosts/build-config.ts): send due
 * WebSub retries, purge expired leases, and publish any topic whose content
 * differs from what was last distributed. Idempotent; only the scheduler may
 * call it (CRON_SECRET).
 */
import type { APIRoute } from 'astro';
import { missingSettings } from '../../../hosts/built-target.ts';
import { getHub } from '../../../route-services/websub-hub.ts';
import { runScheduledWork } from '../../../hosts/scheduled-work.ts';
import { toResponse } from '../../../lib/http/answer.ts';
import { cronRefusal } from '../../../hosts/vercel/cron-auth.ts';
import { notConfigured, unmetRequirements, NEEDS } from '../../../hosts/requirements.ts';

export const prerender = false;

export const GET: APIRoute = async ({ request }) => {
  // CRON_SECRET is checked on every target: without it no one may run this.
  const noSecret = unmetRequirements(['CRON_SECRET'], process.env);
  if (noSecret.length > 0) return toResponse(notConfigured(noSecret));
  const refused = cronRefusal(request.headers.get('authorization'), process.env.CRON_SECRET!.trim());
  if (refused) return toResponse(refused);
  return missingSettings(NEEDS.cron) ?? runScheduledWork(getHub());
};

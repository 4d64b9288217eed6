/** The WebSub hub (see src/lib/websub/hub.ts): every method goes to the one handler, which answers 405 itself. */
import type { APIRoute } from 'astro';
import { missingSettings } from '../../../data/host.ts';
import { getHub } from '../../../data/hub.ts';
import { NEEDS } from '../../../lib/platform/requirements.ts';
import { routeClient } from '../../../hosts/client-address.ts';
import { deferFor } from '../../../hosts/wait-until.ts';

export const prerender = false;

export const ALL: APIRoute = async (context) => {
  const unconfigured = missingSettings(NEEDS.hub);
  if (unconfigured) return unconfigured;
  // Verification and fan-out after the 202 run under the host's waitUntil.
  return getHub().hub.handle(context.request, routeClient(context), deferFor(context.locals));
};

/** The WebSub hub (see src/lib/websub/hub-handler.ts): every method goes to the one handler, which answers 405 itself. */
import type { APIRoute } from 'astro';
import { missingSettings } from '../../../hosts/built-target.ts';
import { getHub } from '../../../route-services/websub-hub.ts';
import { NEEDS } from '../../../hosts/requirements.ts';
import { routeClient } from '../../../hosts/route-client.ts';
import { deferFor } from '../../../hosts/route-defer.ts';

export const prerender = false;

export const ALL: APIRoute = async (context) => {
  const unconfigured = missingSettings(NEEDS.hub);
  if (unconfigured) return unconfigured;
  // Verification and fan-out after the 202 run under the host's waitUntil.
  return getHub().hub.handle(context.request, routeClient(context), deferFor(context.locals));
};

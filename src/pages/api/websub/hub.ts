/** The WebSub hub (see src/lib/websub/hub.ts): every method goes to the one handler, which answers 405 itself. */
import type { APIRoute } from 'astro';
import { getHub } from '../../../data/hub.ts';

export const prerender = false;

export const ALL: APIRoute = async (context) => {
  let address = 'unknown';
  try {
    address = context.clientAddress;
  } catch {
    // Hosts that cannot tell the client's address share one rate-limit bucket.
  }
  return getHub().hub.handle(context.request, { address });
};

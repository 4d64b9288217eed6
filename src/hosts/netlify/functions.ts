/**
 * The bodies of Netlify's two standalone functions (netlify/functions/*.mts):
 * they run outside Astro, over the hub built from the environment
 * (src/hosts/netlify/standalone-hub.ts), and close their Redis connection before
 * returning. Deploy previews and branch deploys never publish: their content
 * is not the topics'.
 */
import { standaloneHub } from './standalone-hub.ts';
import { notConfigured } from '../requirements.ts';
import { toResponse } from '../../lib/http/answer.ts';
import { runScheduledWork } from '../scheduled-work.ts';

/** What the functions read of Netlify's Context (@netlify/functions, not a dependency of ours). */
export interface NetlifyContextLike {
  site?: { url?: string };
}

/** The scheduled function: the one idempotent sweep (due retries, expired leases). */
export async function scheduledSweep(context?: NetlifyContextLike): Promise<Response> {
  return withHub(context, (service) => runScheduledWork(service, { publish: false }));
}

/** The deploy-succeeded event: publish what changed, once the new deploy is live. */
export async function deploySucceeded(request: Request, context?: NetlifyContextLike): Promise<Response> {
  const event = (await request.json().catch(() => ({}))) as { payload?: { context?: string } };
  const deployContext = event.payload?.context;
  if (deployContext && deployContext !== 'production') {
    return new Response(`not published: a ${deployContext} deploy is not the site's content\n`, { status: 200 });
  }
  return withHub(context, (service) => runScheduledWork(service, { publish: true }));
}

async function withHub(
  context: NetlifyContextLike | undefined,
  work: (service: import('../../lib/websub/service.ts').HubService) => Promise<Response>,
): Promise<Response> {
  const hub = standaloneHub(process.env, context?.site?.url);
  if (hub.unmet) {
    console.error(`websub: ${hub.unmet.map((u) => u.problem).join('; ')}`);
    return toResponse(notConfigured(hub.unmet));
  }
  try {
    return await work(hub.service);
  } finally {
    await hub.close();
  }
}

/**
 * The /mcp handler for Astro's on-demand route (serverless hosts; the Node
 * entry answers /mcp itself from the same src/lib code). Built once per
 * process: the dataset from the content collections, the store and the
 * session signing key from the environment, as on the Node path.
 */
import { insightsDataset } from '../lib/insights/schema.ts';
import { createMcpService } from '../lib/mcp/service.ts';
import { createStore, storeConfigFromEnv } from '../lib/store/index.ts';
import { getDataset } from './dataset.ts';
import { getInsights } from './insights.ts';

let handler: Promise<(request: Request) => Promise<Response>> | undefined;

export function getMcpHandler(): Promise<(request: Request) => Promise<Response>> {
  handler ??= (async () => {
    const env = process.env;
    return createMcpService({
      content: {
        site: import.meta.env.SITE.replace(/\/$/, ''),
        dataset: await getDataset(),
        insights: { schema: insightsDataset, data: (await getInsights()) as unknown as Record<string, unknown> },
      },
      store: createStore(storeConfigFromEnv(env)),
      env,
      bindHost: env.HOST ?? 'localhost',
    });
  })();
  // A failed start (say, an unreachable store) is retried on the next request, not cached.
  handler.catch(() => (handler = undefined));
  return handler;
}

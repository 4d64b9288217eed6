/**
 * The hub with its settings and store, as a host runs it: the Node entry
 * (src/node/dynamic-routes.ts) and the Astro route (src/data/hub.ts) each make
 * one. `onListening` is the post-deploy step: once the new content is live,
 * publish each topic whose content differs from what was last distributed,
 * and start the retry scheduler.
 */
import { createStore, storeConfigFromEnv } from '../store/index.ts';
import { hubConfigFromEnv, type HubConfig } from './config.ts';
import type { ContentSource } from './content.ts';
import { createHub, type Hub } from './hub.ts';

export interface HubService {
  hub: Hub;
  config: HubConfig;
  onListening(): Promise<void>;
  close(): Promise<void>;
}

export function createHubService(options: { site: string; env: Record<string, string | undefined>; content: ContentSource }): HubService {
  const config = hubConfigFromEnv(options.env);
  const store = createStore(storeConfigFromEnv(options.env));
  const hub = createHub({ site: options.site, store, content: options.content, config });
  return {
    hub,
    config,
    async onListening() {
      hub.start();
      if (!config.publishOnStart) return;
      const outcomes = await hub.publishChanged();
      for (const outcome of outcomes) {
        if (outcome.result === 'distributed') console.log(`websub: published ${outcome.topic} to ${outcome.subscribers} subscriber(s)`);
        else if (outcome.result === 'recorded') console.log(`websub: recorded the first hash of ${outcome.topic}; nobody notified`);
      }
      // Logged once every start-up delivery is done (operators and the tests wait for it).
      console.log(`websub: start-up publish done (${outcomes.map((outcome) => outcome.result).join(', ')})`);
    },
    async close() {
      await hub.close();
      await store.close();
    },
  };
}

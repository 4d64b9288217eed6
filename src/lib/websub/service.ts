/**
 * The hub with its settings, as a host runs it: the Node entry
 * (src/node/dynamic-routes.ts) and the Astro route (src/route-services/websub-hub.ts) each make
 * one, over a store they own (and close). `onListening` is the post-deploy
 * step: once the new content is live, publish each topic whose content
 * differs from what was last distributed, and start the retry scheduler.
 */
import type { Store } from '../store/index.ts';
import { isStoreUnavailable } from '../store/unavailable.ts';
import type { HubConfig } from './config.ts';
import type { ContentSource } from './content.ts';
import { createHub, type Hub } from './hub-handler.ts';

/** How often a start-up publish that found Redis out of reach tries again. */
const PUBLISH_RETRY_MS = 2000;

export interface HubService {
  hub: Hub;
  onListening(): Promise<void>;
  /** Stops the hub; the store stays open (its owner closes it). */
  close(): Promise<void>;
}

export interface HubServiceOptions {
  site: string;
  content: ContentSource;
  /** Owned by the caller: the service never closes it. */
  store: Store;
  config: HubConfig;
}

export function createHubService(options: HubServiceOptions): HubService {
  const { config } = options;
  const hub = createHub({ site: options.site, store: options.store, content: options.content, config });
  /** A start-up publish that found the store out of reach, tried again until it runs (no change left unannounced). */
  let retry: NodeJS.Timeout | undefined;
  let closed = false;
  /** Said once per outage, not every retry: a long outage must not flood the log. */
  let waiting = false;
  const publishOnStart = async (): Promise<void> => {
    let outcomes;
    try {
      outcomes = await hub.publishChanged();
    } catch (error) {
      if (!isStoreUnavailable(error) || closed) throw error;
      if (!waiting)
        console.error(
          `websub: start-up publish waits for the store (${error.message}); trying again every ${PUBLISH_RETRY_MS / 1000} s`,
        );
      waiting = true;
      retry = setTimeout(
        () => void publishOnStart().catch((again: unknown) => console.error('websub: start-up publish failed:', again)),
        PUBLISH_RETRY_MS,
      );
      retry.unref();
      return;
    }
    if (waiting) console.log('websub: the store is reachable again; start-up publish runs');
    waiting = false;
    for (const outcome of outcomes) {
      if (outcome.result === 'distributed')
        console.log(`websub: published ${outcome.topic} to ${outcome.subscribers} subscriber(s)`);
      else if (outcome.result === 'recorded')
        console.log(`websub: recorded the first hash of ${outcome.topic}; nobody notified`);
    }
    // Logged once every start-up delivery is done (operators and the tests wait for it).
    console.log(`websub: start-up publish done (${outcomes.map((outcome) => outcome.result).join(', ')})`);
  };
  return {
    hub,
    async onListening() {
      hub.start();
      if (config.publishOnStart) await publishOnStart();
    },
    async close() {
      closed = true;
      clearTimeout(retry);
      await hub.close();
    },
  };
}

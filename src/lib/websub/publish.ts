/**
 * Publishing: is a topic's content, as the site serves it now, different from
 * what the hub last distributed? Only then are subscribers notified, and only
 * by one instance (a claim on "topic + previous hash + new hash").
 *
 * The very first time a topic is seen (no hash recorded, i.e. a fresh store)
 * the hash is recorded and nobody is notified: a fresh store has no
 * subscribers, and "unchanged content never notifies" must hold for a store
 * that was just created next to an old deployment.
 */
import { createHash } from 'node:crypto';
import type { Distributor, DeliveryOutcome, Log } from './distribute.ts';
import type { ContentSource } from './content.ts';
import type { HubState } from './subscriptions.ts';
import type { Topic } from './topics.ts';

export type PublishOutcome =
  | { topic: string; result: 'unchanged' | 'recorded' | 'unavailable' | 'elsewhere' }
  | { topic: string; result: 'distributed'; subscribers: number; outcomes: DeliveryOutcome[] };

/** How long the claim of one change holds: long enough for every instance to have started. */
const PUBLISH_CLAIM_SECONDS = 120;

export const contentHash = (body: Buffer): string => createHash('sha256').update(body).digest('hex');

export async function publishTopic(
  topic: Topic,
  deps: { state: HubState; content: ContentSource; distributor: Distributor; log: Log },
  options: { waitForDeliveries: boolean } = { waitForDeliveries: true },
): Promise<PublishOutcome> {
  const { state, distributor } = deps;
  const content = await deps.content(topic.path).catch(() => undefined);
  if (!content) {
    deps.log(`websub: cannot read ${topic.path}; nothing published`);
    return { topic: topic.url, result: 'unavailable' };
  }
  const hash = contentHash(content.body);
  const last = await state.lastHash(topic.id);
  if (last?.hash === hash) return { topic: topic.url, result: 'unchanged' };
  if (!last) {
    await state.recordHash(topic.id, hash);
    return { topic: topic.url, result: 'recorded' };
  }
  if (!(await state.store.claim(`websub:publish:${topic.id}:${last.hash}:${hash}`, PUBLISH_CLAIM_SECONDS))) {
    return { topic: topic.url, result: 'elsewhere' };
  }
  // The outbox first, then the hash: a crash in between re-sends at worst, never loses.
  const jobs = await distributor.enqueueAll(topic, hash);
  await state.recordHash(topic.id, hash);
  if (jobs.length > 0) deps.log(`websub: ${topic.id} changed; notifying ${jobs.length} subscriber(s)`);
  const running = distributor.run(jobs);
  if (!options.waitForDeliveries) {
    running.catch((error: unknown) => deps.log(`websub: delivery failed: ${String(error)}`));
    return { topic: topic.url, result: 'distributed', subscribers: jobs.length, outcomes: [] };
  }
  return { topic: topic.url, result: 'distributed', subscribers: jobs.length, outcomes: await running };
}

/**
 * Publishing: is a topic's content, as the site serves it now, different from
 * what the hub last distributed? Only then are subscribers notified, and only
 * by one instance: a claim on "topic + the last record (generation, time,
 * hash) + new hash", so each transition is claimed once, including one that
 * repeats an earlier transition (H0→H1→H0→H1 within the claim's lifetime).
 *
 * No hash recorded means a fresh store, or one that lost it (Redis restarted
 * without persistence, a key evicted): the content may have changed since the
 * last distribution, so it counts as changed and whoever is subscribed is
 * notified (at worst a repeat of what they have; a lost hash never swallows a
 * real change). A fresh store has no subscribers: its first hash is just
 * recorded ('recorded'), nobody notified.
 *
 * Two steps, so that several topics can be queued before any is delivered
 * (the start-up publish): preparePublish writes the outbox and the new hash;
 * deliverPublished sends.
 */
import { createHash } from 'node:crypto';
import type { Distributor, DeliveryOutcome, Log } from './distribute.ts';
import type { ContentSource } from './content.ts';
import type { DeliveryJob, HubState } from './subscriptions.ts';
import type { Topic } from './topic-registry.ts';

export type PublishOutcome =
  | { topic: string; result: 'unchanged' | 'recorded' | 'unavailable' | 'elsewhere' }
  | { topic: string; result: 'distributed'; subscribers: number; outcomes: DeliveryOutcome[] };

/** A prepared publish: nothing to send, or the jobs this instance must send. */
export type PreparedPublish =
  { outcome: PublishOutcome; jobs?: never } | { outcome?: never; topic: Topic; jobs: DeliveryJob[] };

/**
 * How long the claim of one change holds: long enough for every instance to have started.
 * A holder killed between its claim and recording the hash leaves the change unannounced
 * until the claim expires: whoever found it taken ('elsewhere') checks again after that
 * (the hub's sweep), so the change is distributed late, never lost. The holder's restart on
 * the same machine does not wait: the claim of a process that has exited is taken over at
 * once (store/claim-holder.ts).
 */
export const PUBLISH_CLAIM_SECONDS = 120;

export const contentHash = (body: Buffer): string => createHash('sha256').update(body).digest('hex');

/**
 * The version a delivery job announces: one per transition (the publish claim's key), so a
 * re-publish of the same transition after a dead holder's claim expired gives the same
 * version, and each later transition a new one, even back to an earlier content.
 */
export const changeVersion = (transition: string): string =>
  createHash('sha256').update(transition).digest('base64url').slice(0, 22);

export interface PublishDeps {
  state: HubState;
  content: ContentSource;
  distributor: Distributor;
  log: Log;
}

/** Reads the topic, and if it changed and this instance wins the claim, writes the outbox and the new hash. */
export async function preparePublish(topic: Topic, deps: PublishDeps): Promise<PreparedPublish> {
  const { state, distributor } = deps;
  const content = await deps.content(topic.path).catch(() => undefined);
  if (!content) {
    deps.log(`websub: cannot read ${topic.path}; nothing published`);
    return { outcome: { topic: topic.url, result: 'unavailable' } };
  }
  // Hashed only when the source has no hash: the Node server reads no topic's bytes for an unchanged topic.
  const hash = content.sha256 ?? contentHash(content.body);
  const last = await state.lastHash(topic.id);
  if (last?.hash === hash) return { outcome: { topic: topic.url, result: 'unchanged' } };
  if (!last) {
    // One instance per (topic, content) announces it; the others find the claim taken.
    const transition = `${topic.id}:none:${hash}`;
    if (!(await state.store.claim(`websub:publish:${transition}`, PUBLISH_CLAIM_SECONDS))) {
      return { outcome: { topic: topic.url, result: 'elsewhere' } };
    }
    const jobs = await distributor.enqueueAll(topic, changeVersion(transition));
    await state.recordHash(topic.id, hash, 0);
    if (jobs.length === 0) return { outcome: { topic: topic.url, result: 'recorded' } };
    deps.log(
      `websub: ${topic.id} has no recorded hash (a new or emptied store); notifying ${jobs.length} subscriber(s) of its content`,
    );
    return { topic, jobs };
  }
  const { generation } = last;
  const transition = `${topic.id}:${generation}:${last.at}:${last.hash}:${hash}`;
  if (!(await state.store.claim(`websub:publish:${transition}`, PUBLISH_CLAIM_SECONDS))) {
    return { outcome: { topic: topic.url, result: 'elsewhere' } };
  }
  // The outbox first, then the hash: a crash in between publishes the same transition again (same version: a
  // subscriber that received it already is skipped), never loses it.
  const jobs = await distributor.enqueueAll(topic, changeVersion(transition));
  await state.recordHash(topic.id, hash, generation + 1);
  if (jobs.length > 0) deps.log(`websub: ${topic.id} changed; notifying ${jobs.length} subscriber(s)`);
  return { topic, jobs };
}

/** Sends what preparePublish queued; resolves when every delivery is done. */
export async function deliverPublished(prepared: PreparedPublish, distributor: Distributor): Promise<PublishOutcome> {
  if (prepared.outcome) return prepared.outcome;
  const outcomes = await distributor.run(prepared.jobs);
  return { topic: prepared.topic.url, result: 'distributed', subscribers: prepared.jobs.length, outcomes };
}

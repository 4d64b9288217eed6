/**
 * Every piece of hub state, in the store (src/lib/store): one key per
 * subscription (it expires with its lease), the latest intent per
 * (topic, callback), one pending delivery job per subscription (the outbox:
 * first attempts and due retries, so they survive restarts), the change last
 * delivered to each subscription, and the hash of the content last
 * distributed per topic.
 *
 *   websub:sub:<topic id>:<callback key>     Subscription, TTL = lease
 *   websub:intent:<topic id>:<callback key>  latest (un)subscribe request id
 *   websub:job:<topic id>:<callback key>     DeliveryJob
 *   websub:sent:<topic id>:<callback key>    Delivered, TTL = the longest lease
 *   websub:hash:<topic id>                   DistributedHash
 */
import { createHash, randomBytes } from 'node:crypto';
import type { Store } from '../store/index.ts';
import type { Clock } from './config.ts';

export interface Subscription {
  callback: string;
  topic: string;
  topic_id: string;
  /** Only ever used to sign notifications; never logged nor answered. */
  secret: string | null;
  lease_seconds: number;
  verified_at: number;
  expires_at: number;
  /** Consecutive failed delivery attempts. */
  failures: number;
  /**
   * The network (caps.ts: IPv4 /24, IPv6 /48) of the address the verification reached, for the
   * per-network cap. Absent in records stored before it was kept: those count by host only.
   */
  network?: string;
}

/** One pending delivery; it sends the topic's content as served when it is sent. */
export interface DeliveryJob {
  /** New for every attempt: the key of the claim that makes one instance send it. */
  id: string;
  topic_id: string;
  callback_key: string;
  due_at: number;
  /**
   * The change it announces (publish.ts: one per transition of the topic's
   * content). A job whose change the subscription has already received is not
   * sent: one left in the store by a process killed after the subscriber's 2xx,
   * or queued again by a re-publish of the same transition. Absent in jobs
   * written before versions existed: those are sent.
   */
  version?: string;
}

/** The last change a subscription received (its 2xx), recorded before its job is removed. */
export interface Delivered {
  version: string;
  at: number;
}

export interface DistributedHash {
  hash: string;
  at: number;
  /**
   * Counts the distributions of this topic (0 for the first hash). Part of the
   * publish claim's key, so each transition is claimable once even when the
   * content flips back and forth (H0→H1→H0→H1).
   */
  generation: number;
}

export const callbackKey = (callback: string): string =>
  createHash('sha256').update(callback).digest('hex').slice(0, 40);
export const newId = (): string => randomBytes(16).toString('base64url');

const INTENT_TTL_SECONDS = 3600;

/** `work` on every item, 100 at a time: in the folder store each is a file (a write, an fsync), and a topic's thousands are not opened all at once. */
export async function inBatches<T, R>(items: T[], work: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = [];
  for (let i = 0; i < items.length; i += 100) results.push(...(await Promise.all(items.slice(i, i + 100).map(work))));
  return results;
}

export class HubState {
  readonly store: Store;
  readonly #now: Clock;

  constructor(store: Store, now: Clock) {
    this.store = store;
    this.#now = now;
  }

  async getSubscription(topicId: string, key: string): Promise<Subscription | null> {
    const sub = await this.store.get<Subscription>(`websub:sub:${topicId}:${key}`);
    return sub && sub.expires_at > this.#now() ? sub : null;
  }

  async putSubscription(sub: Subscription): Promise<void> {
    const ttl = (sub.expires_at - this.#now()) / 1000;
    if (ttl <= 0) return this.removeSubscription(sub.topic_id, callbackKey(sub.callback));
    await this.store.set(`websub:sub:${sub.topic_id}:${callbackKey(sub.callback)}`, sub, { ttlSeconds: ttl });
  }

  async removeSubscription(topicId: string, key: string): Promise<void> {
    await this.store.remove(`websub:sub:${topicId}:${key}`);
    await this.store.remove(`websub:job:${topicId}:${key}`);
    await this.store.remove(`websub:sent:${topicId}:${key}`);
  }

  /** Callback keys of the live subscriptions of a topic (expired ones are left out; the store sweeps their records away). */
  async subscriptionKeys(topicId: string): Promise<string[]> {
    const prefix = `websub:sub:${topicId}:`;
    return (await this.store.keys(prefix)).map((key) => key.slice(prefix.length));
  }

  /** The topic's live subscriptions; `keys` when the caller has just listed them. */
  async activeSubscriptions(topicId: string, keys?: string[]): Promise<Subscription[]> {
    const subs = await inBatches(keys ?? (await this.subscriptionKeys(topicId)), (key) =>
      this.getSubscription(topicId, key),
    );
    return subs.filter((sub) => sub !== null);
  }

  async setIntent(topicId: string, key: string, intentId: string): Promise<void> {
    await this.store.set(`websub:intent:${topicId}:${key}`, intentId, { ttlSeconds: INTENT_TTL_SECONDS });
  }

  async isLatestIntent(topicId: string, key: string, intentId: string): Promise<boolean> {
    return (await this.store.get<string>(`websub:intent:${topicId}:${key}`)) === intentId;
  }

  async putJob(job: DeliveryJob): Promise<void> {
    await this.store.set(`websub:job:${job.topic_id}:${job.callback_key}`, job);
  }

  async getJob(topicId: string, key: string): Promise<DeliveryJob | null> {
    return this.store.get<DeliveryJob>(`websub:job:${topicId}:${key}`);
  }

  /**
   * Removes the job only if it is still the one given: one compare-and-delete in the store, so
   * a newer change's job written under the same key meanwhile stays (a read, then a remove,
   * would delete it if it came in between).
   */
  async finishJob(job: DeliveryJob): Promise<void> {
    await this.store.removeIf(`websub:job:${job.topic_id}:${job.callback_key}`, 'id', job.id);
  }

  /**
   * Records that the subscription received the job's change. It only has to outlive the
   * jobs that could repeat it (a leftover job, a re-publish): `ttlSeconds` is the longest
   * lease; removing the subscription removes it.
   */
  async recordDelivered(job: DeliveryJob, ttlSeconds: number): Promise<void> {
    if (job.version === undefined) return;
    await this.store.set(
      `websub:sent:${job.topic_id}:${job.callback_key}`,
      { version: job.version, at: this.#now() } satisfies Delivered,
      { ttlSeconds },
    );
  }

  /** Whether the subscription has already received the change this job announces. */
  async wasDelivered(job: DeliveryJob): Promise<boolean> {
    if (job.version === undefined) return false;
    return (
      (await this.store.get<Delivered>(`websub:sent:${job.topic_id}:${job.callback_key}`))?.version === job.version
    );
  }

  async allJobs(): Promise<DeliveryJob[]> {
    const keys = await this.store.keys('websub:job:');
    const jobs = await Promise.all(keys.map((key) => this.store.get<DeliveryJob>(key)));
    return jobs.filter((job): job is DeliveryJob => job !== null);
  }

  async lastHash(topicId: string): Promise<DistributedHash | null> {
    return this.store.get<DistributedHash>(`websub:hash:${topicId}`);
  }

  async recordHash(topicId: string, hash: string, generation: number): Promise<void> {
    await this.store.set(`websub:hash:${topicId}`, { hash, at: this.#now(), generation } satisfies DistributedHash);
  }

  /** Drops the jobs of expired subscriptions (the store itself sweeps expired records). */
  async purgeExpired(topicIds: string[]): Promise<void> {
    for (const topicId of topicIds) {
      const live = new Set(await this.subscriptionKeys(topicId));
      const jobPrefix = `websub:job:${topicId}:`;
      for (const key of await this.store.keys(jobPrefix)) {
        if (!live.has(key.slice(jobPrefix.length))) await this.store.remove(key);
      }
    }
  }
}

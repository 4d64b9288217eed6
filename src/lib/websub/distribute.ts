/**
 * Content distribution (W3C WebSub §7): one delivery job per active
 * subscription when a topic's content changes, each sent by exactly one
 * instance (a claim on the job's id), at most `concurrency` at once, each
 * with its own deadline. Outcomes (docs/contract.md, WebSub): 2xx is a
 * success and resets the failure count; 410 ends the subscription at once;
 * anything else (status, 3xx, timeout, connection error) is a failed attempt,
 * retried after the configured delays, and the 3rd consecutive failed
 * attempt ends the subscription with a `hub.mode=denied` notice.
 */
import { createHmac } from 'node:crypto';
import type { ContentSource } from './content.ts';
import type { Clock, HubConfig } from './config.ts';
import type { OutboundOptions } from './outbound.ts';
import { sendOutbound } from './outbound.ts';
import type { Pool } from './pool.ts';
import { callbackKey, inBatches, newId, type DeliveryJob, type HubState, type Subscription } from './subscriptions.ts';
import type { Topic, TopicRegistry } from './topic-registry.ts';
import { sendDenied } from './verify.ts';

export type Log = (message: string) => void;

/** Consecutive failed attempts that end a subscription: the contract's rule (docs/contract.md), not a setting. */
const MAX_FAILURES = 3;

export interface DistributorDeps {
  state: HubState;
  topics: TopicRegistry;
  content: ContentSource;
  config: HubConfig;
  outbound: OutboundOptions;
  pool: Pool;
  now: Clock;
  log: Log;
}

export type DeliveryOutcome = 'delivered' | 'failed' | 'ended' | 'gone' | 'skipped';

export class Distributor {
  readonly #deps: DistributorDeps;
  /** Jobs this process has queued or is sending, so the scheduler does not queue them twice. */
  readonly #inFlight = new Set<string>();

  constructor(deps: DistributorDeps) {
    this.#deps = deps;
  }

  /**
   * Queues one job per active subscription of the topic (first attempt due now) announcing change `version`, and
   * returns those to send now. A subscription that already has a job of this same change (a process killed after it
   * claimed and queued the change, now published again) keeps that job: this publish and the retry sweep then send
   * one job under one claim, never two jobs of one change at once. Sent now only if due (not a retry waiting).
   */
  async enqueueAll(topic: Topic, version: string): Promise<DeliveryJob[]> {
    const { state, now } = this.#deps;
    const keys = (await state.activeSubscriptions(topic.id)).map((sub) => callbackKey(sub.callback));
    const jobs = await inBatches(keys, async (key): Promise<DeliveryJob | null> => {
      const queued = await state.getJob(topic.id, key);
      if (queued?.version === version) return queued.due_at <= now() ? queued : null;
      const job: DeliveryJob = { id: newId(), topic_id: topic.id, callback_key: key, due_at: now(), version };
      await state.putJob(job);
      return job;
    });
    return jobs.filter((job) => job !== null);
  }

  /** Sends the jobs through the pool; resolves when all are done. */
  async run(jobs: DeliveryJob[]): Promise<DeliveryOutcome[]> {
    const fresh = jobs.filter((job) => !this.#inFlight.has(job.id));
    for (const job of fresh) this.#inFlight.add(job.id);
    return Promise.all(
      fresh.map((job) => this.#deps.pool.run(() => this.#deliver(job)).finally(() => this.#inFlight.delete(job.id))),
    );
  }

  async #deliver(job: DeliveryJob): Promise<DeliveryOutcome> {
    const { state, config, topics, log } = this.#deps;
    const claimSeconds = Math.ceil((config.requestTimeoutMs * 3) / 1000) + 30;
    if (!(await state.store.claim(`websub:deliver:${job.id}`, claimSeconds))) return 'skipped';
    const topic = topics.byId(job.topic_id);
    const sub = await state.getSubscription(job.topic_id, job.callback_key);
    // No subscription any more, or this change already reached it: a job left by a process killed between the
    // subscriber's 2xx and the job's removal, or queued again by a re-publish of the same transition (publish.ts).
    if (!topic || !sub || (await state.wasDelivered(job))) {
      await state.finishJob(job);
      return 'skipped';
    }
    const content = await this.#deps.content(topic.path).catch(() => undefined);
    if (!content) {
      // Our side failed, not the subscriber's: try again later without counting it.
      log(`websub: content of ${topic.path} unavailable; delivery postponed`);
      await this.#retryAfter(job, config.retryDelaysSeconds[0]!);
      return 'skipped';
    }
    const headers: Record<string, string> = {
      'content-type': content.contentType,
      link: `<${topics.hub}>; rel="hub", <${topic.url}>; rel="self"`,
    };
    if (sub.secret)
      headers['x-hub-signature'] = `sha256=${createHmac('sha256', sub.secret).update(content.body).digest('hex')}`;
    const result = await sendOutbound(
      { url: sub.callback, method: 'POST', headers, body: content.body },
      this.#deps.outbound,
    );

    if (result.ok && result.status >= 200 && result.status <= 299) {
      // The delivery's record first, at once: a kill after the 2xx and before it is the one window in which the
      // change is sent again after a restart (docs/websub.md); a kill after it leaves a job that is then skipped.
      await state.recordDelivered(job, config.leaseMaxSeconds);
      await state.finishJob(job);
      if (sub.failures > 0) await this.#updateFailures(sub, 0);
      return 'delivered';
    }
    if (result.ok && result.status === 410) {
      await state.removeSubscription(sub.topic_id, job.callback_key);
      log(`websub: ${topic.id} subscription ${job.callback_key.slice(0, 12)} ended: callback answered 410 Gone`);
      return 'gone';
    }
    if (!result.ok && result.error === 'busy') {
      // Too many host lookups in this process: our side again, not counted.
      log(
        `websub: ${topic.id} delivery to ${job.callback_key.slice(0, 12)} postponed (${result.detail ?? result.message})`,
      );
      await this.#retryAfter(job, config.retryDelaysSeconds[0]!);
      return 'skipped';
    }
    const failures = sub.failures + 1;
    // `why` goes to the subscriber (hub.reason); `logged` may name resolved addresses and stays in the log.
    const why = result.ok ? `answered ${result.status}` : `${result.error}: ${result.message}`;
    const logged = result.ok ? why : `${result.error}: ${result.detail ?? result.message}`;
    if (failures >= MAX_FAILURES) {
      await state.removeSubscription(sub.topic_id, job.callback_key);
      log(
        `websub: ${topic.id} subscription ${job.callback_key.slice(0, 12)} ended after ${failures} consecutive failed deliveries (last: ${logged})`,
      );
      await sendDenied(
        sub.callback,
        topic.url,
        `delivery failed ${failures} consecutive times (last: ${why}); subscribe again`,
        this.#deps.outbound,
      ).catch(() => {});
      return 'ended';
    }
    await this.#updateFailures(sub, failures);
    await this.#retryAfter(
      job,
      config.retryDelaysSeconds[Math.min(failures - 1, config.retryDelaysSeconds.length - 1)]!,
    );
    return 'failed';
  }

  /** The same delivery again after `seconds`, as a new job (a new claim). */
  async #retryAfter(job: DeliveryJob, seconds: number): Promise<void> {
    const { state, now } = this.#deps;
    const current = await state.getJob(job.topic_id, job.callback_key);
    // A newer change may have queued its own job meanwhile: that one carries the retry.
    if (!current || current.id === job.id) await state.putJob({ ...job, id: newId(), due_at: now() + seconds * 1000 });
  }

  async #updateFailures(sub: Subscription, failures: number): Promise<void> {
    // Re-read: a re-subscription may have replaced the record while we were sending.
    const current = await this.#deps.state.getSubscription(sub.topic_id, callbackKey(sub.callback));
    if (current && current.verified_at === sub.verified_at)
      await this.#deps.state.putSubscription({ ...current, failures });
  }

  isInFlight(jobId: string): boolean {
    return this.#inFlight.has(jobId);
  }
}

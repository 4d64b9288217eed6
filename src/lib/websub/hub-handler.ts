/**
 * The WebSub hub as one Web handler (Request → Response), shared by the Node
 * entry's route table and the thin Astro route: subscribe / unsubscribe
 * (202, then verification of intent in the background) and publish (202,
 * then distribution of what changed), with body, rate and subscription
 * limits. See docs/websub.md.
 */
import { readLimitedText } from '../http/body.ts';
import { createRateLimits } from '../limits/rate-limits.ts';
import { toResponse } from '../http/answer.ts';
import { preflightAnswer } from '../http/cors.ts';
import { invalidRequest, jsonAnswer, methodNotAllowed, payloadTooLarge, tooManyRequests } from '../http/json.ts';
import type { Store } from '../store/index.ts';
import { HUB_MAX_BODY_BYTES, HUB_USER_AGENT, type Clock, type HubConfig } from './config.ts';
import type { ContentSource } from './content.ts';
import { Distributor, type DeliveryOutcome, type Log } from './distribute.ts';
import type { OutboundOptions } from './outbound.ts';
import { Pool } from './pool.ts';
import { deliverPublished, preparePublish, PUBLISH_CLAIM_SECONDS, type PublishOutcome } from './publish.ts';
import { createHubFormParser, type HubRequest } from './hub-form.ts';
import { isStoreUnavailable, storeUnavailableAnswer } from '../store/unavailable.ts';
import type { Resolver } from './dns.ts';
import { resolveTarget } from './ssrf.ts';
import { addressNetwork, callbackHost, SubscriptionCaps, type CallbackPlace } from './caps.ts';
import { callbackKey, HubState, newId } from './subscriptions.ts';
import { topicRegistry, type Topic } from './topic-registry.ts';
import { sendDenied, verifyIntent } from './verify.ts';

export interface HubOptions {
  site: string;
  store: Store;
  content: ContentSource;
  config: HubConfig;
  now?: Clock;
  log?: Log;
  /** Tests of the SSRF guard swap DNS. */
  resolver?: Resolver;
}

/**
 * Keeps work alive after the answer is sent: a serverless host's `waitUntil`,
 * or the Node server's tracker (finished on SIGTERM). Without one the work
 * simply runs on, as long as the process does.
 */
export type Defer = (work: Promise<unknown>) => void;

export interface Hub {
  /** `defer` receives the verification or distribution the 202 leaves running. */
  handle(request: Request, client: { address: string }, defer?: Defer): Promise<Response>;
  /** Publishes every topic whose content changed since it was last distributed (the post-deploy step). */
  publishChanged(): Promise<PublishOutcome[]>;
  /** One idempotent pass: expired leases purged, due retries sent; resolves when they are sent. */
  sweep(): Promise<SweepOutcome>;
  /** Starts the retry scheduler (a timer: the Node server only; functions call `sweep`). */
  start(): void;
  close(): Promise<void>;
}

interface SweepOutcome {
  /** Jobs that were due; each outcome is one of them ('skipped': another instance holds it). */
  due: number;
  outcomes: DeliveryOutcome[];
}

type Subscribe = Extract<HubRequest, { mode: 'subscribe' }>;
type Unsubscribe = Extract<HubRequest, { mode: 'unsubscribe' }>;

const FORM_TYPE = 'application/x-www-form-urlencoded';
const ALLOWED = ['POST'];

const json = (body: unknown, status: number, headers: Record<string, string> = {}) =>
  toResponse(jsonAnswer(body, { status, headers }));

export function createHub(options: HubOptions): Hub {
  const { config, store } = options;
  const now = options.now ?? Date.now;
  const log = options.log ?? ((message: string) => console.log(message));
  const topics = topicRegistry(options.site);
  const parseForm = createHubFormParser(topics);
  const state = new HubState(store, now);
  // A delivery unanswered after 2 s frees its slot for the next subscriber (pool.ts): silent callbacks delay no one.
  const pool = new Pool(config.concurrency, { lagAfterMs: 2000 });
  const outbound: OutboundOptions = {
    allowLoopback: config.allowLoopback,
    timeoutMs: config.requestTimeoutMs,
    userAgent: HUB_USER_AGENT,
    resolver: options.resolver,
  };
  const distributor = new Distributor({ state, topics, content: options.content, config, outbound, pool, now, log });
  const publishDeps = { state, content: options.content, distributor, log };
  /**
   * Topics whose change another holder had claimed ('elsewhere'), with when to look again: once
   * that claim can have expired. A holder killed between its claim and recording the hash (its
   * outbox unwritten or half written) would otherwise leave the change unannounced: its claim
   * turns away every other instance and its own restart, and nobody publishes again. If the
   * holder finished, the re-check finds the hash recorded ('unchanged').
   */
  const unconfirmed = new Map<string, number>();
  const prepare = async (topic: Topic) => {
    const prepared = await preparePublish(topic, publishDeps);
    if (prepared.outcome?.result === 'elsewhere') {
      if (!unconfirmed.has(topic.id))
        log(
          `websub: the change of ${topic.id} is claimed by another holder; checked again in ${PUBLISH_CLAIM_SECONDS + 1} s`,
        );
      unconfirmed.set(topic.id, now() + (PUBLISH_CLAIM_SECONDS + 1) * 1000);
    }
    return prepared;
  };
  /**
   * The jobs due now: due retries, and first attempts a crash left. Before them the changes
   * claimed elsewhere are checked again (the jobs this writes are due at once, so the same pass
   * sends them) and the jobs of expired leases dropped. Jobs live in the store, so due retries
   * survive restarts; a claim per job makes one instance send it.
   */
  const dueJobs = async () => {
    for (const [topicId, at] of [...unconfirmed]) {
      if (at > now()) continue;
      unconfirmed.delete(topicId);
      try {
        await prepare(topics.byId(topicId)!);
      } catch (error) {
        unconfirmed.set(topicId, at);
        throw error;
      }
    }
    await state.purgeExpired(topics.all.map((topic) => topic.id));
    const at = now();
    return (await state.allJobs()).filter((job) => job.due_at <= at && !distributor.isInFlight(job.id));
  };
  /** The Node server's timer (a function has none between requests: its scheduler calls `sweep`). */
  let timer: NodeJS.Timeout | undefined;
  let sweeping: Promise<void> | undefined;
  /** One timed pass; it does not wait for the deliveries (the pool bounds them), and a pass under way is not started twice. */
  const timedSweep = () =>
    (sweeping ??= dueJobs()
      .then((due) => void distributor.run(due).catch((error: unknown) => log(`websub: retry failed: ${String(error)}`)))
      // Redis out of reach is logged once per outage by the store; the next sweep tries again.
      .catch((error: unknown) => {
        if (!isStoreUnavailable(error)) log(`websub: retry sweep failed: ${String(error)}`);
      })
      .finally(() => (sweeping = undefined)));
  const limits = createRateLimits(() => store, {
    subscribe: { points: config.subscribeRateLimit, windowSeconds: config.rateWindowSeconds },
    publish: { points: config.publishRateLimit, windowSeconds: config.rateWindowSeconds },
  });
  let closed = false;

  const inBackground = (task: () => Promise<unknown>, defer: Defer | undefined) => {
    const work = task().catch((error: unknown) => log(`websub: background task failed: ${String(error)}`));
    defer?.(work);
  };

  const clampLease = (requested: number | undefined) =>
    requested === undefined
      ? config.leaseDefaultSeconds
      : Math.min(config.leaseMaxSeconds, Math.max(config.leaseMinSeconds, requested));

  const topicOf = (url: string) => topics.byUrl(url) as Topic;

  const caps = new SubscriptionCaps(state, config, now);

  /**
   * Verified subscriptions are checked against the caps and stored one at a time per topic in
   * this process: two verifications finishing together would otherwise both see room for one.
   */
  const applying = new Map<string, Promise<unknown>>();
  function oneAtATime<T>(topicId: string, task: () => Promise<T>): Promise<T> {
    const run = (applying.get(topicId) ?? Promise.resolve()).then(task, task);
    // One entry per topic, of which there are three: nothing to remove.
    applying.set(
      topicId,
      run.catch(() => {}),
    );
    return run;
  }

  async function verifyAndApply(
    request: Subscribe | Unsubscribe,
    intentId: string,
    requested: CallbackPlace,
  ): Promise<void> {
    const topic = topicOf(request.topic);
    const key = callbackKey(request.callback);
    const lease = request.mode === 'subscribe' ? clampLease(request.leaseSeconds) : undefined;
    const outcome = await pool.run(() =>
      verifyIntent({ mode: request.mode, callback: request.callback, topic: topic.url, leaseSeconds: lease }, outbound),
    );
    if (!outcome.verified) {
      // A failed verification changes nothing: a new subscription is not made, an old one stays as it was.
      log(`websub: ${request.mode} of ${key.slice(0, 12)} to ${topic.id} not verified (${outcome.detail})`);
      return;
    }
    // Counted where the challenge was answered: DNS may have named another network when the request came.
    const place: CallbackPlace = {
      host: requested.host,
      network: (outcome.address && addressNetwork(outcome.address)) ?? requested.network,
    };
    const refused = await oneAtATime(topic.id, async () => {
      // A later request for the same callback and topic wins, whatever order the verifications finish in.
      if (!(await state.isLatestIntent(topic.id, key, intentId))) return null;
      if (request.mode === 'unsubscribe') {
        await state.removeSubscription(topic.id, key);
        return null;
      }
      const isNew = !(await state.getSubscription(topic.id, key));
      const refusal = isNew ? await caps.refusal(topic.id, place) : null;
      if (refusal) return refusal;
      const at = now();
      await state.putSubscription({
        callback: request.callback,
        topic: topic.url,
        topic_id: topic.id,
        secret: request.secret ?? null,
        lease_seconds: lease!,
        verified_at: at,
        expires_at: at + lease! * 1000,
        failures: 0,
        ...(place.network === undefined ? {} : { network: place.network }),
      });
      if (isNew) caps.added(topic.id, place);
      return null;
    });
    if (refused) {
      log(`websub: subscribe of ${key.slice(0, 12)} to ${topic.id} denied after verification: ${refused.reason}`);
      await sendDenied(request.callback, topic.url, refused.reason, outbound);
    }
  }

  async function readForm(request: Request): Promise<URLSearchParams | Response> {
    const type = request.headers.get('content-type');
    if (type !== null && type.split(';')[0]!.trim().toLowerCase() !== FORM_TYPE) {
      return json({ error: 'unsupported_media_type', message: `Send the hub's parameters as ${FORM_TYPE}.` }, 415);
    }
    const text = await readLimitedText(request, HUB_MAX_BODY_BYTES);
    return text === null ? payloadTooLarge(HUB_MAX_BODY_BYTES) : new URLSearchParams(text);
  }

  async function handle(request: Request, client: { address: string }, defer: Defer | undefined): Promise<Response> {
    if (request.method === 'OPTIONS') return toResponse(preflightAnswer(request.headers, ALLOWED));
    if (request.method !== 'POST') return toResponse(methodNotAllowed([...ALLOWED, 'OPTIONS']));
    const form = await readForm(request);
    if (form instanceof Response) return form;

    const kind = form.get('hub.mode') === 'publish' ? 'publish' : 'subscribe';
    const rate = await limits.hit(kind, client.address);
    if (!rate.ok) {
      return toResponse(
        tooManyRequests(
          `Too many ${kind} requests from this address; try again in ${rate.retryAfterSeconds} s.`,
          rate.retryAfterSeconds,
        ),
      );
    }

    const parsed = parseForm(form);
    if (!parsed.ok) return toResponse(invalidRequest(parsed.issues));
    const hubRequest = parsed.request;

    if (hubRequest.mode === 'publish') {
      for (const url of hubRequest.topics) {
        const topic = topicOf(url);
        inBackground(async () => deliverPublished(await prepare(topic), distributor), defer);
      }
      return json({ status: 'accepted', mode: 'publish', topics: hubRequest.topics }, 202);
    }

    const target = await resolveTarget(hubRequest.callback, {
      allowLoopback: config.allowLoopback,
      resolver: options.resolver,
      timeoutMs: config.requestTimeoutMs,
    });
    if (!target.ok) {
      // The answer never names resolved addresses (target.reason); the log may (target.detail). Only the host is logged: a callback's query may hold a token.
      log(`websub: ${hubRequest.mode} refused: ${target.detail}`);
      return toResponse(
        invalidRequest([
          { code: 'custom', path: ['hub.callback'], message: `hub.callback is refused: ${target.reason}` },
        ]),
      );
    }

    const topic = topicOf(hubRequest.topic);
    const key = callbackKey(hubRequest.callback);
    const place: CallbackPlace = {
      host: callbackHost(hubRequest.callback),
      network: addressNetwork(target.target.addresses[0]!.address),
    };
    const isNew = hubRequest.mode === 'subscribe' && !(await state.getSubscription(topic.id, key));
    const refusal = isNew ? await caps.refusal(topic.id, place) : null;
    if (refusal?.cap === 'topic') {
      inBackground(() => sendDenied(hubRequest.callback, topic.url, refusal.reason, outbound), defer);
    } else if (refusal) {
      // Answered here, with no request to the callback: a host or network at its cap is not sent a denial per attempt.
      return json({ error: 'subscription_limit', message: `hub.callback is refused: ${refusal.reason}.` }, 403);
    } else {
      const intentId = newId();
      await state.setIntent(topic.id, key, intentId);
      inBackground(() => verifyAndApply(hubRequest, intentId, place), defer);
    }
    return json(
      {
        status: 'accepted',
        mode: hubRequest.mode,
        topic: topic.url,
        message: 'The hub will now verify the intent with a GET to the callback.',
      },
      202,
    );
  }

  return {
    handle: async (request, client, defer) => {
      if (closed)
        return json({ error: 'unavailable', message: 'The hub is shutting down.' }, 503, { 'retry-after': '5' });
      try {
        return await handle(request, client, defer);
      } catch (error) {
        // Redis out of reach: a prompt 503 the subscriber can retry, not a 500 (the outage is logged once by the store).
        if (isStoreUnavailable(error)) return toResponse(storeUnavailableAnswer(error));
        throw error;
      }
    },
    async publishChanged() {
      // Every topic's outbox first, then all deliveries at once through the pool: a hanging
      // subscriber of one topic holds one slot, never the other topics' deliveries.
      const prepared = await Promise.all(topics.all.map(prepare));
      return Promise.all(prepared.map((one) => deliverPublished(one, distributor)));
    },
    async sweep() {
      const due = await dueJobs();
      return { due: due.length, outcomes: await distributor.run(due) };
    },
    start() {
      if (timer) return;
      void timedSweep();
      timer = setInterval(timedSweep, config.schedulerIntervalMs);
      timer.unref();
    },
    async close() {
      closed = true;
      clearInterval(timer);
      await sweeping;
    },
  };
}

/**
 * The retry scheduler: at start and then every `schedulerIntervalMs`, it sends
 * the delivery jobs that are due (first attempts left by a crash, retries
 * after a failure) and purges expired subscriptions. Jobs live in the store,
 * so due retries survive restarts; a claim per job makes one instance send it.
 *
 * The timer is the Node server's. A serverless host has no process that lives
 * between requests: its scheduled function calls `sweepAndDeliver`, the same
 * pass, which also waits for the deliveries it started. Both are idempotent:
 * a job sent or claimed by anyone is not sent again.
 */
import { isStoreUnavailable } from '../store/unavailable.ts';
import type { Clock } from './config.ts';
import type { DeliveryOutcome, Distributor, Log } from './distribute.ts';

export interface SweepOutcome {
  /** Jobs that were due; each outcome is one of them ('skipped': another instance holds it). */
  due: number;
  outcomes: DeliveryOutcome[];
}
import type { HubState } from './subscriptions.ts';

export class RetryScheduler {
  readonly #state: HubState;
  readonly #distributor: Distributor;
  readonly #topicIds: string[];
  readonly #intervalMs: number;
  readonly #now: Clock;
  readonly #log: Log;
  /** Run at the start of every pass (the hub's re-check of publishes another holder claimed). */
  readonly #beforePass: () => Promise<void>;
  #timer: NodeJS.Timeout | undefined;
  #sweeping: Promise<void> | undefined;
  #sweeps = 0;

  constructor(options: { state: HubState; distributor: Distributor; topicIds: string[]; intervalMs: number; now: Clock; log: Log; beforePass?: () => Promise<void> }) {
    this.#state = options.state;
    this.#distributor = options.distributor;
    this.#topicIds = options.topicIds;
    this.#intervalMs = options.intervalMs;
    this.#now = options.now;
    this.#log = options.log;
    this.#beforePass = options.beforePass ?? (async () => {});
  }

  start(): void {
    if (this.#timer) return;
    void this.sweep();
    this.#timer = setInterval(() => void this.sweep(), this.#intervalMs);
    this.#timer.unref();
  }

  /** One pass; overlapping calls share the pass under way. */
  sweep(): Promise<void> {
    this.#sweeping ??= this.#sweepOnce()
      // Redis out of reach is logged once per outage by the store; the next sweep tries again.
      .catch((error: unknown) => {
        if (!isStoreUnavailable(error)) this.#log(`websub: retry sweep failed: ${String(error)}`);
      })
      .finally(() => (this.#sweeping = undefined));
    return this.#sweeping;
  }

  async #sweepOnce(): Promise<void> {
    await this.#beforePass();
    const due = await this.#dueJobs(this.#sweeps++ % 5 === 0);
    // Not awaited: a slow delivery must not hold the next sweep; the pool bounds the work.
    if (due.length > 0) void this.#distributor.run(due).catch((error: unknown) => this.#log(`websub: retry failed: ${String(error)}`));
  }

  /** One whole pass for a scheduled function: purge, then send what is due and wait for the answers. */
  async sweepAndDeliver(): Promise<SweepOutcome> {
    await this.#beforePass();
    const due = await this.#dueJobs(true);
    const outcomes = due.length > 0 ? await this.#distributor.run(due) : [];
    return { due: due.length, outcomes };
  }

  async #dueJobs(purge: boolean) {
    if (purge) await this.#state.purgeExpired(this.#topicIds);
    const now = this.#now();
    return (await this.#state.allJobs()).filter((job) => job.due_at <= now && !this.#distributor.isInFlight(job.id));
  }

  async stop(): Promise<void> {
    if (this.#timer) clearInterval(this.#timer);
    this.#timer = undefined;
    await this.#sweeping;
  }
}

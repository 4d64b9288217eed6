/**
 * The retry scheduler: at start and then every `schedulerIntervalMs`, it sends
 * the delivery jobs that are due (first attempts left by a crash, retries
 * after a failure) and purges expired subscriptions. Jobs live in the store,
 * so due retries survive restarts; a claim per job makes one instance send it.
 */
import type { Clock } from './config.ts';
import type { Distributor, Log } from './distribute.ts';
import type { HubState } from './subscriptions.ts';

export class RetryScheduler {
  readonly #state: HubState;
  readonly #distributor: Distributor;
  readonly #topicIds: string[];
  readonly #intervalMs: number;
  readonly #now: Clock;
  readonly #log: Log;
  #timer: NodeJS.Timeout | undefined;
  #sweeping: Promise<void> | undefined;
  #sweeps = 0;

  constructor(options: { state: HubState; distributor: Distributor; topicIds: string[]; intervalMs: number; now: Clock; log: Log }) {
    this.#state = options.state;
    this.#distributor = options.distributor;
    this.#topicIds = options.topicIds;
    this.#intervalMs = options.intervalMs;
    this.#now = options.now;
    this.#log = options.log;
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
      .catch((error: unknown) => this.#log(`websub: retry sweep failed: ${String(error)}`))
      .finally(() => (this.#sweeping = undefined));
    return this.#sweeping;
  }

  async #sweepOnce(): Promise<void> {
    if (this.#sweeps++ % 5 === 0) await this.#state.purgeExpired(this.#topicIds);
    const now = this.#now();
    const due = (await this.#state.allJobs()).filter((job) => job.due_at <= now && !this.#distributor.isInFlight(job.id));
    // Not awaited: a slow delivery must not hold the next sweep; the pool bounds the work.
    if (due.length > 0) void this.#distributor.run(due).catch((error: unknown) => this.#log(`websub: retry failed: ${String(error)}`));
  }

  async stop(): Promise<void> {
    if (this.#timer) clearInterval(this.#timer);
    this.#timer = undefined;
    await this.#sweeping;
  }
}

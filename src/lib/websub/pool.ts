/**
 * Bounded concurrency: at most `size` tasks run at once, the rest wait in
 * order. A thousand subscribers do not open a thousand sockets.
 *
 * A task still running after `lagAfterMs` (a subscriber that does not answer,
 * or answers late) gives its slot to the next one and goes on as a laggard,
 * at most `maxLaggards` of them at once: otherwise 150 callbacks that never
 * answer would hold 64 slots for the whole delivery timeout and delay every
 * healthy subscriber behind them (bench/reliability/slow-subscribers.ts:
 * 1,000 subscribers, 10 % silent, 5 % answering after 30 s). Waiting sockets cost little; the bound
 * on laggards keeps their number finite all the same.
 */
export interface PoolOptions {
  /** After this long a running task stops counting against `size` (never, when absent). */
  lagAfterMs?: number;
  /** Laggards at once; a task past `lagAfterMs` keeps its slot while this many lag. */
  maxLaggards?: number;
}

export class Pool {
  readonly #size: number;
  readonly #lagAfterMs: number | undefined;
  readonly #maxLaggards: number;
  #running = 0;
  #laggards = 0;
  readonly #queue: Array<() => void> = [];
  /** Tasks past lagAfterMs while maxLaggards lagged: each lags when a laggard ends. */
  readonly #dueToLag: Array<() => void> = [];

  constructor(size: number, options: PoolOptions = {}) {
    this.#size = Math.max(1, size);
    this.#lagAfterMs = options.lagAfterMs;
    this.#maxLaggards = options.maxLaggards ?? this.#size * 4;
  }

  run<T>(task: () => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const start = () => {
        this.#running++;
        let holdsSlot = true;
        let lagging = false;
        let done = false;
        const freeSlot = () => {
          if (!holdsSlot) return;
          holdsSlot = false;
          this.#running--;
          this.#queue.shift()?.();
        };
        const lag = () => {
          if (done) return;
          if (this.#laggards >= this.#maxLaggards) {
            this.#dueToLag.push(lag);
            return;
          }
          this.#laggards++;
          lagging = true;
          freeSlot();
        };
        const timer = this.#lagAfterMs === undefined ? undefined : setTimeout(lag, this.#lagAfterMs);
        timer?.unref();
        task()
          .then(resolve, reject)
          .finally(() => {
            done = true;
            clearTimeout(timer);
            freeSlot();
            if (!lagging) return;
            this.#laggards--;
            // The oldest task waiting to lag (skipping those that ended meanwhile) lags now.
            while (this.#laggards < this.#maxLaggards && this.#dueToLag.length > 0) this.#dueToLag.shift()!();
          });
      };
      if (this.#running < this.#size) start();
      else this.#queue.push(start);
    });
  }
}

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
  #running = 0;
  #laggardRoom: number;
  readonly #queue: Array<() => void> = [];
  /** Tasks past lagAfterMs while maxLaggards lagged: each lags when a laggard ends. */
  readonly #dueToLag: Array<() => void> = [];

  constructor(size: number, options: PoolOptions = {}) {
    this.#size = Math.max(1, size);
    this.#lagAfterMs = options.lagAfterMs;
    this.#laggardRoom = options.maxLaggards ?? this.#size * 4;
  }

  run<T>(task: () => Promise<T>): Promise<T> {
    const { promise, resolve, reject } = Promise.withResolvers<T>();
    const start = () => {
      this.#running++;
      let stage: 'holds a slot' | 'lagging' | 'done' = 'holds a slot';
      const lag = () => {
        if (stage !== 'holds a slot') return;
        if (this.#laggardRoom === 0) return void this.#dueToLag.push(lag);
        this.#laggardRoom--;
        stage = 'lagging';
        this.#freeSlot();
      };
      const timer = this.#lagAfterMs === undefined ? undefined : setTimeout(lag, this.#lagAfterMs).unref();
      task()
        .then(resolve, reject)
        .finally(() => {
          clearTimeout(timer);
          if (stage === 'holds a slot') this.#freeSlot();
          else this.#laggardRoom++;
          stage = 'done';
          // The oldest task waiting to lag (skipping those that ended meanwhile) lags now.
          while (this.#laggardRoom > 0 && this.#dueToLag.length > 0) this.#dueToLag.shift()!();
        });
    };
    if (this.#running < this.#size) start();
    else this.#queue.push(start);
    return promise;
  }

  #freeSlot(): void {
    this.#running--;
    this.#queue.shift()?.();
  }
}

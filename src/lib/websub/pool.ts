/**
 * Bounded concurrency: at most `size` tasks run at once, the rest wait in
 * order. A thousand subscribers do not open a thousand sockets, and one slow
 * subscriber holds one slot (until its timeout), never the others.
 */
export class Pool {
  readonly #size: number;
  #running = 0;
  readonly #queue: Array<() => void> = [];
  readonly #idle: Array<() => void> = [];

  constructor(size: number) {
    this.#size = Math.max(1, size);
  }

  run<T>(task: () => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const start = () => {
        this.#running++;
        task()
          .then(resolve, reject)
          .finally(() => {
            this.#running--;
            const next = this.#queue.shift();
            if (next) next();
            else if (this.#running === 0) for (const done of this.#idle.splice(0)) done();
          });
      };
      if (this.#running < this.#size) start();
      else this.#queue.push(start);
    });
  }

  /** Resolves once nothing runs or waits. */
  idle(): Promise<void> {
    if (this.#running === 0 && this.#queue.length === 0) return Promise.resolve();
    return new Promise((resolve) => this.#idle.push(resolve));
  }

  get pending(): number {
    return this.#running + this.#queue.length;
  }
}

/**
 * Bounded concurrency: at most `size` tasks run at once, the rest wait in
 * order. A thousand subscribers do not open a thousand sockets, and one slow
 * subscriber holds one slot (until its timeout), never the others.
 */
export class Pool {
  readonly #size: number;
  #running = 0;
  readonly #queue: Array<() => void> = [];

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
            this.#queue.shift()?.();
          });
      };
      if (this.#running < this.#size) start();
      else this.#queue.push(start);
    });
  }
}

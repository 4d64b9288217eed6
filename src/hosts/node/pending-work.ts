/**
 * Work a process keeps running after it has answered (WebSub verification and
 * fan-out after a 202), tracked so the Node server can finish it before it
 * exits on SIGTERM, the way a serverless host's `waitUntil` keeps a function
 * alive. Settling is bounded: a host kills a process that takes too long.
 */
export class PendingWork {
  readonly #pending = new Set<Promise<unknown>>();

  /** Tracks `work` until it settles (its rejection is the caller's to handle). */
  readonly track = (work: Promise<unknown>): void => {
    const tracked = work.then(
      () => {},
      () => {},
    );
    this.#pending.add(tracked);
    void tracked.finally(() => this.#pending.delete(tracked));
  };

  get size(): number {
    return this.#pending.size;
  }

  /** Resolves when everything tracked (including work added meanwhile) settled, or after `timeoutMs`: true if all settled. */
  async settle(timeoutMs: number): Promise<boolean> {
    const deadline = Date.now() + timeoutMs;
    while (this.#pending.size > 0) {
      const left = deadline - Date.now();
      if (left <= 0) return false;
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<void>((resolve) => (timer = setTimeout(resolve, left)));
      await Promise.race([Promise.all(this.#pending), timeout]);
      clearTimeout(timer);
    }
    return true;
  }
}

/**
 * Where the Node entry registers its tracker for code of the same process that
 * was bundled separately (Astro's routes when API_THROUGH_ASTRO=true): one
 * module instance cannot be shared across the two bundles, a global symbol can.
 */
const REGISTRY = Symbol.for('roofing-reviews.pending-work');

export function registerProcessWork(work: PendingWork): void {
  (globalThis as Record<symbol, unknown>)[REGISTRY] = work;
}

export function processWork(): PendingWork | undefined {
  return (globalThis as Record<symbol, unknown>)[REGISTRY] as PendingWork | undefined;
}

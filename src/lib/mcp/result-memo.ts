/**
 * Answers of the MCP tools and resources, kept after their first computation.
 * The dataset never changes inside a process, so a repeated call (the same
 * tool with the same parsed arguments) needs neither the search nor the
 * JSON.stringify of its text again. Bounded in entries and in characters of
 * serialised text; an answer larger than a quarter of the budget (a
 * reviews_since of everything on a big dataset) is computed each time
 * rather than evicting everything else.
 */
export class ResultMemo<T> {
  /** Map keeps insertion order: the first key is the least recently used. */
  readonly #entries = new Map<string, { value: T; size: number }>();
  #size = 0;
  readonly #maxEntries: number;
  readonly #maxSize: number;

  constructor(maxEntries = 500, maxSize = 16 * 1024 * 1024) {
    this.#maxEntries = maxEntries;
    this.#maxSize = maxSize;
  }

  get(key: string, compute: () => T, sizeOf: (value: T) => number): T {
    const hit = this.peek(key);
    if (hit !== undefined) return hit;
    const value = compute();
    this.set(key, value, sizeOf(value));
    return value;
  }

  /** The kept answer (now the most recently used), or undefined. */
  peek(key: string): T | undefined {
    const hit = this.#entries.get(key);
    if (!hit) return undefined;
    this.#entries.delete(key);
    this.#entries.set(key, hit);
    return hit.value;
  }

  /** Keeps an answer of `size` characters, unless it alone is over a quarter of the budget. */
  set(key: string, value: T, size: number): void {
    if (size > this.#maxSize / 4) return;
    const previous = this.#entries.get(key);
    if (previous) {
      this.#entries.delete(key);
      this.#size -= previous.size;
    }
    this.#entries.set(key, { value, size });
    this.#size += size;
    while (this.#entries.size > this.#maxEntries || this.#size > this.#maxSize) {
      const [oldest, entry] = this.#entries.entries().next().value as [string, { size: number }];
      this.#entries.delete(oldest);
      this.#size -= entry.size;
    }
  }
}

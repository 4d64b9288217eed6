/**
 * A few buffers reused for the answers too large to keep in the answers' LRU
 * (a since page: ~570 KB at 100k reviews, made again on every request). Each
 * one freshly allocated was garbage V8 collects only when the external memory
 * it tracks has grown by tens of MB: a walk of the 104 pages of a 100k dataset
 * left ~40 MB of RSS behind (docs/performance.md, "Large answers in reused
 * buffers"). Taken here, an answer's bytes go back once the caller has written
 * them, and the next large answer is made in the same memory.
 *
 * Only a caller that releases what it takes may use these: the Node entry,
 * which releases a body when its response has closed (src/node/web-bridge.ts).
 * A buffer never released is simply not reused; nothing else depends on it.
 */

/** A buffer on loan: `bytes` is exactly the size asked for; `release` once, after the bytes are written. */
export interface BufferLease {
  bytes: Uint8Array;
  release(): void;
}

/** Buffers kept free at most: a walk is one request at a time; more concurrent walks allocate as before. */
const MAX_FREE_BUFFERS = 4;

/**
 * Largest buffer lent. A since page holds whole days, so one day with more
 * reviews than a page is one larger answer (src/lib/reviews/since.ts): such a
 * rare answer is allocated on its own, not kept for every later request.
 */
export const MAX_LENT_BYTES = 4 * 1024 * 1024;

/** Sizes are rounded up to this, so that pages of slightly different sizes share buffers. */
const GRANULE_BYTES = 64 * 1024;

export class AnswerBuffers {
  readonly #free: ArrayBuffer[] = [];

  /** A buffer of `size` bytes, reused if one is free and large enough; undefined above MAX_LENT_BYTES. */
  take(size: number): BufferLease | undefined {
    if (size > MAX_LENT_BYTES) return undefined;
    // The smallest free buffer that fits, so the large ones stay for large answers.
    let chosen = -1;
    for (let i = 0; i < this.#free.length; i++) {
      const candidate = this.#free[i]!;
      if (candidate.byteLength >= size && (chosen < 0 || candidate.byteLength < this.#free[chosen]!.byteLength)) chosen = i;
    }
    const buffer = chosen >= 0 ? this.#free.splice(chosen, 1)[0]! : new ArrayBuffer(Math.ceil(size / GRANULE_BYTES) * GRANULE_BYTES);
    let released = false;
    return {
      bytes: new Uint8Array(buffer, 0, size),
      release: () => {
        // A second release would lend the same memory twice.
        if (released) return;
        released = true;
        this.#giveBack(buffer);
      },
    };
  }

  /** Buffers free now (tests). */
  get freeCount(): number {
    return this.#free.length;
  }

  #giveBack(buffer: ArrayBuffer): void {
    if (this.#free.length < MAX_FREE_BUFFERS) {
      this.#free.push(buffer);
      return;
    }
    // Full: keep the larger buffers, which fit more answers.
    let smallest = 0;
    for (let i = 1; i < this.#free.length; i++) if (this.#free[i]!.byteLength < this.#free[smallest]!.byteLength) smallest = i;
    if (this.#free[smallest]!.byteLength < buffer.byteLength) this.#free[smallest] = buffer;
  }
}

/**
 * The process-wide count of bytes held for request bodies not yet complete.
 * A body reserves what it declares (Content-Length) before a byte is read, and
 * more as bytes beyond that arrive (chunked bodies); a reservation that does
 * not fit is refused, so a crowd of unfinished bodies cannot grow memory past it.
 */
export class BodyBudget {
  readonly limitBytes: number;
  #held = 0;

  constructor(limitBytes: number) {
    this.limitBytes = limitBytes;
  }

  /** Bytes reserved now by bodies still arriving. */
  get held(): number {
    return this.#held;
  }

  /** Takes `bytes` if they fit under the limit; false (nothing taken) if not. */
  reserve(bytes: number): boolean {
    if (this.#held + bytes > this.limitBytes) return false;
    this.#held += bytes;
    return true;
  }

  release(bytes: number): void {
    this.#held = Math.max(0, this.#held - bytes);
  }
}

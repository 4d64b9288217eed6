/**
 * The answer budget of one POST /mcp: how many bytes its answer may carry and
 * how long its requests may compute, shared by every request of a batch
 * (2025-03-26 sessions may send up to a hundred) and binding a single request
 * alike. A request is refused before its work starts once the budget is
 * spent, and an answer that would overrun it is replaced by a JSON-RPC error,
 * so no POST makes an answer of hundreds of megabytes or holds the process
 * for seconds.
 */

/** Bytes of tool, resource and prompt payload one POST may answer (the JSON around them adds a little). */
export const ANSWER_MAX_BYTES = 4 * 1024 * 1024;
/** Milliseconds the requests of one POST may compute; a request started within it always finishes. */
const ANSWER_MAX_WORK_MS = 1000;
/** The JSON-RPC error of a request over the budget (an implementation-defined server error). */
export const OVER_BUDGET_CODE = -32050;

/** A request the budget refuses: its JSON-RPC error, turned into each SDK's own error by the servers. */
export class OverBudget extends Error {
  readonly code = OVER_BUDGET_CODE;
  readonly data: Record<string, unknown>;
  constructor(message: string, data: Record<string, unknown>) {
    super(message);
    this.data = data;
  }
}

export class AnswerBudget {
  #bytes = 0;
  #ms = 0;
  readonly #maxBytes = ANSWER_MAX_BYTES;
  readonly #maxMs = ANSWER_MAX_WORK_MS;

  /**
   * Runs `work` when budget is left, then counts its answer's bytes; throws
   * OverBudget instead when the budget is spent, or when the answer (known in
   * advance as `knownBytes`, or measured once made) would overrun it. `link`:
   * where the same data can be fetched over HTTP instead, for the error.
   */
  spend<T>(
    what: string,
    work: () => T,
    sizeOf: (value: T) => number,
    options: { knownBytes?: () => number; link?: string } = {},
  ): T {
    if (this.#bytes >= this.#maxBytes || this.#ms >= this.#maxMs) {
      throw new OverBudget(
        `Answer budget spent: one POST may answer at most ${this.#maxBytes} bytes and ${this.#maxMs} ms of work; send ${what} in a request of its own`,
        this.#limits(),
      );
    }
    const known = options.knownBytes?.();
    if (known !== undefined) this.#check(what, known, options.link);
    const started = performance.now();
    const value = work();
    this.#ms += performance.now() - started;
    if (known === undefined) this.#check(what, sizeOf(value), options.link);
    this.#bytes += known ?? sizeOf(value);
    return value;
  }

  #check(what: string, bytes: number, link: string | undefined): void {
    if (this.#bytes + bytes <= this.#maxBytes) return;
    const alone = bytes > this.#maxBytes;
    const message = alone
      ? `${what} is ${bytes} bytes, more than one MCP answer may carry (${this.#maxBytes})` +
        (link ? `: fetch it over HTTP from ${link}` : ': narrow the request')
      : `${what} (${bytes} bytes) does not fit in what is left of this POST's answer budget (${this.#maxBytes - this.#bytes} of ${this.#maxBytes} bytes): send it in a request of its own`;
    throw new OverBudget(message, { ...this.#limits(), size_bytes: bytes, ...(link ? { url: link } : {}) });
  }

  #limits() {
    return { max_bytes: this.#maxBytes, max_work_ms: this.#maxMs };
  }
}

/**
 * A latency histogram that survives a process boundary: microsecond values in
 * log-linear buckets (exact below 1024 µs, then the top 10 significant bits,
 * so within 0.1%), kept sparse and sent as [bucket value, count] pairs, so the
 * results of several load runs merge exactly before percentiles are taken.
 */
export type Buckets = Array<[number, number]>;

export class LatencyHistogram {
  readonly #counts = new Map<number, number>();
  count = 0;
  #sum = 0;
  max = 0;

  /** Records one latency in microseconds. */
  record(us: number): void {
    const value = bucketOf(Math.max(0, Math.round(us)));
    this.#counts.set(value, (this.#counts.get(value) ?? 0) + 1);
    this.count += 1;
    this.#sum += us;
    if (us > this.max) this.max = us;
  }

  reset(): void {
    this.#counts.clear();
    this.count = 0;
    this.#sum = 0;
    this.max = 0;
  }

  get mean(): number {
    return this.count === 0 ? 0 : this.#sum / this.count;
  }

  /** The smallest recorded bucket value with at least `p` percent of the values at or below it. */
  percentile(p: number): number {
    if (this.count === 0) return 0;
    const rank = Math.ceil((p / 100) * this.count);
    let seen = 0;
    for (const [value, count] of [...this.#counts].sort((a, b) => a[0] - b[0])) {
      seen += count;
      if (seen >= rank) return value;
    }
    return this.max;
  }

  toBuckets(): Buckets {
    return [...this.#counts];
  }

  /** Adds another histogram's buckets (from toBuckets) with its sum and max. */
  merge(buckets: Buckets, sum: number, max: number): void {
    for (const [value, count] of buckets) {
      this.#counts.set(value, (this.#counts.get(value) ?? 0) + count);
      this.count += count;
    }
    this.#sum += sum;
    if (max > this.max) this.max = max;
  }
}

function bucketOf(us: number): number {
  if (us < 1024) return us;
  const shift = Math.floor(Math.log2(us)) - 9;
  return Math.floor(us / 2 ** shift) * 2 ** shift;
}

/**
 * The first `k` items of `items` sorted by `compare` with a stable sort (`[...items].sort(compare).slice(0, k)`),
 * in one pass: at 100k reviews an aspect has tens of thousands of candidate examples, of which two are kept.
 */
export function firstInOrder<T>(items: readonly T[], k: number, compare: (a: T, b: T) => number): T[] {
  const best: T[] = [];
  for (const item of items) keepFirst(best, item, k, compare);
  return best;
}

/** One step of firstInOrder: `best` (the first `k` so far) with the next item. */
export function keepFirst<T>(best: T[], item: T, k: number, compare: (a: T, b: T) => number): void {
  // After every kept item that sorts before it or ties with it (a stable sort keeps ties in input order).
  let at = best.length;
  while (at > 0 && compare(best[at - 1], item) > 0) at -= 1;
  if (at >= k) return;
  best.splice(at, 0, item);
  if (best.length > k) best.pop();
}

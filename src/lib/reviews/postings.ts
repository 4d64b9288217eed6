/**
 * Posting sets: which review positions hold a term, stored the cheaper way for
 * their size. A rare term keeps its positions (sorted Int32Array, 4 bytes each);
 * a common one (in more than 1/32 of the reviews) a bitset of n bits, which is
 * then smaller and is combined a word (32 positions) at a time. A query's answer
 * is always a bitset (see Bits), so the search can test any position in O(1),
 * count a range and find the first matches without sorting.
 */

/** One bit per review position; bit p is word p >>> 5, bit p & 31. */
export type Bits = Uint32Array;
export type PostingSet = Int32Array | Bits;

export function emptyBits(n: number): Bits {
  return new Uint32Array((n + 31) >>> 5);
}

export function has(bits: Bits, position: number): boolean {
  return ((bits[position >>> 5]! >>> (position & 31)) & 1) === 1;
}

/** bits |= set. */
export function orInto(bits: Bits, set: PostingSet): void {
  if (set instanceof Uint32Array) {
    for (let i = 0; i < set.length; i++) bits[i]! |= set[i]!;
  } else {
    for (let i = 0; i < set.length; i++) {
      const p = set[i]!;
      bits[p >>> 5]! |= 1 << (p & 31);
    }
  }
}

/** A new bitset of `set` (a copy: answers are never shared with the index). */
export function toBits(set: PostingSet | undefined, n: number): Bits {
  if (set instanceof Uint32Array) return set.slice(); // one copy of n / 8 bytes, no loop
  const bits = emptyBits(n);
  if (set) orInto(bits, set);
  return bits;
}

/** bits &= set. */
export function andInto(bits: Bits, set: PostingSet | undefined, n: number): void {
  if (set === undefined) {
    bits.fill(0);
    return;
  }
  const other = set instanceof Uint32Array ? set : toBits(set, n);
  for (let i = 0; i < bits.length; i++) bits[i]! &= other[i]!;
}

/** How many positions a set holds. */
export function sizeOf(set: PostingSet): number {
  return set instanceof Uint32Array ? countBits(set, 0, set.length * 32) : set.length;
}

/** Set bits in [from, to). */
export function countBits(bits: Bits, from: number, to: number): number {
  if (from >= to) return 0;
  let count = 0;
  const first = from >>> 5;
  const last = (to - 1) >>> 5;
  for (let i = first; i <= last; i++) {
    let word = bits[i]!;
    if (i === first) word &= ~0 << (from & 31);
    if (i === last && (to & 31) !== 0) word &= ~0 >>> (32 - (to & 31));
    count += popcount(word);
  }
  return count;
}

export function popcount(word: number): number {
  word -= (word >>> 1) & 0x55555555;
  word = (word & 0x33333333) + ((word >>> 2) & 0x33333333);
  return (Math.imul((word + (word >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24) as number;
}

/** Calls `visit` for each set bit in [from, to), ascending, until it returns false. */
export function forEachBit(bits: Bits, from: number, to: number, visit: (position: number) => boolean | void): void {
  if (from >= to) return;
  for (let i = from >>> 5, last = (to - 1) >>> 5; i <= last; i++) {
    let word = bits[i]!;
    if (i === from >>> 5) word &= ~0 << (from & 31);
    while (word !== 0) {
      const low = word & -word;
      const position = (i << 5) + (31 - Math.clz32(low));
      if (position >= to) return;
      if (visit(position) === false) return;
      word ^= low;
    }
  }
}

/**
 * Collects one term's positions while the index is built, in ascending
 * position order, each position once; past n/32 positions it switches to a
 * bitset, so even the build never holds more than the final size.
 */
export class PostingBuilder {
  #last = -1;
  #list: number[] = [];
  #bits: Bits | null = null;

  add(position: number, n: number): void {
    if (position === this.#last) return;
    this.#last = position;
    if (this.#bits) {
      this.#bits[position >>> 5]! |= 1 << (position & 31);
      return;
    }
    this.#list.push(position);
    if (this.#list.length > n >>> 5) {
      this.#bits = emptyBits(n);
      for (const p of this.#list) this.#bits[p >>> 5]! |= 1 << (p & 31);
      this.#list = [];
    }
  }

  finish(): PostingSet {
    return this.#bits ?? Int32Array.from(this.#list);
  }
}

/**
 * Seeded, reproducible randomness for the fuzzer. Case `index` of run `seed` always draws the same
 * numbers, whatever ran before it, so one failing case can be replayed on its own
 * (`npm run fuzz -- --seed S --index I`).
 * @module
 */

/** A small deterministic generator (sfc32) with the helpers the mutators need. */
export interface Rng {
  /** Uniform float in [0, 1). */
  next(): number;
  /** Uniform integer in [0, n) (n ≥ 1). */
  int(n: number): number;
  /** Uniform integer in [lo, hi] inclusive. */
  range(lo: number, hi: number): number;
  /** True with probability p. */
  chance(p: number): boolean;
  /** One element of a non-empty array. */
  pick<T>(items: readonly T[]): T;
  /** One element chosen with the given weights (same length, sum > 0). */
  weighted<T>(items: readonly T[], weights: readonly number[]): T;
  /** `length` random bytes. */
  bytes(length: number): Uint8Array;
  /** A size biased towards small values, at most `max` (log-uniform). */
  size(max: number): number;
}

/** Mixes (seed, index) into four 32-bit words (splitmix32 steps). */
function seedWords(seed: number, index: number): [number, number, number, number] {
  let state =
    (Math.imul(seed >>> 0, 0x9e3779b1) ^ Math.imul(index >>> 0, 0x85ebca6b) ^ Math.floor(index / 2 ** 32)) >>> 0;
  const words: number[] = [];
  for (let i = 0; i < 4; i++) {
    state = (state + 0x9e3779b9) >>> 0;
    let z = state;
    z = Math.imul(z ^ (z >>> 16), 0x21f0aaad) >>> 0;
    z = Math.imul(z ^ (z >>> 15), 0x735a2d97) >>> 0;
    words.push((z ^ (z >>> 15)) >>> 0);
  }
  return words as [number, number, number, number];
}

/**
 * Creates the generator of one fuzz case.
 * @example
 * const rng = createRng(42, 7);
 * rng.int(10); // always the same number for (42, 7)
 */
export function createRng(seed: number, index: number): Rng {
  let [a, b, c, d] = seedWords(seed, index);
  const next = (): number => {
    const t = (((a + b) | 0) + d) | 0;
    d = (d + 1) | 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) | 0;
    c = (c << 21) | (c >>> 11);
    c = (c + t) | 0;
    return (t >>> 0) / 4294967296;
  };
  for (let i = 0; i < 12; i++) next();
  const int = (n: number): number => Math.floor(next() * n);
  return {
    next,
    int,
    range: (lo, hi) => lo + int(hi - lo + 1),
    chance: (p) => next() < p,
    pick: (items) => {
      if (items.length === 0) throw new Error('pick from an empty list');
      return items[int(items.length)]!;
    },
    weighted: (items, weights) => {
      const total = weights.reduce((sum, w) => sum + w, 0);
      let roll = next() * total;
      for (let i = 0; i < items.length; i++) {
        roll -= weights[i]!;
        if (roll < 0) return items[i]!;
      }
      return items[items.length - 1]!;
    },
    bytes: (length) => {
      const out = new Uint8Array(length);
      for (let i = 0; i < length; i++) out[i] = int(256);
      return out;
    },
    size: (max) => Math.min(max, Math.floor(Math.exp(next() * Math.log(max + 1)))),
  };
}

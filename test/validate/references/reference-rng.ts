/**
 * A small PRNG of the tests' own (splitmix32 seeding mulberry32), deliberately unrelated to
 * the engine's seeded streams: the reference simulations share no code with what they check.
 */
export class ReferenceRng {
  private state: number;
  constructor(seed: number) {
    let s = (seed ^ 0x9e3779b9) >>> 0;
    s = Math.imul(s ^ (s >>> 16), 0x21f0aaad);
    s = Math.imul(s ^ (s >>> 15), 0x735a2d97);
    this.state = (s ^ (s >>> 15)) >>> 0;
  }
  /** Uniform on [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
  /** Uniform integer in 0..n−1. */
  int(n: number): number {
    return Math.floor(this.next() * n);
  }
  /** Exponential with the given rate. */
  exponential(rate: number): number {
    return -Math.log(1 - this.next()) / rate;
  }
}

/** Mean and sample standard deviation. */
export function meanSd(xs: readonly number[]): { mean: number; sd: number; se: number } {
  const mean = xs.reduce((a, b) => a + b, 0) / xs.length;
  const sd = Math.sqrt(xs.reduce((a, x) => a + (x - mean) ** 2, 0) / (xs.length - 1));
  return { mean, sd, se: sd / Math.sqrt(xs.length) };
}

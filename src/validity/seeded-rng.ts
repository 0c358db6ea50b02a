import seedrandom from 'seedrandom';
import { SeededStream } from '../core/index.ts';

/** A uniform [0, 1) function drawn from a seeded stream named `seed`. */
export function seededUniform(seed: string): () => number {
  const s = new SeededStream(seed);
  return () => s.next();
}

/**
 * A uniform [0, 1) function with 32-bit resolution (one step of seedrandom's Alea per draw,
 * half the cost of {@link seededUniform}'s 53-bit doubles), seeded by `seed`. For drawing
 * indices below 2^20 or so (bootstrap resamples, split halves), where 32 bits are ample.
 */
export function seededIndexUniform(seed: string): () => number {
  return seedrandom.alea(seed);
}

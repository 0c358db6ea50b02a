import { SeededStream } from '../core/index.ts';

/** A uniform [0, 1) function drawn from a seeded stream named `seed`. */
export function seededUniform(seed: string): () => number {
  const s = new SeededStream(seed);
  return () => s.next();
}

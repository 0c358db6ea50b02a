import { ConfigError } from '../core/index.ts';
import { MAX_ATTEMPTS } from './case-plan.ts';

/**
 * The one seed rule of the battery: run k (0-based, counting every run a case makes, whether
 * it qualifies or not) of any case under base seed s uses seed s·10^6 + k. A case makes at
 * most 10^6 runs, so two base seeds never share a run; every case starts at the same seed
 * (runs of different cases differ in world or parameters).
 */
export function replicateSeed(base: number, k: number): number {
  if (!Number.isSafeInteger(base) || base < 0)
    throw new ConfigError(`the validation base seed must be a non-negative integer, got ${base}`);
  if (!(Number.isInteger(k) && k >= 0 && k < MAX_ATTEMPTS))
    throw new RangeError(`run ${k} of a validation case is outside 0..${MAX_ATTEMPTS - 1}`);
  const seed = base * MAX_ATTEMPTS + k;
  if (!Number.isSafeInteger(seed))
    throw new ConfigError(`the validation base seed ${base} is too large`, {
      hint: `use a base seed below ${Math.floor(Number.MAX_SAFE_INTEGER / MAX_ATTEMPTS)}`,
    });
  return seed;
}

import type { ReferenceRng } from './reference-rng.ts';

/**
 * The Markovian SIR on a well-mixed population by Gillespie's direct method: infections at
 * rate a·S·I/(n−1), recoveries at rate γ·I. Returns the infected count at t = 0, 1, …, tEnd
 * (the state after every event up to that time).
 */
export function sirGillespie(
  n: number,
  a: number,
  gamma: number,
  initial: number,
  tEnd: number,
  rng: ReferenceRng,
): number[] {
  let s = n - initial;
  let i = initial;
  let t = 0;
  const out = [i];
  while (out.length <= tEnd) {
    const inf = (a * s * i) / (n - 1);
    const total = inf + gamma * i;
    const next = total > 0 ? t + rng.exponential(total) : Number.POSITIVE_INFINITY;
    while (out.length <= tEnd && out.length <= next) out.push(i);
    if (total === 0) break;
    t = next;
    if (rng.next() * total < inf) {
      s--;
      i++;
    } else i--;
  }
  return out;
}

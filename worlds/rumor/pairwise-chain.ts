/** The two classic pairwise rumour models. */
export type PairwiseModel = 'maki-thompson' | 'daley-kendall';

/** Probability of an event, and mean, variance and skewness (third standardized moment) of a count given it. */
export interface Moments {
  p: number;
  mean: number;
  variance: number;
  skewness: number;
}

/**
 * Exact law of the number X of agents who never hear a rumour, in a population of n started
 * by one spreader (n − 1 ignorants), from the model's jump chain on (ignorants i, spreaders s),
 * stiflers r = n − i − s:
 *
 * - Maki & Thompson (1973): a spreader calls a uniformly random other agent; an ignorant
 *   becomes a spreader (i−1, s+1) with probability i/(n−1); otherwise the caller stops (s−1).
 * - Daley & Kendall (1965): pairs meet at equal rates; spreader–ignorant (rate ∝ i·s) makes a
 *   spreader, spreader–spreader (∝ s(s−1)/2) stops both (s−2), spreader–stifler (∝ s·r) stops
 *   the spreader (s−1).
 *
 * Returned: the probability that X ≤ `most` (default n: always) and the mean, variance and
 * skewness of X given that (Daley–Kendall dies out at once with probability about 1/(2n),
 * when the first two spreaders meet: a large-n case conditions it away). The final count does
 * not depend on the time between jumps, so the jump chain decides it. Computed by first-step
 * analysis of E[X^j·1{X ≤ most} | i, s], j = 0..3, rows of increasing i (an (i−1)-row and the
 * current row in memory): O(n²) time, O(n) memory.
 */
export function pairwiseChainMoments(n: number, model: PairwiseModel, most = n): Moments {
  if (!Number.isInteger(n) || n < 2) throw new RangeError(`population must be an integer ≥ 2, got ${n}`);
  // E[X^j·1{X ≤ most}] for j = 0..3, of row i−1 (p*) and row i (c*), indexed by s
  let [p0, p1, p2, p3] = [0, 1, 2, 3].map(() => new Float64Array(n + 2));
  let [c0, c1, c2, c3] = [0, 1, 2, 3].map(() => new Float64Array(n + 2));
  for (let i = 0; i <= n - 1; i++) {
    const counts = i <= most ? 1 : 0;
    [c0[0], c1[0], c2[0], c3[0]] = [counts, counts * i, counts * i * i, counts * i * i * i];
    for (let s = 1; s <= n - i; s++) {
      const r = n - i - s;
      let pI: number;
      let pDown: number;
      let pPair = 0;
      if (model === 'maki-thompson') {
        pI = i / (n - 1);
        pDown = (s - 1 + r) / (n - 1);
      } else {
        const total = i + (s - 1) / 2 + r;
        pI = i / total;
        pPair = (s - 1) / 2 / total;
        pDown = r / total;
      }
      // s − 2 only when a pair can meet (s ≥ 2); s + 1 of row i − 1 only when i > 0
      const b = s >= 2 ? s - 2 : 0;
      c0[s] = pDown * c0[s - 1] + pI * p0[s + 1] + pPair * c0[b];
      c1[s] = pDown * c1[s - 1] + pI * p1[s + 1] + pPair * c1[b];
      c2[s] = pDown * c2[s - 1] + pI * p2[s + 1] + pPair * c2[b];
      c3[s] = pDown * c3[s - 1] + pI * p3[s + 1] + pPair * c3[b];
    }
    [p0, c0] = [c0, p0];
    [p1, c1] = [c1, p1];
    [p2, c2] = [c2, p2];
    [p3, c3] = [c3, p3];
  }
  // the last row swapped into prev: i = n − 1, s = 1
  const p = p0[1];
  const [e1, e2, e3] = [p1[1] / p, p2[1] / p, p3[1] / p];
  const variance = Math.max(0, e2 - e1 * e1);
  // central third moment from raw moments: relative rounding ~ε·(e3/σ³), far below the values used
  const third = e3 - 3 * e1 * e2 + 2 * e1 ** 3;
  return { p, mean: e1, variance, skewness: variance > 0 ? third / variance ** 1.5 : 0 };
}

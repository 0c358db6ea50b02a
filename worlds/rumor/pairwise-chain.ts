/** The two classic pairwise rumour models. */
export type PairwiseModel = 'maki-thompson' | 'daley-kendall';

/** Mean and variance of a count. */
export interface Moments {
  mean: number;
  variance: number;
}

/**
 * Exact mean and variance of the number of agents who never hear a rumour, in a population
 * of n started by one spreader (n − 1 ignorants), from the model's jump chain on
 * (ignorants i, spreaders s), stiflers r = n − i − s:
 *
 * - Maki & Thompson (1973): a spreader calls a uniformly random other agent; an ignorant
 *   becomes a spreader (i−1, s+1) with probability i/(n−1); otherwise the caller stops (s−1).
 * - Daley & Kendall (1965): pairs meet at equal rates; spreader–ignorant (rate ∝ i·s) makes a
 *   spreader, spreader–spreader (∝ s(s−1)/2) stops both (s−2), spreader–stifler (∝ s·r) stops
 *   the spreader (s−1).
 *
 * The final count does not depend on the time between jumps, so the jump chain decides it.
 * Computed by first-step analysis: E[X | i, s] and E[X² | i, s] from the states one jump on,
 * rows of increasing i (an (i−1)-row and the current row in memory): O(n²) time, O(n) memory.
 */
export function pairwiseChainMoments(n: number, model: PairwiseModel): Moments {
  if (!Number.isInteger(n) || n < 2) throw new RangeError(`population must be an integer ≥ 2, got ${n}`);
  let prev1 = new Float64Array(n + 2);
  let prev2 = new Float64Array(n + 2);
  let cur1 = new Float64Array(n + 2);
  let cur2 = new Float64Array(n + 2);
  for (let i = 0; i <= n - 1; i++) {
    cur1[0] = i;
    cur2[0] = i * i;
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
      let m1 = pDown * cur1[s - 1];
      let m2 = pDown * cur2[s - 1];
      if (pI > 0) {
        m1 += pI * prev1[s + 1];
        m2 += pI * prev2[s + 1];
      }
      if (pPair > 0) {
        m1 += pPair * cur1[s - 2];
        m2 += pPair * cur2[s - 2];
      }
      cur1[s] = m1;
      cur2[s] = m2;
    }
    [prev1, cur1] = [cur1, prev1];
    [prev2, cur2] = [cur2, prev2];
  }
  // the last row swapped into prev: i = n − 1, s = 1
  const mean = prev1[1];
  return { mean, variance: Math.max(0, prev2[1] - mean * mean) };
}

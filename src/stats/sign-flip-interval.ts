/** Options of {@link signFlipInterval}. */
export interface SignFlipOptions {
  /** Two-sided confidence level, default 0.95. */
  level?: number;
  /** Uniform [0, 1) stream for the Monte Carlo sign flips; pass a seeded stream (never Math.random). */
  rng: () => number;
  /** Random sign vectors drawn when the flips are not enumerated (default 9999). */
  draws?: number;
  /** Enumerate all 2^n sign vectors up to this many pairs (default 16, 65,536 vectors). */
  exactUpTo?: number;
}

/** Result of {@link signFlipInterval}. */
export interface SignFlipInterval {
  /** Mean of the differences. */
  estimate: number;
  /** Bounds; −Inf / Inf when too few pairs reach the level (n ≤ 5 at 0.95 when enumerated). */
  lo: number;
  hi: number;
  /** Two-sided sign-flip p-value of "no effect" (mean difference 0). */
  p: number;
  /** Whether every sign vector was enumerated (else `draws` random ones). */
  exact: boolean;
  /** Sign vectors used besides the identity: 2^n − 1 when exact, else `draws`. */
  flips: number;
}

/**
 * The non-empty subsets F of the pairs as their means m_F, each subset once: all 2^n − 1
 * when `exact`, else `draws` random subsets (each pair in with probability ½), where the
 * empty subset, drawn with probability 2^−n, stands as NaN.
 */
function subsetMeans(d: readonly number[], exact: boolean, draws: number, rng: () => number): Float64Array {
  const n = d.length;
  if (exact) {
    // each subset summed afresh in pair order (an incremental Gray-code sum would leave
    // rounding residue, so that a subset of zero differences might not sum to exactly 0)
    const out = new Float64Array(2 ** n - 1);
    for (let k = 1; k < 2 ** n; k++) {
      let sum = 0;
      let size = 0;
      for (let i = 0; i < n; i++)
        if (k & (1 << i)) {
          sum += d[i];
          size++;
        }
      out[k - 1] = sum / size;
    }
    return out;
  }
  const out = new Float64Array(draws);
  for (let b = 0; b < draws; b++) {
    let sum = 0;
    let size = 0;
    for (let i = 0; i < n; i++)
      if (rng() < 0.5) {
        sum += d[i];
        size++;
      }
    out[b] = size === 0 ? Number.NaN : sum / size;
  }
  return out;
}

/**
 * Sign-flip permutation interval for the mean of paired differences, by inverting the
 * one-sample randomization test (Fisher 1935): under "the differences are symmetric about
 * δ", flipping the signs of d_i − δ leaves their distribution unchanged. The flips that
 * give a sum at least the observed one are exactly the subsets F of pairs with mean
 * m_F ≤ δ, so the interval runs between order statistics of the subset means (Hartigan 1969,
 * "Using subsample values as typical values", JASA 64:1303): with the identity counted, the
 * one-sided p-value at δ is (1 + #{F: m_F ≤ δ}) / (flips + 1), and the bounds are the j-th
 * smallest and j-th largest m_F, j the least count with p > (1 − level)/2. Enumerated
 * (exact, coverage ≥ level for any symmetric distribution) up to `exactUpTo` pairs;
 * beyond, `draws` seeded random sign vectors (Monte Carlo). An empty sample gives NaN.
 */
export function signFlipInterval(d: readonly number[], opts: SignFlipOptions): SignFlipInterval {
  const level = opts.level ?? 0.95;
  const n = d.length;
  const estimate = n === 0 ? Number.NaN : d.reduce((a, b) => a + b, 0) / n;
  const exact = n <= Math.min(opts.exactUpTo ?? 16, 24);
  const flips = exact ? 2 ** n - 1 : (opts.draws ?? 9999);
  if (n === 0 || !Number.isFinite(estimate))
    return { estimate, lo: Number.NaN, hi: Number.NaN, p: Number.NaN, exact, flips };
  const means = subsetMeans(d, exact, flips, opts.rng);
  // the empty subset's statistic equals the observed one in both tails: it counts as a flip
  // at or beyond δ whatever δ is, so it sorts first for the lower bound and last for the upper
  const low = Float64Array.from(means, (m) => (Number.isNaN(m) ? Number.NEGATIVE_INFINITY : m)).sort();
  const high = Float64Array.from(means, (m) => (Number.isNaN(m) ? Number.POSITIVE_INFINITY : m)).sort();
  const j = Math.floor(((1 - level) / 2) * (flips + 1) - 1) + 1;
  const lo = j < 1 ? Number.NEGATIVE_INFINITY : low[j - 1];
  const hi = j < 1 ? Number.POSITIVE_INFINITY : high[flips - j];
  const atMost = 1 + countWhere(low, (m) => m <= 0);
  const atLeast = 1 + countWhere(high, (m) => m >= 0);
  const p = Math.min(1, (2 * Math.min(atMost, atLeast)) / (flips + 1));
  return { estimate, lo, hi, p, exact, flips };
}

function countWhere(xs: Float64Array, pred: (x: number) => boolean): number {
  let c = 0;
  for (const x of xs) if (pred(x)) c++;
  return c;
}

import { binomialCdf, binomialQuantile, normalCdf, normalQuantile } from '../stats/index.ts';
import type { CaseDesign } from './validation-case.ts';

/** The power every case must reach at its stated deviation (full battery). */
export const TARGET_POWER = 0.95;
/** The share of a case's α spent on "too few runs qualified" when runs can fail to qualify. */
export const SHORTFALL_SHARE = 0.05;
/** Largest skewness of a mean of runs the planner trusts to the normal approximation (with its Cornish–Fisher term). */
export const MAX_MEAN_SKEWNESS = 0.25;
/** Most runs any case may make: the seed rule leaves 10^6 seeds per base seed. */
export const MAX_ATTEMPTS = 1_000_000;

/** How many runs a case makes and where its band lies, fixed before any run. */
export interface CasePlan {
  /** The case's false-failure probability (its share of the battery's). */
  alpha: number;
  /** α of the statistic's band (α less the shortfall share when runs may not qualify). */
  alphaBand: number;
  /** Qualified replicates the verdict needs. */
  replicates: number;
  /** Most runs allowed: a correct model gets `replicates` qualified ones with probability ≥ 1 − α·5%. */
  attempts: number;
  /** Two-sided normal critical value of `alphaBand` (`mean` tests). */
  z: number;
  /** Band of the statistic under the design: `mean` and `exact` in values, `proportion` in counts. */
  lo: number;
  hi: number;
  /** Probability of failing under the design's deviation, with `replicates`. */
  power: number;
  /** Replicates the deviation needs for 95% power (may exceed what the case's budget allows). */
  needed: number;
}

/**
 * Offsets of a `mean` band from the prediction, for a mean of r runs with standard error `se`:
 * bias + z·se on each side, both moved by the Cornish–Fisher term se·g(z² − 1)/6 of the
 * mean's skewness g = skewness/√r when the design gives one (skewed per-run laws: small
 * outbreaks, small cascades).
 */
export function meanBandOffsets(
  d: CaseDesign,
  z: number,
  se: number,
  r: number,
): { below: number; above: number } {
  const c = (((d.skewness ?? 0) / Math.sqrt(r)) * (z * z - 1)) / 6;
  return { below: d.bias + se * (z - c), above: d.bias + se * (z + c) };
}

/**
 * Power of the `mean` test at the deviation, taking the worst case of the prediction's bias
 * (the true mean under the model may sit `bias` away from `predicted`, toward the deviation).
 */
export function meanPower(
  d: CaseDesign,
  z: number,
  r: number,
  shift = d.deviation.mean - d.predicted,
): number {
  // the normal approximation with its skewness term needs a mean whose skewness is small
  if (Math.abs(d.skewness ?? 0) / Math.sqrt(r) > MAX_MEAN_SKEWNESS) return 0;
  const eff = Math.max(0, Math.abs(shift) - d.bias);
  const { below, above } = meanBandOffsets(d, z, d.sd / Math.sqrt(r), r);
  const [near, far] = shift >= 0 ? [above, below] : [below, above];
  const s = d.deviation.sd / Math.sqrt(r);
  if (s === 0) return eff > near ? 1 : 0;
  return normalCdf((eff - near) / s) + normalCdf((-eff - far) / s);
}

/** Acceptance counts [lo, hi] of `proportion` r replicates: each tail ≤ α/2 anywhere in P ± bias. */
export function proportionBand(d: CaseDesign, alpha: number, r: number): { lo: number; hi: number } {
  const up = Math.min(1, d.predicted + d.bias);
  const down = Math.max(0, d.predicted - d.bias);
  const hi = binomialQuantile(1 - alpha / 2, r, up);
  // smallest lo with P(X < lo) ≤ α/2 under the lowest probability the model allows
  let lo = binomialQuantile(alpha / 2, r, down);
  if (binomialCdf(lo, r, down) <= alpha / 2) lo++;
  return { lo, hi };
}

/** Power of the `proportion` test, the deviation's probability moved `bias` toward the prediction. */
export function proportionPower(d: CaseDesign, alpha: number, r: number, p1 = d.deviation.mean): number {
  const shift = p1 - d.predicted;
  const eff = Math.sign(shift) * Math.max(0, Math.abs(shift) - d.bias);
  const p = Math.min(1, Math.max(0, d.predicted + eff));
  const { lo, hi } = proportionBand(d, alpha, r);
  return 1 - binomialCdf(hi, r, p) + binomialCdf(lo - 1, r, p);
}

/** Smallest r in 1..cap whose power reaches the target (cap + 1 when none does). */
function smallestReplicates(power: (r: number) => number, cap: number): number {
  let hi = 1;
  while (hi <= cap && power(hi) < TARGET_POWER) hi *= 2;
  if (hi > cap) return power(cap) >= TARGET_POWER ? cap : cap + 1;
  let lo = Math.floor(hi / 2) + 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (power(mid) >= TARGET_POWER) hi = mid;
    else lo = mid + 1;
  }
  return hi;
}

/** Runs needed so that at least r qualify with probability ≥ 1 − `alpha` when each does with probability q. */
export function attemptsFor(r: number, q: number, alpha: number): number {
  if (q >= 1) return r;
  if (!(q > 0)) return MAX_ATTEMPTS;
  let a = r;
  while (a < MAX_ATTEMPTS && binomialCdf(r - 1, a, q) > alpha) a = Math.min(MAX_ATTEMPTS, a * 2);
  let lo = r;
  let hi = a;
  while (lo < hi) {
    const mid = Math.floor((lo + hi) / 2);
    if (binomialCdf(r - 1, mid, q) <= alpha) hi = mid;
    else lo = mid + 1;
  }
  return hi;
}

function checkDesign(d: CaseDesign): void {
  const finite = [d.predicted, d.sd, d.bias, d.deviation.mean, d.deviation.sd, d.qualify, d.skewness ?? 0];
  if (!finite.every(Number.isFinite) || d.sd < 0 || d.bias < 0 || d.deviation.sd < 0)
    throw new RangeError(`a case design needs finite, non-negative sd and bias: ${JSON.stringify(d)}`);
  if (d.test === 'proportion' && !(d.predicted >= 0 && d.predicted <= 1))
    throw new RangeError(`a proportion design predicts a probability, got ${d.predicted}`);
}

/**
 * Plans a case: the replicates its deviation needs for 95% power at the case's α (at least
 * `min`, at most `cap`), the runs allowed, and the band. `exact` tests are deterministic:
 * power 1 when the deviation exceeds the bound, and `cap` replicates.
 */
export function planCase(d: CaseDesign, alpha: number, cap: number, min = 1): CasePlan {
  checkDesign(d);
  const alphaBand = d.qualify < 1 ? alpha * (1 - SHORTFALL_SHARE) : alpha;
  const z = normalQuantile(1 - alphaBand / 2);
  const plan = (
    needed: number,
    power: (r: number) => number,
    band: (r: number) => { lo: number; hi: number },
  ) => {
    // a skewed per-run law needs enough runs for the normal approximation, whatever the budget
    const skewFloor = Math.ceil(((d.skewness ?? 0) / MAX_MEAN_SKEWNESS) ** 2);
    const replicates = Math.max(min, skewFloor, Math.min(cap, needed));
    const attempts = attemptsFor(replicates, d.qualify, alpha * SHORTFALL_SHARE);
    return {
      alpha,
      alphaBand,
      replicates,
      attempts,
      z,
      ...band(replicates),
      power: power(replicates),
      needed,
    };
  };
  if (d.test === 'exact') {
    const detects = Math.abs(d.deviation.mean - d.predicted) > d.bias;
    return plan(
      cap,
      () => (detects ? 1 : 0),
      () => ({ lo: d.predicted - d.bias, hi: d.predicted + d.bias }),
    );
  }
  if (d.test === 'proportion') {
    const power = (r: number) => proportionPower(d, alphaBand, r);
    return plan(smallestReplicates(power, Math.max(cap, 4096)), power, (r) =>
      proportionBand(d, alphaBand, r),
    );
  }
  const power = (r: number) => meanPower(d, z, r);
  const band = (r: number) => {
    const o = meanBandOffsets(d, z, d.sd / Math.sqrt(r), r);
    return { lo: d.predicted - o.below, hi: d.predicted + o.above };
  };
  return plan(smallestReplicates(power, Math.max(cap, 1 << 20)), power, band);
}

import { type CasePlan, meanBandOffsets } from './case-plan.ts';
import type { CaseDesign, Replicate } from './validation-case.ts';

/** A case's verdict on its replicates. */
export interface CaseVerdict {
  /** The prediction (the mean of the replicates' own predictions where they give them). */
  predicted: number;
  /** The statistic: mean of the values (`mean`), frequency of 1s (`proportion`), largest |value − prediction| (`exact`). */
  observed: number;
  /** The acceptance band of the statistic. */
  lo: number;
  hi: number;
  pass: boolean;
  /** Why it failed, when it did. */
  reason?: string;
}

function fail(predicted: number, observed: number, lo: number, hi: number, reason: string): CaseVerdict {
  return { predicted, observed, lo, hi, pass: false, reason };
}

function judgeMean(d: CaseDesign, plan: CasePlan, reps: readonly Replicate[]): CaseVerdict {
  const r = reps.length;
  let sum = 0;
  let predictedSum = 0;
  let varianceSum = 0;
  for (const x of reps) {
    sum += x.value;
    predictedSum += x.predicted ?? d.predicted;
    varianceSum += x.variance ?? d.sd * d.sd;
  }
  const mean = sum / r;
  // the design's own value when no replicate brings its own (no rounding residue)
  const predicted = reps.some((x) => x.predicted !== undefined) ? predictedSum / r : d.predicted;
  const variance = varianceSum / (r * r);
  const { below, above } = meanBandOffsets(d, plan.z, Math.sqrt(variance), r);
  const lo = predicted - below;
  const hi = predicted + above;
  if (!(Number.isFinite(lo) && Number.isFinite(hi)))
    return fail(predicted, mean, Number.NaN, Number.NaN, 'the band is not finite');
  const pass = mean >= lo && mean <= hi;
  return {
    predicted,
    observed: mean,
    lo,
    hi,
    pass,
    ...(pass ? {} : { reason: 'the mean lies outside the band' }),
  };
}

function judgeProportion(d: CaseDesign, plan: CasePlan, reps: readonly Replicate[]): CaseVerdict {
  const r = reps.length;
  const lo = plan.lo / r;
  const hi = plan.hi / r;
  if (reps.some((x) => x.value !== 0 && x.value !== 1))
    return fail(d.predicted, Number.NaN, lo, hi, 'a proportion replicate is neither 0 nor 1');
  const ones = reps.reduce((s, x) => s + x.value, 0);
  const pass = ones >= plan.lo && ones <= plan.hi;
  return {
    predicted: d.predicted,
    observed: ones / r,
    lo,
    hi,
    pass,
    ...(pass ? {} : { reason: `${ones} of ${r} outside the binomial band ${plan.lo}..${plan.hi}` }),
  };
}

function judgeExact(d: CaseDesign, reps: readonly Replicate[]): CaseVerdict {
  let worst = 0;
  let bound = 0;
  let bad = -1;
  reps.forEach((x, k) => {
    const dev = Math.abs(x.value - (x.predicted ?? d.predicted));
    const b = x.bound ?? d.bias;
    if (dev > worst || Number.isNaN(dev)) worst = dev;
    if (b > bound) bound = b;
    if (bad < 0 && !(dev <= b && Number.isFinite(b))) bad = k;
  });
  const lo = d.predicted - bound;
  const hi = d.predicted + bound;
  if (bad >= 0) return fail(d.predicted, worst, lo, hi, `replicate ${bad} lies outside its own bound`);
  return { predicted: d.predicted, observed: worst, lo, hi, pass: true };
}

/**
 * Judges a case's replicates against its plan. A case fails when fewer replicates qualified
 * than the plan needs, when a value is not a finite number, or when its statistic leaves the
 * band; a band that is not finite never passes.
 */
export function judgeCase(d: CaseDesign, plan: CasePlan, reps: readonly Replicate[]): CaseVerdict {
  if (reps.length < plan.replicates)
    return fail(
      d.predicted,
      Number.NaN,
      Number.NaN,
      Number.NaN,
      `only ${reps.length} of the ${plan.replicates} replicates needed qualified (in ${plan.attempts} runs)`,
    );
  const used = reps.slice(0, plan.replicates);
  if (used.some((x) => !Number.isFinite(x.value)))
    return fail(d.predicted, Number.NaN, Number.NaN, Number.NaN, 'a replicate value is not a finite number');
  if (d.test === 'exact') return judgeExact(d, used);
  if (d.test === 'proportion') return judgeProportion(d, plan, used);
  return judgeMean(d, plan, used);
}

/** A `mean` case's replicates so far, completed to `plan.replicates` with `fill`. */
function completed(plan: CasePlan, reps: readonly Replicate[], fill: number): Replicate[] {
  return [...reps, ...Array.from({ length: plan.replicates - reps.length }, () => ({ value: fill }))];
}

function meanDecided(d: CaseDesign, plan: CasePlan, reps: readonly Replicate[]): CaseVerdict | null {
  const range = d.valueRange;
  if (!range || reps.length === 0) return null;
  const [min, max] = range;
  if (reps.some((x) => x.predicted !== undefined || x.variance !== undefined)) return null;
  if (reps.some((x) => !(x.value >= min && x.value <= max))) return null;
  // judgeMean sums the values in order: each rounded sum is monotone in every value, so these
  // two completions give the lowest and the highest mean any remaining replicates can give;
  // the band depends on the design and the count only
  const high = judgeMean(d, plan, completed(plan, reps, max));
  const low = judgeMean(d, plan, completed(plan, reps, min));
  const [side, bound, band] =
    high.observed < high.lo ? ['below', max, high] : low.observed > low.hi ? ['above', min, low] : [];
  if (!band) return null;
  const mean = reps.reduce((s, x) => s + x.value, 0) / reps.length;
  const left = plan.replicates - reps.length;
  const of = `the mean of the first ${reps.length} of ${plan.replicates} is ${mean}`;
  return fail(
    d.predicted,
    mean,
    band.lo,
    band.hi,
    `${of}: ${side} the band even if the other ${left} are ${bound}`,
  );
}

function proportionDecided(d: CaseDesign, plan: CasePlan, reps: readonly Replicate[]): CaseVerdict | null {
  const r = plan.replicates;
  const lo = plan.lo / r;
  const hi = plan.hi / r;
  if (reps.some((x) => x.value !== 0 && x.value !== 1))
    return fail(d.predicted, Number.NaN, lo, hi, 'a proportion replicate is neither 0 nor 1');
  const ones = reps.reduce((s, x) => s + x.value, 0);
  const most = ones + r - reps.length;
  const band = `the binomial band ${plan.lo}..${plan.hi} of ${r}`;
  const observed = ones / reps.length;
  if (ones > plan.hi)
    return fail(d.predicted, observed, lo, hi, `${ones} of the first ${reps.length} already exceed ${band}`);
  if (most < plan.lo)
    return fail(
      d.predicted,
      observed,
      lo,
      hi,
      `${ones} of the first ${reps.length}: at most ${most}, below ${band}`,
    );
  return null;
}

/**
 * The failure a case's verdict is sure to be, given its first qualified replicates and the
 * attempts used, whatever its remaining attempts give (null while the verdict is still open).
 * Exact, not a statistical shortcut: every rule below holds for every possible continuation,
 * so a case stopped here would have failed at its full budget too.
 *
 * - too few attempts remain for the replicates needed to qualify;
 * - a value that is not finite, an `exact` replicate outside its own bound, a `proportion`
 *   replicate that is neither 0 nor 1: the judge fails any list that contains them;
 * - `proportion`: more 1s than the band's upper count already, or too few replicates left to
 *   reach its lower count;
 * - `mean` with a `valueRange` and no per-replicate prediction or variance: the mean stays
 *   outside the band even if every remaining replicate takes the range's most favourable end.
 *
 * A pass is never certain before the last replicate (it could be not finite), so only
 * failures are decided early. Other `mean` cases (unbounded values, or bands that move with
 * each replicate's own prediction or variance) are never decided early.
 */
export function certainFailure(
  d: CaseDesign,
  plan: CasePlan,
  reps: readonly Replicate[],
  attemptsUsed: number,
): CaseVerdict | null {
  const nan = Number.NaN;
  if (reps.length >= plan.replicates) return null;
  const possible = reps.length + plan.attempts - attemptsUsed;
  if (possible < plan.replicates)
    return fail(
      d.predicted,
      nan,
      nan,
      nan,
      `only ${reps.length} of the ${plan.replicates} replicates needed qualified in ${attemptsUsed} runs: at most ${possible} can in ${plan.attempts}`,
    );
  if (reps.some((x) => !Number.isFinite(x.value)))
    return fail(d.predicted, nan, nan, nan, 'a replicate value is not a finite number');
  if (d.test === 'exact') {
    const v = judgeExact(d, reps);
    return v.pass ? null : v;
  }
  if (d.test === 'proportion') return proportionDecided(d, plan, reps);
  return meanDecided(d, plan, reps);
}

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

import { studentTQuantile } from '../stats/index.ts';
import type { ValidationOutcome } from './validation-case.ts';

/** Mean, sample standard deviation and the 95% half-width t(0.975, r−1)·s/√r of replicate values. */
export function replicateStats(values: readonly number[]): { mean: number; sd: number; half: number } {
  const r = values.length;
  const mean = values.reduce((a, b) => a + b, 0) / r;
  if (r < 2) return { mean, sd: Number.NaN, half: Number.POSITIVE_INFINITY };
  const sd = Math.sqrt(values.reduce((a, v) => a + (v - mean) ** 2, 0) / (r - 1));
  return { mean, sd, half: studentTQuantile(0.975, r - 1) * (sd / Math.sqrt(r)) };
}

/**
 * Judges a mean of replicate values against a prediction: the band is the replicates' 95%
 * half-width, t(0.975, r−1)·s/√r, plus the finite-size scale n^(−1/2) of a population of n
 * (the order of the corrections between n agents and the n → ∞ theory).
 */
export function judgeMean(predicted: number, observed: number[], agents: number): ValidationOutcome {
  const { mean, half } = replicateStats(observed);
  const tolerance = half + 1 / Math.sqrt(agents);
  return {
    predicted,
    observed,
    agents,
    tolerance,
    toleranceRule: 't(0.975, r−1)·s/√r + n^(−1/2)',
    pass: Math.abs(mean - predicted) <= tolerance,
  };
}

/**
 * Judges a frequency (0/1 per replicate) against a predicted probability P: the band is
 * 1.96·√(P(1−P)/r), the binomial sampling error under the prediction, plus n^(−1/2).
 */
export function judgeFrequency(predicted: number, observed: number[], agents: number): ValidationOutcome {
  const r = observed.length;
  const mean = observed.reduce((a, b) => a + b, 0) / r;
  const tolerance = 1.96 * Math.sqrt((predicted * (1 - predicted)) / r) + 1 / Math.sqrt(agents);
  return {
    predicted,
    observed,
    agents,
    tolerance,
    toleranceRule: '1.96·√(P(1−P)/r) + n^(−1/2)',
    pass: Math.abs(mean - predicted) <= tolerance,
  };
}

import { t95 } from '../metrics/batch-stats.ts';

/** Mean, standard error and n of a sample; `mean` is null when empty, `se` when n < 2. */
export interface MeanSe {
  n: number;
  mean: number | null;
  se: number | null;
}

/** Mean and standard error (sample SD / sqrt(n)) of a sample. */
export function meanSe(xs: readonly number[]): MeanSe {
  const n = xs.length;
  if (n === 0) return { n, mean: null, se: null };
  let sum = 0;
  for (const x of xs) sum += x;
  const mean = sum / n;
  if (n < 2) return { n, mean, se: null };
  let ss = 0;
  for (const x of xs) ss += (x - mean) ** 2;
  return { n, mean, se: Math.sqrt(ss / (n - 1) / n) };
}

const LANCZOS = [
  0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313, -176.61502916214059,
  12.507343278686905, -0.13857109526572012, 9.9843695780195716e-6, 1.5056327351493116e-7,
];

/** ln Γ(x) for x > 0 (Lanczos, g = 7; about 15 significant digits). */
export function logGamma(x: number): number {
  if (x < 0.5) return Math.log(Math.PI / Math.sin(Math.PI * x)) - logGamma(1 - x);
  const z = x - 1;
  let a = LANCZOS[0];
  const t = z + 7.5;
  for (let i = 1; i < 9; i++) a += LANCZOS[i] / (z + i);
  return 0.5 * Math.log(2 * Math.PI) + (z + 0.5) * Math.log(t) - t + Math.log(a);
}

/** Continued fraction of the incomplete beta function (modified Lentz; Numerical Recipes 6.4). */
function betaContinuedFraction(x: number, a: number, b: number): number {
  const TINY = 1e-300;
  const qab = a + b;
  const qap = a + 1;
  const qam = a - 1;
  let c = 1;
  let d = 1 - (qab * x) / qap;
  if (Math.abs(d) < TINY) d = TINY;
  d = 1 / d;
  let h = d;
  for (let m = 1; m <= 10_000; m++) {
    const m2 = 2 * m;
    let aa = (m * (b - m) * x) / ((qam + m2) * (a + m2));
    d = 1 + aa * d;
    if (Math.abs(d) < TINY) d = TINY;
    c = 1 + aa / c;
    if (Math.abs(c) < TINY) c = TINY;
    d = 1 / d;
    h *= d * c;
    aa = (-(a + m) * (qab + m) * x) / ((a + m2) * (qap + m2));
    d = 1 + aa * d;
    if (Math.abs(d) < TINY) d = TINY;
    c = 1 + aa / c;
    if (Math.abs(c) < TINY) c = TINY;
    d = 1 / d;
    const del = d * c;
    h *= del;
    if (Math.abs(del - 1) < 1e-15) break;
  }
  return h;
}

/**
 * The regularized incomplete beta function I_x(a, b) = B(x; a, b) / B(a, b), for
 * 0 <= x <= 1 and a, b > 0.
 */
export function regularizedIncompleteBeta(x: number, a: number, b: number): number {
  if (!(a > 0) || !(b > 0) || Number.isNaN(x)) return Number.NaN;
  if (x <= 0) return 0;
  if (x >= 1) return 1;
  const lnFront = logGamma(a + b) - logGamma(a) - logGamma(b) + a * Math.log(x) + b * Math.log1p(-x);
  const front = Math.exp(lnFront);
  // The continued fraction converges fast for x < (a + 1) / (a + b + 2); use the symmetry otherwise.
  if (x < (a + 1) / (a + b + 2)) return (front * betaContinuedFraction(x, a, b)) / a;
  return 1 - (front * betaContinuedFraction(1 - x, b, a)) / b;
}

/**
 * Student's t cumulative distribution P(T <= t) for `df` > 0 degrees of freedom (not
 * necessarily an integer): 1 − I_{df/(df+t²)}(df/2, 1/2) / 2 for t >= 0, symmetric below.
 */
export function studentTCdf(t: number, df: number): number {
  if (!(df > 0) || Number.isNaN(t)) return Number.NaN;
  if (t === Number.POSITIVE_INFINITY) return 1;
  if (t === Number.NEGATIVE_INFINITY) return 0;
  const tail = 0.5 * regularizedIncompleteBeta(df / (df + t * t), df / 2, 0.5);
  return t >= 0 ? 1 - tail : tail;
}

/** Two-sided p-value of a t statistic: P(|T| >= |t|) = I_{df/(df+t²)}(df/2, 1/2). */
export function studentTTwoSided(t: number, df: number): number {
  if (!(df > 0) || Number.isNaN(t)) return Number.NaN;
  if (!Number.isFinite(t)) return 0;
  return Math.min(1, regularizedIncompleteBeta(df / (df + t * t), df / 2, 0.5));
}

/**
 * A paired t-test of `b − a` over matched observations: the mean difference, its SD and
 * SE, t = mean / SE, df = n − 1, the two-sided p-value and a 95% confidence interval.
 * `t`, `df`, `p` and `ci95` are null when n < 2 or the differences do not vary (SE = 0).
 */
export interface PairedTTest {
  n: number;
  meanDiff: number | null;
  sd: number | null;
  se: number | null;
  t: number | null;
  df: number | null;
  p: number | null;
  ci95: [number, number] | null;
}

/** Paired t-test of `b[k] − a[k]` (equal lengths). */
export function pairedTTest(a: readonly number[], b: readonly number[]): PairedTTest {
  if (a.length !== b.length)
    throw new RangeError(`paired samples differ in length: ${a.length} vs ${b.length}`);
  const d = a.map((x, k) => b[k] - x);
  const n = d.length;
  const none = { t: null, df: null, p: null, ci95: null };
  if (n === 0) return { n, meanDiff: null, sd: null, se: null, ...none };
  const s = meanSe(d);
  const mean = s.mean as number;
  if (n < 2) return { n, meanDiff: mean, sd: null, se: null, ...none };
  const se = s.se as number;
  const sd = se * Math.sqrt(n);
  if (se === 0) return { n, meanDiff: mean, sd, se, ...none };
  const df = n - 1;
  const t = mean / se;
  const h = t95(df) * se;
  return { n, meanDiff: mean, sd, se, t, df, p: studentTTwoSided(t, df), ci95: [mean - h, mean + h] };
}

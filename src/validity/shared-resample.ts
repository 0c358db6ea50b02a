import { type EstimateCi, quantileType7 } from '../stats/index.ts';

/** TV, JS (bits) and W1 of one pair of distributions; W1 is NaN off a numeric scale. */
export type Triple = [tv: number, js: number, w1: number];

/**
 * The three distances of `compare` on share vectors over one fixed option list, without
 * building records: `distances(p, q)` gives TV, JS and W1 exactly as
 * {@link totalVariation}, {@link jensenShannon} and {@link wasserstein1} do on the same
 * options (same summation order), so the estimate does not depend on the fast path.
 */
export class TripleDistance {
  private readonly order: Int32Array;
  private readonly gaps: Float64Array;
  /** True when every option id is a number (W1 defined). */
  readonly numeric: boolean;

  constructor(options: readonly string[]) {
    const xs = options.map(Number);
    this.numeric = options.every((o, i) => o.trim() !== '' && Number.isFinite(xs[i]));
    const order = options.map((_, i) => i).sort((a, b) => xs[a] - xs[b]);
    this.order = Int32Array.from(order);
    this.gaps = Float64Array.from(order.slice(0, -1).map((k, i) => xs[order[i + 1]] - xs[k]));
  }

  /** TV, JS and W1 between share vectors `p` and `q` (indexed like the options). */
  distances(p: ArrayLike<number>, q: ArrayLike<number>): Triple {
    let tv = 0;
    let js = 0;
    for (let i = 0; i < p.length; i++) {
      const a = p[i];
      const b = q[i];
      tv += Math.abs(a - b);
      const m = (a + b) / 2;
      if (a > 0) js += 0.5 * a * Math.log2(a / m);
      if (b > 0) js += 0.5 * b * Math.log2(b / m);
    }
    return [tv / 2, Math.max(0, js), this.numeric ? this.w1(p, q) : Number.NaN];
  }

  private w1(p: ArrayLike<number>, q: ArrayLike<number>): number {
    let fp = 0;
    let fq = 0;
    let s = 0;
    for (let i = 0; i < this.gaps.length; i++) {
      const k = this.order[i];
      fp += p[k];
      fq += q[k];
      s += Math.abs(fp - fq) * this.gaps[i];
    }
    return s;
  }
}

/** Shares of the codes[from..to) over `k` options, written into `out`. */
function sharesInto(out: Float64Array, codes: ArrayLike<number>, from: number, to: number): Float64Array {
  out.fill(0);
  if (to <= from) return out;
  for (let i = from; i < to; i++) out[codes[i]]++;
  for (let i = 0; i < out.length; i++) out[i] /= to - from;
  return out;
}

function ci(estimate: number, reps: number[], level: number): EstimateCi {
  if (reps.length === 0 || Number.isNaN(estimate)) return { estimate, lo: Number.NaN, hi: Number.NaN };
  reps.sort((x, y) => x - y);
  return { estimate, lo: quantileType7(reps, (1 - level) / 2), hi: quantileType7(reps, (1 + level) / 2) };
}

/**
 * Percentile bootstrap CIs (Efron & Tibshirani 1993, ch. 13) of TV, JS and W1 between the
 * simulated answers (option codes) and fixed human shares, from ONE set of resamples: each
 * replicate draws n codes with replacement (index ⌊rng() · n⌋) and scores all three
 * distances on it. The bounds are the type-7 quantiles of the replicate values.
 */
export function bootstrapTriple(
  codes: readonly number[],
  human: Float64Array,
  dist: TripleDistance,
  opts: { replicates: number; rng: () => number; level?: number },
): [EstimateCi, EstimateCi, EstimateCi] {
  const level = opts.level ?? 0.95;
  const n = codes.length;
  const p = new Float64Array(human.length);
  const est = dist.distances(sharesInto(p, codes, 0, n), human);
  const reps: [number[], number[], number[]] = [[], [], []];
  if (n > 0)
    for (let r = 0; r < opts.replicates; r++) {
      p.fill(0);
      for (let i = 0; i < n; i++) p[codes[Math.floor(opts.rng() * n)]]++;
      for (let i = 0; i < p.length; i++) p[i] /= n;
      const d = dist.distances(p, human);
      for (let m = 0; m < 3; m++) reps[m].push(d[m]);
    }
  return [ci(est[0], reps[0], level), ci(est[1], reps[1], level), ci(est[2], reps[2], level)];
}

/**
 * Split-half noise floors of TV, JS and W1 from ONE set of splits of the human sample (the
 * counts round(share · n) expanded to one code per person; each split shuffles the first
 * half by a partial Fisher–Yates and scores the two halves against each other), averaged
 * over `splits`. Same method as {@link splitHalfFloor}; NaN when fewer than 4 people.
 */
export function splitHalfTriple(
  human: Float64Array,
  n: number,
  dist: TripleDistance,
  opts: { splits: number; rng: () => number },
): Triple {
  const codes: number[] = [];
  human.forEach((share, i) => {
    for (let c = Math.round(share * n); c > 0; c--) codes.push(i);
  });
  if (codes.length < 4) return [Number.NaN, Number.NaN, Number.NaN];
  const half = Math.floor(codes.length / 2);
  const a = new Float64Array(human.length);
  const b = new Float64Array(human.length);
  const total: Triple = [0, 0, 0];
  for (let s = 0; s < opts.splits; s++) {
    for (let i = 0; i < half; i++) {
      const j = i + Math.floor(opts.rng() * (codes.length - i));
      [codes[i], codes[j]] = [codes[j], codes[i]];
    }
    const d = dist.distances(sharesInto(a, codes, 0, half), sharesInto(b, codes, half, 2 * half));
    for (let m = 0; m < 3; m++) total[m] += d[m];
  }
  return total.map((t) => t / opts.splits) as Triple;
}

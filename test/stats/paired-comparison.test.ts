import { describe, expect, it } from 'vitest';
import { SeededStream } from '../../src/core/index.ts';
import { pairedComparison } from '../../src/stats/index.ts';

const rng = (seed: string) => {
  const s = new SeededStream(seed);
  return () => s.next();
};

describe('pairedComparison', () => {
  it('a hand-computed example: six pairs', () => {
    // control a and treated b; d = b − a = [2, 1, 3, 1, 2, 2].
    // Σd = 11, Σd² = 23: mean 11/6, s_d² = (23 − 121/6)/5 = 17/30, se² = 17/180.
    // t(0.975, 5) = 2.570581835636314 (R: qt(0.975, 5); printed tables give 2.571).
    // a: mean 10.5, s_a² = 17.5/5 = 3.5; b: mean 37/3, s_b² = (40/3)/5 = 8/3;
    // Σ(a − ā)(b − b̄) = 14, cov = 2.8: r = 2.8/√(3.5 · 8/3) = 2.8·√(3/28);
    // variance ratio s_d²/(s_a² + s_b²) = (17/30)/(37/6) = 17/185.
    // Sign flips: 64 vectors, j = 1: the bounds are min(d) = 1 and max(d) = 3.
    const a = [10, 12, 9, 11, 13, 8];
    const b = [12, 13, 12, 12, 15, 10];
    const r = pairedComparison(a, b, { rng: rng('x') });
    const half = 2.570581835636314 * Math.sqrt(17 / 180);
    expect(r.n).toBe(6);
    expect(r.differences).toEqual([2, 1, 3, 1, 2, 2]);
    expect(r.t.meanDiff).toBeCloseTo(11 / 6, 12);
    expect(r.t.lo).toBeCloseTo(11 / 6 - half, 10);
    expect(r.t.hi).toBeCloseTo(11 / 6 + half, 10);
    expect(r.a.mean).toBe(10.5);
    expect(r.b.mean).toBeCloseTo(37 / 3, 12);
    expect(r.correlation).toBeCloseTo(2.8 * Math.sqrt(3 / 28), 12);
    expect(r.varianceRatio).toBeCloseTo(17 / 185, 12);
    expect([r.signFlip.lo, r.signFlip.hi]).toEqual([1, 3]);
    // the unpaired interval on the same numbers: se² = 3.5/6 + (8/3)/6 = 37/36, far wider
    expect(r.welch.se).toBeCloseTo(Math.sqrt(37 / 36), 12);
    expect(r.welch.hi - r.welch.lo).toBeGreaterThan(2 * (r.t.hi - r.t.lo));
  });

  it("matches R's t.test(x, y, paired = TRUE) and t.test(x, y) on the sleep data", () => {
    // R's example(t.test): paired, t = -4.0621, df = 9, p-value = 0.002833,
    // 95% CI -2.4598858 -0.7001142 (group 1 − group 2); Welch, t = -1.8608, df = 17.776,
    // 95% CI -3.3654832 0.2054832. Here a = group 2, b = group 1, so b − a is group 1 − group 2.
    const group1 = [0.7, -1.6, -0.2, -1.2, -0.1, 3.4, 3.7, 0.8, 0.0, 2.0];
    const group2 = [1.9, 0.8, 1.1, 0.1, -0.1, 4.4, 5.5, 1.6, 4.6, 3.4];
    const r = pairedComparison(group2, group1, { rng: rng('x') });
    expect(r.t.t).toBeCloseTo(-4.0621, 4);
    expect(r.t.df).toBe(9);
    expect(r.t.p).toBeCloseTo(0.002833, 6);
    expect(r.t.lo).toBeCloseTo(-2.4598858, 7);
    expect(r.t.hi).toBeCloseTo(-0.7001142, 7);
    expect(r.welch.t).toBeCloseTo(-1.8608, 4);
    expect(r.welch.df).toBeCloseTo(17.776, 3);
    expect(r.welch.lo).toBeCloseTo(-3.3654832, 7);
    expect(r.welch.hi).toBeCloseTo(0.2054832, 7);
    // Python 3.12 statistics.correlation(group1, group2) = 0.7951702058335778 (the patients
    // respond alike to both drugs)
    expect(r.correlation).toBeCloseTo(0.7951702058335778, 12);
    // and the sign-flip interval of the reversed differences is the mirror of [5/6, 37/15]
    expect(r.signFlip.lo).toBeCloseTo(-37 / 15, 12);
    expect(r.signFlip.hi).toBeCloseTo(-5 / 6, 12);
  });

  /** Standard normal draws (Box–Muller) from a seeded stream. */
  function normals(s: SeededStream): () => number {
    return () => Math.sqrt(-2 * Math.log(1 - s.next())) * Math.cos(2 * Math.PI * s.next());
  }

  /**
   * 100 seeded synthetic experiments with a known effect: unit k has a level u_k ~ N(0, 1)
   * shared by its two runs (common random numbers), each run adds its own skewed noise
   * (exponential, mean 0.5), and treatment adds `effect`. The per-pair differences are then
   * symmetric about the effect, as the sign-flip test assumes, while the outcomes are not normal.
   */
  function coverage(pairs: number, effect: number, draws: number): { signFlip: number; t: number } {
    const s = new SeededStream(`coverage|${pairs}`);
    const z = normals(s);
    const expo = () => -0.5 * Math.log(1 - s.next());
    let signFlip = 0;
    let t = 0;
    for (let trial = 0; trial < 100; trial++) {
      const u = Array.from({ length: pairs }, z);
      const control = u.map((x) => x + expo());
      const treated = u.map((x) => x + effect + expo());
      const r = pairedComparison(control, treated, { rng: rng(`flips|${trial}`), draws });
      if (r.signFlip.lo <= effect && effect <= r.signFlip.hi) signFlip++;
      if (r.t.lo <= effect && effect <= r.t.hi) t++;
    }
    return { signFlip, t };
  }

  it('covers a known effect in at least 90 of 100 seeded trials (enumerated flips, 12 pairs)', () => {
    const c = coverage(12, 0.3, 9999);
    expect(c.signFlip).toBeGreaterThanOrEqual(90);
    expect(c.t).toBeGreaterThanOrEqual(90);
  });

  it('covers a known effect in at least 90 of 100 seeded trials (random flips, 30 pairs)', () => {
    const c = coverage(30, -0.2, 1999);
    expect(c.signFlip).toBeGreaterThanOrEqual(90);
    expect(c.t).toBeGreaterThanOrEqual(90);
  });

  it('gives NaN correlation and variance ratio when an arm does not vary', () => {
    const r = pairedComparison([1, 1, 1], [1, 2, 3], { rng: rng('x') });
    expect(r.correlation).toBeNaN();
    expect(r.varianceRatio).toBeCloseTo(1, 12);
    const none = pairedComparison([2, 2], [2, 2], { rng: rng('x') });
    expect(none.varianceRatio).toBeNaN();
  });
});

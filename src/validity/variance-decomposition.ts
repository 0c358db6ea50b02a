import { type EstimateCi, quantileType7 } from '../stats/index.ts';
import { seededUniform } from './seeded-rng.ts';

/** One run's outcome and the factor levels it ran with (replicates differ only by seed). */
export interface Observation {
  factors: Readonly<Record<string, string>>;
  value: number;
}

/** The main effect of one factor. */
export interface FactorEffect {
  factor: string;
  /** η² = SS_factor / SS_total, with a stratified bootstrap CI. */
  share: EstimateCi;
  levels: { level: string; n: number; mean: number }[];
}

/** What {@link varianceDecomposition} finds. */
export interface VarianceDecomposition {
  n: number;
  mean: number;
  /** Total sum of squares / n (population variance). */
  variance: number;
  factors: FactorEffect[];
  /** Within-cell (same levels of every factor, other seeds) share: the seed noise floor. */
  seed: EstimateCi;
  /** What main effects and seed leave: interactions (0 in an additive, balanced design). */
  interaction: EstimateCi;
}

interface Shares {
  factors: number[];
  seed: number;
  interaction: number;
}

function cellKey(o: Observation, names: string[]): string {
  return names.map((f) => o.factors[f]).join('\u0000');
}

function sharesOf(obs: readonly Observation[], names: string[]): Shares {
  const n = obs.length;
  const mean = obs.reduce((s, o) => s + o.value, 0) / n;
  const total = obs.reduce((s, o) => s + (o.value - mean) ** 2, 0);
  const ssOf = (key: (o: Observation) => string) => {
    const groups = new Map<string, { sum: number; n: number }>();
    for (const o of obs) {
      const g = groups.get(key(o)) ?? { sum: 0, n: 0 };
      g.sum += o.value;
      g.n++;
      groups.set(key(o), g);
    }
    let ss = 0;
    for (const g of groups.values()) ss += g.n * (g.sum / g.n - mean) ** 2;
    return ss;
  };
  const factors = names.map((f) => (total === 0 ? 0 : ssOf((o) => o.factors[f]) / total));
  const between = ssOf((o) => cellKey(o, names));
  const seed = total === 0 ? 0 : (total - between) / total;
  return { factors, seed, interaction: 1 - seed - factors.reduce((s, x) => s + x, 0) };
}

/**
 * Decomposes the variance of an outcome over factors by sums of squares (one-way main
 * effects, η² = SS_factor / SS_total; Cohen 1973): each factor's share, the within-cell
 * share (replicates that differ only by seed: the noise floor a factor must beat) and the
 * rest (interactions; exactly the remainder, so it is 0 for an additive effect in a balanced
 * design and can be slightly negative in an unbalanced one). CIs: percentile bootstrap that
 * resamples runs within each cell (the design stays as run), seeded.
 */
export function varianceDecomposition(
  obs: readonly Observation[],
  opts: { seed: number; replicates?: number; level?: number },
): VarianceDecomposition {
  const names = [...new Set(obs.flatMap((o) => Object.keys(o.factors)))].sort();
  const point = sharesOf(obs, names);
  const cells = new Map<string, Observation[]>();
  for (const o of obs) cells.set(cellKey(o, names), [...(cells.get(cellKey(o, names)) ?? []), o]);
  const rng = seededUniform(`variance/${opts.seed}`);
  const reps: Shares[] = [];
  for (let r = 0; r < (opts.replicates ?? 1000); r++) {
    const sample: Observation[] = [];
    for (const c of cells.values())
      for (let i = 0; i < c.length; i++) sample.push(c[Math.floor(rng() * c.length)]);
    reps.push(sharesOf(sample, names));
  }
  const level = opts.level ?? 0.95;
  const ci = (estimate: number, pick: (s: Shares) => number): EstimateCi => {
    const xs = reps.map(pick).sort((a, b) => a - b);
    return { estimate, lo: quantileType7(xs, (1 - level) / 2), hi: quantileType7(xs, (1 + level) / 2) };
  };
  const n = obs.length;
  const mean = obs.reduce((s, o) => s + o.value, 0) / n;
  return {
    n,
    mean,
    variance: obs.reduce((s, o) => s + (o.value - mean) ** 2, 0) / n,
    factors: names.map((f, i) => ({
      factor: f,
      share: ci(point.factors[i], (s) => s.factors[i]),
      levels: levelsOf(obs, f),
    })),
    seed: ci(point.seed, (s) => s.seed),
    interaction: ci(point.interaction, (s) => s.interaction),
  };
}

function levelsOf(obs: readonly Observation[], f: string): FactorEffect['levels'] {
  const m = new Map<string, number[]>();
  for (const o of obs) m.set(o.factors[f], [...(m.get(o.factors[f]) ?? []), o.value]);
  return [...m].map(([level, xs]) => ({
    level,
    n: xs.length,
    mean: xs.reduce((s, x) => s + x, 0) / xs.length,
  }));
}

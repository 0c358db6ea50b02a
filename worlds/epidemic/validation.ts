import type { Json, WorldDefinition } from '../../src/index.ts';
import { type CaseDesign, collectReplicates, type ValidationCase } from '../../src/public/analysis.ts';
import { cappedMoments, giantFraction } from '../rumor/theory.ts';
import { world as epidemicWorld } from './index.ts';
import { perEdgeCase } from './per-edge-validation.ts';
import { type SirRates, sirFinalSizeDistribution, tailMoments } from './theory.ts';
import { timeCourseCases } from './time-course-validation.ts';

const GAMMA = 0.25;
const CONTACT = 0.75;
const num = (p: Record<string, Json>, k: string) => p[k] as number;
const MODEL = 'SIR (Kermack–McKendrick 1927), Markovian';
const SOURCE =
  'the Markovian SIR jump chain (final size by its embedded random walk: Foster 1955, Biometrika 42:123); its limits: Kermack & McKendrick 1927, Proc. R. Soc. A 115:700 (z = 1 − e^(−R0·z)); Andersson & Britton 2000, Thm 4.2 (normal fluctuations)';

/** The chain's rates read from the world's parameters: infection rate c·β, recovery γ. */
export function sirRates(p: Record<string, Json>): SirRates {
  return {
    n: num(p, 'n'),
    a: num(p, 'contactRate') * num(p, 'beta'),
    gamma: num(p, 'gamma'),
    initial: num(p, 'initial'),
  };
}

/** Smallest final size counted as a major outbreak: a tenth of the population above threshold, none below. */
function majorFrom(p: Record<string, Json>): number {
  const r = sirRates(p);
  return r.a > r.gamma ? Math.ceil(r.n / 10) : 0;
}

/** Small outbreaks are counted up to this size (their law is heavy-tailed). */
const CAP = 25;

/**
 * Per-run law of the statistic from the exact chain: above threshold the final size (fraction
 * of n) of runs reaching `from`; below it (from = 0) min(final size, CAP), a count.
 */
function finalSize(p: Record<string, Json>, from: number) {
  const r = sirRates(p);
  const dist = sirFinalSizeDistribution(r);
  if (from === 0) {
    const law = cappedMoments(dist, CAP);
    return { p: 1, mean: law.mean, sd: Math.sqrt(law.variance), skewness: law.skewness };
  }
  const t = tailMoments(dist, from);
  if (t.p === 0) return { p: 0, mean: 0, sd: 0, skewness: 0 };
  return { p: t.p, mean: t.mean / r.n, sd: Math.sqrt(t.variance) / r.n, skewness: t.skewness };
}

/**
 * The final-size law of runs reaching `from` (fixed by the case, so that a perturbed model is
 * judged on the same statistic). The deviation it must detect: 5% in β above threshold; 25%
 * below, where runs are tiny and noisy.
 */
function finalSizeDesign(p: Record<string, Json>, from: number): CaseDesign {
  const base = finalSize(p, from);
  const f = from > 0 ? 1.05 : 1.25;
  const moved = finalSize({ ...p, beta: f * num(p, 'beta') }, from);
  const r0 = (num(p, 'contactRate') * num(p, 'beta')) / num(p, 'gamma');
  return {
    test: 'mean',
    predicted: base.mean,
    sd: base.sd,
    skewness: base.skewness,
    bias: 0,
    rule:
      `exact law of the final size at n=${num(p, 'n')} from the jump chain (worlds/epidemic/theory.ts), ` +
      (from > 0
        ? `restricted to major outbreaks (at least ${from} infected, probability ${base.p.toFixed(4)}); limit ${giantFraction(r0).toFixed(4)}`
        : `every run, its size counted up to ${CAP} (R0 < 1: no major outbreak; exact skewness of the capped law in the band)`) +
      '. No bias: exact at this n; band z·sd/√r.',
    deviation: {
      label: `β × ${f} (a ${Math.round((f - 1) * 100)}% error in the transmission rate)`,
      mean: moved.mean,
      sd: moved.sd,
    },
    qualify: base.p,
    valueRange: from > 0 ? [0, 1] : [0, CAP],
  };
}

function finalSizeCase(
  world: WorldDefinition,
  r0: number,
  n: number,
  quickReplicates: number,
): ValidationCase {
  const params = {
    model: 'sir',
    n,
    network: 'complete',
    turns: 'async',
    contactRate: CONTACT,
    gamma: GAMMA,
    beta: (r0 * GAMMA) / CONTACT,
    initial: 1,
  };
  const from = majorFrom(params);
  return {
    id: `sir-well-mixed-r0-${r0}`,
    model: MODEL,
    setting:
      `well-mixed, n=${n}, async, c=${CONTACT}, γ=${GAMMA}, β=R0·γ/c, R0=${r0}, 1 infected: final size` +
      (r0 > 1 ? ' of major outbreaks (≥ n/10)' : `, counted up to ${CAP}`),
    source: SOURCE,
    quick: true,
    world,
    params,
    reads: ['beta', 'contactRate', 'gamma', 'n', 'initial'],
    design: (p) => finalSizeDesign(p, from),
    maxReplicates: 4000,
    quickReplicates,
    minReplicates: 20,
    run: (ctx) =>
      collectReplicates(ctx, async (k) => {
        const r = await ctx.run(k, { ticks: 100_000 });
        const z = r.metrics.recovered;
        if (from === 0) return { value: Math.min(z, CAP) };
        return z >= from ? { value: z / r.size } : null;
      }),
  };
}

/** The epidemic world's validation cases; `world` may be a variant (tests break it on purpose). */
export function epidemicValidationCases(world: WorldDefinition = epidemicWorld): ValidationCase[] {
  return [
    finalSizeCase(world, 0.5, 500, 300),
    finalSizeCase(world, 1.5, 2000, 20),
    finalSizeCase(world, 2.5, 2000, 20),
    ...timeCourseCases(world),
    perEdgeCase(world),
  ];
}

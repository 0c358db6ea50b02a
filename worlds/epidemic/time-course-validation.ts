import type { Json, WorldDefinition } from '../../src/index.ts';
import { type CaseDesign, collectReplicates, type ValidationCase } from '../../src/public/analysis.ts';
import { birthDeathMoments, curveCentre, peakTime, sirOde } from './theory.ts';

const num = (p: Record<string, Json>, k: string) => p[k] as number;
/** The time-scale error the time-course cases must detect: every rate × 1.1 (R0 unchanged). */
const FASTER = 1.1;
const EARLY_T = 10;
const MODEL = 'SIR (Kermack–McKendrick 1927), Markovian: time course';
const SOURCE =
  'Kermack & McKendrick 1927, Proc. R. Soc. A 115:700 (the ODE); early phase as a linear birth–death process: Kendall 1948, Ann. Math. Stat. 19:1; Bailey 1964, The Elements of Stochastic Processes §8.6';

function faster(p: Record<string, Json>): Record<string, Json> {
  return { ...p, contactRate: FASTER * num(p, 'contactRate'), gamma: FASTER * num(p, 'gamma') };
}

function rates(p: Record<string, Json>) {
  return {
    n: num(p, 'n'),
    a: num(p, 'contactRate') * num(p, 'beta'),
    gamma: num(p, 'gamma'),
    initial: num(p, 'initial'),
  };
}

/** I(t)/I(0) at t = 10: the ODE (with the susceptibles it uses up), sd of the birth–death process. */
function earlyLaw(p: Record<string, Json>): { mean: number; sd: number } {
  const r = rates(p);
  const bd = birthDeathMoments(r.initial, r.a, r.gamma, EARLY_T);
  return { mean: sirOde(r, EARLY_T)[EARLY_T] / r.initial, sd: Math.sqrt(bd.variance) / r.initial };
}

function earlyDesign(p: Record<string, Json>): CaseDesign {
  const base = earlyLaw(p);
  const r = rates(p);
  return {
    test: 'mean',
    predicted: base.mean,
    sd: base.sd,
    bias: 0.06,
    rule:
      `I(${EARLY_T})/I(0) from the SIR ODE in counts (depletion included; early growth rate r = c·β − γ = ${(r.a - r.gamma).toFixed(3)}); ` +
      'per-run sd of the linear birth–death process (no depletion: an upper bound); bias budget 0.06 (1%) for the ODE against the chain’s mean at n = 10^4 (independent Gillespie reference: 6.0407 ± 0.014, bench/validate-references.ts).',
    deviation: { label: 'time × 1.1 (c and γ × 1.1, R0 unchanged)', ...earlyLaw(faster(p)) },
    qualify: 1,
  };
}

/**
 * Centre Σt·I(t)/ΣI(t) of the prevalence curve sampled at integer times: the ODE's, plus the
 * mean delay of the early phase, Var(W)/(2r) (W the birth–death martingale limit; E[−ln W] ≈
 * Var(W)/2 to second order).
 */
function centreLaw(p: Record<string, Json>): { mean: number; ode: number; peak: number } {
  const r = rates(p);
  const curve = sirOde(r, 400);
  const growth = r.a - r.gamma;
  const delay = birthDeathMoments(r.initial, r.a, r.gamma, 0).martingaleVariance / (2 * growth);
  return { mean: curveCentre(curve) + delay, ode: curveCentre(curve), peak: peakTime(curve) };
}

/** Fixed per-run sd of the centre: √Var(W)/r = 1.37 is its early-phase part; the reference measured 1.58. */
const CENTRE_SD = 1.75;

function centreDesign(p: Record<string, Json>): CaseDesign {
  const base = centreLaw(p);
  return {
    test: 'mean',
    predicted: base.mean,
    sd: CENTRE_SD,
    bias: 0.1,
    rule:
      `centre of the ODE's prevalence curve ${base.ode.toFixed(3)} (its peak at t = ${base.peak.toFixed(2)}) plus the early delay Var(W)/(2r); ` +
      `per-run sd ${CENTRE_SD} and bias budget 0.1 fixed from an independent Gillespie reference (4000 runs: 21.760 ± 0.025, sd 1.58; bench/validate-references.ts).`,
    deviation: {
      label: 'time × 1.1 (c and γ × 1.1, R0 unchanged)',
      mean: centreLaw(faster(p)).mean,
      sd: CENTRE_SD,
    },
    qualify: 1,
  };
}

/** Infected counts at t = 0, 1, 2, … of one run (a tick without events keeps the last count). */
function prevalence(): {
  curve: number[];
  onTick: (t: number, max: number, view: { count(r: string, s: string): number }) => void;
} {
  const curve: number[] = [];
  return {
    curve,
    onTick: (t, _max, view) => {
      while (curve.length < t) curve.push(curve[curve.length - 1] ?? 0);
      curve[t] = view.count('health', 'infected');
    },
  };
}

/** The early growth rate and the timing of the epidemic against the SIR ODE. */
export function timeCourseCases(world: WorldDefinition): ValidationCase[] {
  const base = {
    model: 'sir',
    network: 'complete',
    turns: 'async',
    contactRate: 0.6,
    gamma: 0.2,
    beta: 2 / 3,
  };
  const early = { ...base, n: 10_000, initial: 100 };
  const centre = { ...base, n: 2000, initial: 40 };
  const reads = ['beta', 'contactRate', 'gamma', 'initial'];
  return [
    {
      id: 'sir-early-growth',
      model: MODEL,
      setting: `well-mixed, n=10000, async, c=0.6, γ=0.2, β=2/3 (R0=2), 100 infected: I(${EARLY_T})/I(0)`,
      source: SOURCE,
      quick: true,
      world,
      params: early,
      reads,
      design: earlyDesign,
      maxReplicates: 200,
      quickReplicates: 30,
      run: (ctx) =>
        collectReplicates(ctx, async (k) => {
          const r = await ctx.run(k, { ticks: EARLY_T });
          return { value: r.metrics.infected / early.initial };
        }),
    },
    {
      id: 'sir-epidemic-centre',
      model: MODEL,
      setting:
        'well-mixed, n=2000, async, c=0.6, γ=0.2, β=2/3 (R0=2), 40 infected: centre Σt·I(t)/ΣI(t) of the prevalence curve',
      source: SOURCE,
      quick: false,
      world,
      params: centre,
      reads,
      design: centreDesign,
      maxReplicates: 200,
      quickReplicates: 20,
      run: (ctx) =>
        collectReplicates(ctx, async (k) => {
          const { curve, onTick } = prevalence();
          curve.push(centre.initial);
          await ctx.run(k, { ticks: 100_000, onTick });
          return { value: curveCentre(curve) };
        }),
    },
  ];
}

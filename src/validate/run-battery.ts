import { ConfigError, GrapevineError, type Json } from '../core/index.ts';
import { runWorld } from '../world/index.ts';
import { type CasePlan, meanPower, planCase, proportionPower } from './case-plan.ts';
import { type CaseVerdict, certainFailure, judgeCase } from './judge-case.ts';
import { checkedPerturbation, type Perturbation, perturbedDesign, requireReaders } from './perturbation.ts';
import { replicateSeed } from './replicate-seed.ts';
import type { CaseContext, CaseDesign, Replicate, ValidationCase } from './validation-case.ts';

/** The battery's false-failure rate on a correct model, split evenly over its cases (Bonferroni). */
export const FAMILY_ALPHA = 0.01;

/** What `--perturb` did to one case. */
export interface PerturbationRow extends Perturbation {
  /** Power to detect it, from the case's own theory at the perturbed parameters (null: `exact` case). */
  expectedPower: number | null;
  /** The case failed, i.e. detected the perturbation. */
  detected: boolean;
  /** Its expected power is at least 95%: it must detect. */
  mustDetect: boolean;
}

/** One row of a battery's report. */
export interface ValidationRow extends CaseVerdict {
  id: string;
  model: string;
  setting: string;
  source: string;
  test: CaseDesign['test'];
  /** How the prediction, its spread and its bias were derived. */
  rule: string;
  /** Runs made and replicates that qualified (and were used: at most `replicates`). */
  runs: number;
  qualified: number;
  /** Replicates the verdict needs and runs allowed, fixed before the runs. */
  replicates: number;
  attempts: number;
  /** This case's share of the battery's false-failure rate. */
  alpha: number;
  /** The smallest deviation the case must detect, the statistic under it, and the power to detect it. */
  deviation: { label: string; mean: number };
  power: number;
  /** Replicates that deviation needs for 95% power. */
  needed: number;
  /** Per-replicate values, in run order. */
  values: number[];
  perturbation?: PerturbationRow;
  /** Under `stopWhenDecided`: the case stopped before its budget, its failure already certain. */
  decidedEarly?: true;
}

/** Options of {@link runBattery}. */
export interface BatteryOptions {
  /** Only the quick cases, with their quick replicate budgets. */
  quick?: boolean;
  /** Only the case with this id. */
  only?: string;
  /** Base seed of the seed rule (default 1). */
  seed?: number;
  /** Family-wise false-failure rate (default {@link FAMILY_ALPHA}). */
  familyAlpha?: number;
  /** Run the cases that read a key with it multiplied, and report which detect it. */
  perturb?: Perturbation;
  /**
   * Stop a case's runs as soon as it is sure to fail whatever its remaining runs give
   * ({@link certainFailure}): the verdicts are those of the full budgets, the rows of
   * failing cases stop short (their `values`, `observed` and `reason` are the stopped ones).
   * For checks that a broken model fails; passing cases run their full budget as without it.
   */
  stopWhenDecided?: boolean;
  /** Called after each case. */
  onCase?: (row: ValidationRow) => void;
}

function choose(cases: readonly ValidationCase[], o: BatteryOptions): ValidationCase[] {
  let chosen = o.quick ? cases.filter((c) => c.quick) : [...cases];
  if (o.only !== undefined) {
    chosen = cases.filter((c) => c.id === o.only);
    if (chosen.length === 0)
      throw new ConfigError(`no validation case "${o.only}"`, {
        hint: `cases: ${cases.map((c) => c.id).join(', ')}`,
      });
  }
  return o.perturb ? requireReaders(chosen, o.perturb) : chosen;
}

/** The certain failure a case stopped on under `stopWhenDecided`, with the replicates it had then. */
interface Decision {
  verdict: CaseVerdict;
  count: number;
}

function context(
  c: ValidationCase,
  params: Record<string, Json>,
  design: CaseDesign,
  plan: CasePlan,
  o: BatteryOptions,
) {
  let runs = 0;
  let decision: Decision | null = null;
  const seed = o.seed ?? 1;
  const ctx: CaseContext = {
    replicates: plan.replicates,
    attempts: plan.attempts,
    run: (k, extra = {}) => {
      if (k >= plan.attempts) throw new RangeError(`case ${c.id} asked for run ${k} of ${plan.attempts}`);
      runs++;
      return runWorld(c.world, { params, seed: replicateSeed(seed, k), ...extra });
    },
    ...(o.stopWhenDecided
      ? {
          decided: (reps: readonly Replicate[], used: number) => {
            const verdict = certainFailure(design, plan, reps, used);
            decision = verdict && { verdict, count: reps.length };
            return verdict !== null;
          },
        }
      : {}),
  };
  return { ctx, runs: () => runs, decision: () => decision };
}

function perturbationRow(c: ValidationCase, d: CaseDesign, plan: CasePlan, p: Perturbation, pass: boolean) {
  const moved = perturbedDesign(c, d, p);
  let expectedPower: number | null = null;
  if (moved?.test === 'mean') expectedPower = meanPower(moved, plan.z, plan.replicates);
  if (moved?.test === 'proportion') expectedPower = proportionPower(moved, plan.alphaBand, plan.replicates);
  return {
    ...p,
    expectedPower,
    detected: !pass,
    mustDetect: expectedPower !== null && expectedPower >= 0.95,
  };
}

/** Runs a case and judges it; an error of a run (not of the user's input) fails the case with its message. */
async function verdictOf(
  c: ValidationCase,
  design: CaseDesign,
  plan: CasePlan,
  ctx: CaseContext,
  decision: () => Decision | null,
) {
  let reps: Replicate[] = [];
  try {
    reps = await c.run(ctx);
    const d = decision();
    // a case that went on after its failure was decided is judged on what it returned
    if (d && d.count === reps.length && reps.length < plan.replicates)
      return { reps, verdict: d.verdict, early: true };
    return { reps, verdict: judgeCase(design, plan, reps) };
  } catch (e) {
    if (e instanceof GrapevineError && e.exitCode === 2) throw e;
    const reason = e instanceof Error ? e.message : String(e);
    const nan = Number.NaN;
    return {
      reps,
      verdict: { predicted: design.predicted, observed: nan, lo: nan, hi: nan, pass: false, reason },
    };
  }
}

async function runCase(c: ValidationCase, alpha: number, o: BatteryOptions): Promise<ValidationRow> {
  const design = c.design(c.params);
  const plan = planCase(design, alpha, o.quick ? c.quickReplicates : c.maxReplicates, c.minReplicates);
  const params = o.perturb ? checkedPerturbation(c, o.perturb) : c.params;
  const { ctx, runs, decision } = context(c, params, design, plan, o);
  const { reps, verdict, early } = await verdictOf(c, design, plan, ctx, decision);
  return {
    id: c.id,
    model: c.model,
    setting: c.setting,
    source: c.source,
    test: design.test,
    rule: design.rule,
    ...verdict,
    runs: runs(),
    qualified: reps.length,
    replicates: plan.replicates,
    attempts: plan.attempts,
    alpha,
    deviation: { label: design.deviation.label, mean: design.deviation.mean },
    power: plan.power,
    needed: plan.needed,
    values: reps.map((x) => x.value),
    ...(o.perturb ? { perturbation: perturbationRow(c, design, plan, o.perturb, verdict.pass) } : {}),
    ...(early ? { decidedEarly: true as const } : {}),
  };
}

/**
 * Runs validation cases one after the other. The battery's false-failure rate on a correct
 * model is `familyAlpha` (1%), split evenly over the cases run (Bonferroni: each case's α is
 * 1%/m); each case's replicates are planned for 95% power at its stated deviation.
 */
export async function runBattery(
  cases: readonly ValidationCase[],
  o: BatteryOptions = {},
): Promise<ValidationRow[]> {
  const chosen = choose(cases, o);
  // every perturbed parameter set is checked before the first run
  if (o.perturb) for (const c of chosen) checkedPerturbation(c, o.perturb);
  const alpha = (o.familyAlpha ?? FAMILY_ALPHA) / chosen.length;
  const rows: ValidationRow[] = [];
  for (const c of chosen) {
    const row = await runCase(c, alpha, o);
    rows.push(row);
    o.onCase?.(row);
  }
  return rows;
}

/** Exit status of a battery: every case passes; under `--perturb`, every case that must detect it fails. */
export function batteryPassed(rows: readonly ValidationRow[]): boolean {
  return rows.every((r) => (r.perturbation ? !r.perturbation.mustDetect || r.perturbation.detected : r.pass));
}

import type { Json } from '../core/index.ts';
import type { WorldDefinition } from '../world/define-world.ts';
import type { RunOptions, RunResult } from '../world/runner.ts';

/**
 * How a case judges its statistic:
 * - `mean`: the mean over replicates of a per-run value, approximately normal, with the
 *   per-run sd known from theory (never from the runs);
 * - `proportion`: the frequency of 1s among 0/1 replicates, judged with exact binomial bounds;
 * - `exact`: every replicate must lie within its own rigorous bound (a deterministic check:
 *   rounding and stop tolerance only, no sampling error).
 */
export type CaseTest = 'mean' | 'proportion' | 'exact';

/** The smallest deviation from the model that a case must detect, and the statistic under it. */
export interface Deviation {
  /** In words, e.g. `β × 1.05 (a 5% error in the transmission rate)`. */
  label: string;
  /** Per-run mean of the statistic under the deviation (`proportion`: its probability). */
  mean: number;
  /** Per-run sd under the deviation (`mean` tests; ignored otherwise). */
  sd: number;
}

/**
 * Everything a case's verdict depends on, fixed from the model's parameters before any run:
 * the prediction, the per-run spread the prediction implies, the largest error the prediction
 * may carry (finite size, approximation), and the deviation the case must detect.
 */
export interface CaseDesign {
  test: CaseTest;
  /** Per-run mean of the statistic under the model (`proportion`: the probability of a 1). */
  predicted: number;
  /** Per-run sd under the model (`mean` tests; `proportion` uses √(P(1−P)); `exact` none). */
  sd: number;
  /** Third standardized moment of one run's value under the model, for `mean` tests of skewed laws (default 0). */
  skewness?: number;
  /** Largest error of `predicted` (finite size, approximations), added to the band; 0 when exact. */
  bias: number;
  /** Where `predicted`, `sd` and `bias` come from (sources, derivations). */
  rule: string;
  /** The smallest deviation the case must detect with ≥ 95% power. */
  deviation: Deviation;
  /** Lower bound of the probability that a run qualifies (counts as a replicate); 1 when all do. */
  qualify: number;
  /**
   * `[min, max]` that every replicate's value lies in by construction, whatever the model does
   * (a fraction of the agents: [0, 1]; a count capped at C: [0, C]), for a `mean` case whose
   * replicates bring no prediction or variance of their own. Read only by the battery's
   * `stopWhenDecided`, to bound the replicates still to come; planning and bands ignore it.
   */
  valueRange?: readonly [number, number];
}

/**
 * One replicate's contribution. Without `predicted`/`variance` the design's values apply;
 * cases whose prediction depends on what the run drew (a network, a placement) give their own.
 * `exact` tests give `bound`, the rigorous half-width for that replicate.
 */
export interface Replicate {
  value: number;
  predicted?: number;
  variance?: number;
  bound?: number;
}

/** What a case's `run` is handed by the battery. */
export interface CaseContext {
  /** Qualified replicates the verdict needs. */
  readonly replicates: number;
  /** Most runs the case may make to get them. */
  readonly attempts: number;
  /**
   * Runs attempt `k` (0-based) of the case: its world with its params (with `--perturb`
   * applied), the seed of the documented rule (see `replicateSeed`), and `extra` options.
   */
  run(k: number, extra?: Pick<RunOptions, 'onReady' | 'onTick' | 'shouldStop' | 'ticks'>): Promise<RunResult>;
  /**
   * Set only under the battery's `stopWhenDecided`: true once the case is sure to fail, given
   * its qualified replicates so far and the attempts used, whatever the remaining attempts
   * give. A case's loop stops there (`collectReplicates` does).
   */
  decided?(replicates: readonly Replicate[], attemptsUsed: number): boolean;
}

/**
 * One case of `grapevine validate`: a model in a classic setting against its published
 * result, with its statistic's law fixed in advance (docs/VALIDATION.md).
 */
export interface ValidationCase {
  /** E.g. `maki-thompson-well-mixed`. */
  id: string;
  /** E.g. `Maki–Thompson (1973)`. */
  model: string;
  /** What is run and what is measured. */
  setting: string;
  /** The citation of the prediction (also in docs/VALIDATION.md). */
  source: string;
  /** Part of `grapevine validate --quick`. */
  quick: boolean;
  /** The world every run uses (tests hand in broken variants). */
  world: WorldDefinition;
  /** The world parameters of every run. */
  params: Record<string, Json>;
  /** Keys of `params` the prediction depends on: `--perturb KEY=F` runs the case only if KEY is here. */
  reads: readonly string[];
  /** The design at these parameters (called with perturbed ones to compute the power of `--perturb`). */
  design(params: Record<string, Json>): CaseDesign;
  /** Most qualified replicates the case may use in the full battery (its time budget). */
  maxReplicates: number;
  /** The same for `--quick`. */
  quickReplicates: number;
  /** Fewest replicates whatever the power says (e.g. 100 for a cascade size). */
  minReplicates?: number;
  /** Runs the case: qualified replicates, in attempt order (at most `ctx.replicates`). */
  run(ctx: CaseContext): Promise<Replicate[]>;
}

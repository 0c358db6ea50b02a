import { SeededStream } from '../core/index.ts';
import {
  type MeanCi,
  meanCi,
  type PairedComparison,
  pairedComparison,
  type WelchTTestResult,
  welchTTest,
} from '../stats/index.ts';
import type { ForkBatch } from './fork-batch.ts';
import type { ForkChild } from './fork-child.ts';

/** The effect of a batch's treatment on one outcome. */
export interface OutcomeEffect {
  outcome: string;
  /** The value every child ended with, when they all agree (nothing to analyse); else null. */
  constant: number | null;
  /** Each arm's mean with its t interval. */
  control: MeanCi;
  treated: MeanCi;
  /** The paired analysis (pairs in seed order), when the children pair. */
  paired: PairedComparison | null;
  /** The unpaired analysis (Welch) of the same values. */
  welch: WelchTTestResult;
}

/** Random sign vectors drawn per outcome when a batch has more than 16 pairs. */
export const SIGN_FLIP_DRAWS = 9999;

/**
 * The seeded stream of an outcome's sign flips: a function of the batch's fork point and
 * the outcome only, so the same batch gives the same intervals on every machine and an
 * outcome's interval does not depend on which other outcomes there are.
 */
function flipStream(key: string, outcome: string): () => number {
  const s = new SeededStream(`grapevine-sign-flips|${key}|${outcome}`);
  return () => s.next();
}

/** The outcomes of a child: `ticks` (its tick count) and its final metrics. */
function outcomeValue(c: ForkChild, outcome: string): number {
  if (outcome === 'ticks') return c.lastTick;
  const v = c.final[outcome.slice('metric.'.length)];
  return typeof v === 'number' ? v : Number.NaN;
}

/** The outcome names of a batch: `ticks`, then `metric.<name>` for every final metric, sorted. */
export function batchOutcomes(batch: ForkBatch): string[] {
  const keys = new Set<string>();
  for (const c of [...batch.control, ...batch.treated]) for (const k of Object.keys(c.final)) keys.add(k);
  return ['ticks', ...[...keys].sort().map((k) => `metric.${k}`)];
}

/**
 * The treatment's effect on every outcome of a batch (treated − control): when the children
 * pair (see readForkBatch), the paired analysis of the per-pair differences (paired t,
 * sign-flip interval with seeded flips, correlation, variance ratio); always the arms'
 * means and the unpaired Welch analysis. An outcome on which every child agrees is marked
 * `constant`.
 */
export function batchEffects(batch: ForkBatch, level = 0.95): OutcomeEffect[] {
  const key = `${batch.parentDigest}|${batch.atTick}`;
  return batchOutcomes(batch).map((outcome) => {
    const c = (batch.pairs?.map((p) => p.control) ?? batch.control).map((x) => outcomeValue(x, outcome));
    const t = (batch.pairs?.map((p) => p.treated) ?? batch.treated).map((x) => outcomeValue(x, outcome));
    const all = [...c, ...t];
    const constant = all.every((v) => Object.is(v, all[0])) ? all[0] : null;
    const paired = batch.pairs
      ? pairedComparison(c, t, { level, rng: flipStream(key, outcome), draws: SIGN_FLIP_DRAWS })
      : null;
    return {
      outcome,
      constant,
      control: meanCi(c, level),
      treated: meanCi(t, level),
      paired,
      welch: welchTTest(c, t, level),
    };
  });
}

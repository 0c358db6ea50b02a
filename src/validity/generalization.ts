import { bootstrapCi, type EstimateCi } from '../stats/index.ts';
import type { SurveyAnswer } from './answers.ts';
import { compareAnswers } from './compare-answers.ts';
import type { HumanDistribution } from './read-human.ts';
import { seededUniform } from './seeded-rng.ts';

/** One candidate set-up (prompt variant, persona format, temperature, model) and its answers. */
export interface Variant {
  name: string;
  answers: readonly SurveyAnswer[];
}

/** What {@link generalization} reports. */
export interface GeneralizationReport {
  calibrationItems: string[];
  holdoutItems: string[];
  /** Mean TV of every variant on the calibration split (the only data used to choose). */
  calibration: { variant: string; tv: number }[];
  chosen: string;
  /** Mean TV of the chosen variant on the held-out split, with a bootstrap CI over its rows. */
  holdout: EstimateCi;
}

/** Splits item ids (sorted first) into calibration and held-out sets by a seeded shuffle. */
export function splitItems(
  items: readonly string[],
  holdoutShare: number,
  seed: number,
): [string[], string[]] {
  const xs = [...new Set(items)].sort();
  const rng = seededUniform(`split/${seed}`);
  for (let i = xs.length - 1; i > 0; i--) {
    const j = Math.floor(rng() * (i + 1));
    [xs[i], xs[j]] = [xs[j], xs[i]];
  }
  const k = Math.max(1, Math.min(xs.length - 1, Math.round(xs.length * holdoutShare)));
  return [xs.slice(k).sort(), xs.slice(0, k).sort()];
}

function rowsTv(v: Variant, human: readonly HumanDistribution[], seed: number): number[] {
  return compareAnswers(v.answers, human, { seed, replicates: 1, splits: 1 }).rows.map((r) => r.tv.estimate);
}

const mean = (xs: number[]) => (xs.length === 0 ? Number.NaN : xs.reduce((s, x) => s + x, 0) / xs.length);

/**
 * Calibrate, then test on data not used to calibrate: the items are split (seeded) into a
 * calibration and a held-out set; each variant's mean total variation over the
 * calibration rows (item × group) picks the best; only that variant is then scored on the
 * held-out rows, which played no part in the choice.
 */
export function generalization(
  variants: readonly Variant[],
  human: readonly HumanDistribution[],
  opts: { seed: number; holdoutShare?: number; replicates?: number },
): GeneralizationReport {
  const [calibrationItems, holdoutItems] = splitItems(
    human.map((h) => h.item),
    opts.holdoutShare ?? 0.5,
    opts.seed,
  );
  const cal = human.filter((h) => calibrationItems.includes(h.item));
  const calibration = variants.map((v) => ({ variant: v.name, tv: mean(rowsTv(v, cal, opts.seed)) }));
  const best = calibration.reduce((a, b) => (b.tv < a.tv ? b : a));
  const chosen = variants.find((v) => v.name === best.variant) as Variant;
  const held = rowsTv(
    chosen,
    human.filter((h) => holdoutItems.includes(h.item)),
    opts.seed,
  );
  const holdout = bootstrapCi(held, mean, {
    replicates: opts.replicates ?? 1000,
    rng: seededUniform(`generalization/${opts.seed}`),
  });
  return { calibrationItems, holdoutItems, calibration, chosen: chosen.name, holdout };
}

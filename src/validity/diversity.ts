import { bootstrapCi, type EstimateCi } from '../stats/index.ts';
import { inGroup } from './answer-shares.ts';
import type { SurveyAnswer } from './answers.ts';
import type { Shares } from './distances.ts';
import type { HumanDistribution } from './read-human.ts';
import { seededUniform } from './seeded-rng.ts';

/** Diversity of the simulated answers of one item and group against the human reference. */
export interface DiversityRow {
  item: string;
  group: string;
  nSim: number;
  /** Var(sim) / Var(human) on the numeric scale (NaN when the options are not numbers). */
  varianceRatio: EstimateCi;
  /** H(sim) / H(human), Shannon entropies in bits of the option shares. */
  entropyRatio: EstimateCi;
  distinctSim: number;
  /** Options with a non-zero human share. */
  distinctHuman: number;
}

/** Shannon entropy in bits of a distribution. */
export function entropyBits(p: Shares): number {
  let h = 0;
  for (const v of Object.values(p)) if (v > 0) h -= v * Math.log2(v);
  return h;
}

function sharesOf(values: readonly string[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const v of values) out[v] = (out[v] ?? 0) + 1 / values.length;
  return out;
}

function humanVariance(shares: Shares): number {
  const keys = Object.keys(shares);
  if (!keys.every((k) => Number.isFinite(Number(k)))) return Number.NaN;
  const m = keys.reduce((s, k) => s + Number(k) * shares[k], 0);
  return keys.reduce((s, k) => s + shares[k] * (Number(k) - m) ** 2, 0);
}

/** Population variance (denominator n), the same estimator as the human side's. */
function variance(xs: readonly number[]): number {
  if (xs.length === 0) return Number.NaN;
  const m = xs.reduce((s, x) => s + x, 0) / xs.length;
  return xs.reduce((s, x) => s + (x - m) ** 2, 0) / xs.length;
}

/**
 * Variance compression and answer diversity per item and group of the human reference:
 * the ratio of simulated to human variance (numeric answers taken as numbers, options as
 * their numeric ids), the ratio of Shannon entropies of the option shares, and the number
 * of distinct answers; ratios below 1 mean the simulated population is more homogeneous
 * than the people. Bootstrap CIs resample the simulated answers (seeded).
 */
export function diversity(
  answers: readonly SurveyAnswer[],
  human: readonly HumanDistribution[],
  opts: { seed: number; replicates?: number; phase?: SurveyAnswer['phase'] },
): DiversityRow[] {
  const replicates = opts.replicates ?? 1000;
  const phase = opts.phase ?? 'initial';
  return human.map((h) => {
    const mine = answers.filter((a) => a.item === h.item && a.phase === phase && inGroup(a, h.group));
    const labels = mine.map((a) => String(a.answer));
    const codes = labels.map((_, i) => i);
    const hv = humanVariance(h.shares);
    const hh = entropyBits(h.shares);
    const seed = `diversity/${opts.seed}/${h.item}/${h.groupLabel}`;
    const nums = mine.map((a) => Number(a.answer));
    return {
      item: h.item,
      group: h.groupLabel,
      nSim: mine.length,
      varianceRatio: bootstrapCi(codes, (ix) => variance(ix.map((i) => nums[i])) / hv, {
        replicates,
        rng: seededUniform(`${seed}/var`),
      }),
      entropyRatio: bootstrapCi(codes, (ix) => entropyBits(sharesOf(ix.map((i) => labels[i]))) / hh, {
        replicates,
        rng: seededUniform(`${seed}/entropy`),
      }),
      distinctSim: new Set(labels).size,
      distinctHuman: Object.values(h.shares).filter((v) => v > 0).length,
    };
  });
}

/**
 * Distinct-n of free texts (Li et al. 2016, NAACL, "A diversity-promoting objective"): the
 * number of distinct word n-grams divided by the total number of n-grams over all texts
 * (lower-cased, split on non-letters/digits). 0 when there are no n-grams.
 */
export function distinctN(texts: readonly string[], n: number): number {
  const seen = new Set<string>();
  let total = 0;
  for (const t of texts) {
    const w = t
      .toLowerCase()
      .split(/[^\p{L}\p{N}']+/u)
      .filter(Boolean);
    for (let i = 0; i + n <= w.length; i++) {
      seen.add(w.slice(i, i + n).join(' '));
      total++;
    }
  }
  return total === 0 ? 0 : seen.size / total;
}

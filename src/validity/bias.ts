import { bootstrapCi, type EstimateCi } from '../stats/index.ts';
import { inGroup } from './answer-shares.ts';
import type { SurveyAnswer } from './answers.ts';
import type { HumanDistribution } from './read-human.ts';
import { seededUniform } from './seeded-rng.ts';

/** Error of one group's simulated mean against the human mean. */
export interface GroupError {
  item: string;
  group: string;
  nSim: number;
  simMean: number;
  humanMean: number;
  /** simMean − humanMean with a bootstrap CI over the simulated answers. */
  error: EstimateCi;
}

/** Group-gap error of two groups on one item. */
export interface GapError {
  item: string;
  groupA: string;
  groupB: string;
  simGap: number;
  humanGap: number;
  /** (sim_A − sim_B) − (human_A − human_B), with a bootstrap CI over respondents of both groups. */
  gapError: EstimateCi;
}

/** Options of {@link bias}. */
export interface BiasOptions {
  seed: number;
  replicates?: number;
  phase?: SurveyAnswer['phase'];
}

function humanMean(h: HumanDistribution): number {
  return Object.entries(h.shares).reduce((s, [k, v]) => s + Number(k) * v, 0);
}

function meanOf(xs: readonly number[]): number {
  return xs.length === 0 ? Number.NaN : xs.reduce((s, x) => s + x, 0) / xs.length;
}

/**
 * Per-group error and group-gap error on a numeric scale (numeric answers, or Likert/choice
 * options whose ids are numbers): for every reference group, the simulated mean minus the
 * human mean; for every pair of reference groups of an item that share one attribute key
 * (e.g. gender=f and gender=m), the simulated gap minus the human gap. A simulator can
 * match every marginal and still shrink or invert the difference between groups; the gap
 * error shows that. CIs are percentile bootstraps over simulated respondents (seeded).
 */
export function bias(
  answers: readonly SurveyAnswer[],
  human: readonly HumanDistribution[],
  opts: BiasOptions,
): { groups: GroupError[]; gaps: GapError[] } {
  const replicates = opts.replicates ?? 1000;
  const phase = opts.phase ?? 'initial';
  const numeric = human.filter((h) => Object.keys(h.shares).every((k) => Number.isFinite(Number(k))));
  const valuesOf = (h: HumanDistribution) =>
    answers
      .filter((a) => a.item === h.item && a.phase === phase && inGroup(a, h.group))
      .map((a) => Number(a.answer));
  const groups = numeric.map((h) => {
    const xs = valuesOf(h);
    const hm = humanMean(h);
    const rng = seededUniform(`bias/${opts.seed}/${h.item}/${h.groupLabel}`);
    return {
      item: h.item,
      group: h.groupLabel,
      nSim: xs.length,
      simMean: meanOf(xs),
      humanMean: hm,
      error: bootstrapCi(xs, (s) => meanOf(s) - hm, { replicates, rng }),
    };
  });
  const gaps: GapError[] = [];
  for (let i = 0; i < numeric.length; i++)
    for (let j = i + 1; j < numeric.length; j++) {
      const [a, b] = [numeric[i], numeric[j]];
      if (a.item !== b.item || !sameKeys(a.group, b.group)) continue;
      gaps.push(gapOf(a, b, valuesOf(a), valuesOf(b), { ...opts, replicates }));
    }
  return { groups, gaps };
}

function sameKeys(a: Record<string, string>, b: Record<string, string>): boolean {
  const ka = Object.keys(a).sort().join(',');
  return ka !== '' && ka === Object.keys(b).sort().join(',');
}

function gapOf(
  a: HumanDistribution,
  b: HumanDistribution,
  xa: number[],
  xb: number[],
  o: BiasOptions,
): GapError {
  const humanGap = humanMean(a) - humanMean(b);
  // respondents coded as ±(index + 1): the sign says the group, so a resample keeps both
  const coded = [...xa.map((_, i) => i + 1), ...xb.map((_, i) => -(i + 1))];
  const stat = (s: number[]) =>
    meanOf(s.filter((c) => c > 0).map((c) => xa[c - 1])) -
    meanOf(s.filter((c) => c < 0).map((c) => xb[-c - 1])) -
    humanGap;
  const gapError = bootstrapCi(coded, stat, {
    replicates: o.replicates ?? 1000,
    rng: seededUniform(`bias-gap/${o.seed}/${a.item}/${a.groupLabel}/${b.groupLabel}`),
  });
  return {
    item: a.item,
    groupA: a.groupLabel,
    groupB: b.groupLabel,
    simGap: gapError.estimate + humanGap,
    humanGap,
    gapError,
  };
}

import { bootstrapCi } from '../stats/index.ts';
import { inGroup, optionOf, sharesOfCodes } from './answer-shares.ts';
import type { SurveyAnswer } from './answers.ts';
import { isNumericSupport, jensenShannon, type Shares, totalVariation, wasserstein1 } from './distances.ts';
import { splitHalfFloor } from './noise-floor.ts';
import type { HumanDistribution } from './read-human.ts';
import { seededUniform as rngOf } from './seeded-rng.ts';

/** Options of {@link compareAnswers}. */
export interface CompareOptions {
  /** Seed of the bootstrap and split-half draws. */
  seed: number;
  /** Bootstrap resamples per metric and row (default 1000). */
  replicates?: number;
  /** Split-half shuffles for the noise floor (default 200). */
  splits?: number;
  /** Which answers to compare (default `initial`). */
  phase?: SurveyAnswer['phase'];
}

/** A distance with its bootstrap CI and its split-half noise floor. */
export interface MetricScore {
  estimate: number;
  lo: number;
  hi: number;
  /** Split-half distance within the human sample (what a perfect simulator would score). */
  floor: number;
  /** (1 − estimate) / (1 − floor): the share of attainable similarity (TV and JS only; NaN for W1). */
  attainable: number;
}

/** The comparison of one item in one group. */
export interface CompareRow {
  item: string;
  group: string;
  nSim: number;
  nHuman: number;
  source: string;
  simShares: Record<string, number>;
  humanShares: Record<string, number>;
  tv: MetricScore;
  js: MetricScore;
  /** Present when the options are numbers (ordinal or numeric items). */
  w1?: MetricScore;
}

/** The result of {@link compareAnswers}. */
export interface CompareReport {
  rows: CompareRow[];
  /** Means over the rows that had simulated answers. */
  overall: { tv: number; js: number; w1: number; tvAttainable: number; jsAttainable: number };
  /** Human rows without any simulated answer (item × group). */
  missing: string[];
  seed: number;
  replicates: number;
  splits: number;
  phase: SurveyAnswer['phase'];
}

type Distance = (p: Shares, q: Shares) => number;

function score(
  codes: number[],
  options: string[],
  human: HumanDistribution,
  d: Distance,
  o: { seed: string; replicates: number; splits: number },
): MetricScore {
  const stat = (xs: number[]) => d(sharesOfCodes(xs, options), human.shares);
  const ci = bootstrapCi(codes, stat, { replicates: o.replicates, rng: rngOf(`${o.seed}/boot`) });
  const floor = splitHalfFloor(human.shares, human.n, d, { splits: o.splits, rng: rngOf(`${o.seed}/split`) });
  const bounded = d !== wasserstein1;
  return { ...ci, floor, attainable: bounded ? (1 - ci.estimate) / (1 - floor) : Number.NaN };
}

function compareRow(
  answers: readonly SurveyAnswer[],
  h: HumanDistribution,
  o: Required<CompareOptions>,
): CompareRow {
  const options = Object.keys(h.shares);
  const mine = answers.filter((a) => a.item === h.item && a.phase === o.phase && inGroup(a, h.group));
  for (const a of mine) {
    const k = optionOf(a, options);
    if (!options.includes(k)) options.push(k);
  }
  const codes = mine.map((a) => options.indexOf(optionOf(a, options)));
  const simShares = sharesOfCodes(codes, options);
  const base = {
    seed: `compare/${o.seed}/${h.item}/${h.groupLabel}`,
    replicates: o.replicates,
    splits: o.splits,
  };
  const row: CompareRow = {
    item: h.item,
    group: h.groupLabel,
    nSim: mine.length,
    nHuman: h.n,
    source: h.source,
    simShares,
    humanShares: { ...h.shares },
    tv: score(codes, options, h, totalVariation, { ...base, seed: `${base.seed}/tv` }),
    js: score(codes, options, h, jensenShannon, { ...base, seed: `${base.seed}/js` }),
  };
  if (isNumericSupport(simShares, h.shares))
    row.w1 = score(codes, options, h, wasserstein1, { ...base, seed: `${base.seed}/w1` });
  return row;
}

function mean(xs: number[]): number {
  const ok = xs.filter((x) => Number.isFinite(x));
  return ok.length === 0 ? Number.NaN : ok.reduce((s, x) => s + x, 0) / ok.length;
}

/**
 * Compares simulated answers with human reference distributions, per item and group (the
 * groups of the reference file): total variation, Jensen–Shannon (bits) and, for numeric
 * options, Wasserstein-1, each with a percentile bootstrap CI over the simulated answers
 * (the reference held fixed) and a split-half noise floor from the human sample. Seeded:
 * the same inputs and seed give the same report.
 */
export function compareAnswers(
  answers: readonly SurveyAnswer[],
  human: readonly HumanDistribution[],
  opts: CompareOptions,
): CompareReport {
  const o: Required<CompareOptions> = { replicates: 1000, splits: 200, phase: 'initial', ...opts };
  const rows: CompareRow[] = [];
  const missing: string[] = [];
  for (const h of human) {
    const row = compareRow(answers, h, o);
    if (row.nSim === 0) missing.push(`${h.item} [${h.groupLabel}]`);
    else rows.push(row);
  }
  const overall = {
    tv: mean(rows.map((r) => r.tv.estimate)),
    js: mean(rows.map((r) => r.js.estimate)),
    w1: mean(rows.map((r) => r.w1?.estimate ?? Number.NaN)),
    tvAttainable: mean(rows.map((r) => r.tv.attainable)),
    jsAttainable: mean(rows.map((r) => r.js.attainable)),
  };
  return { rows, overall, missing, seed: o.seed, replicates: o.replicates, splits: o.splits, phase: o.phase };
}

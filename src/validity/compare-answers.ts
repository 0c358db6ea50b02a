import type { EstimateCi } from '../stats/index.ts';
import { inGroup, optionOf, sharesOfCodes } from './answer-shares.ts';
import type { SurveyAnswer } from './answers.ts';
import type { HumanDistribution } from './read-human.ts';
import { seededIndexUniform as rngOf } from './seeded-rng.ts';
import { bootstrapTriple, splitHalfTriple, TripleDistance } from './shared-resample.ts';

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

function metric(ci: EstimateCi, floor: number, bounded: boolean): MetricScore {
  return { ...ci, floor, attainable: bounded ? (1 - ci.estimate) / (1 - floor) : Number.NaN };
}

function compareRow(
  byItem: ReadonlyMap<string, SurveyAnswer[]>,
  h: HumanDistribution,
  o: Required<CompareOptions>,
): CompareRow {
  const options = Object.keys(h.shares);
  const mine = (byItem.get(h.item) ?? []).filter((a) => inGroup(a, h.group));
  for (const a of mine) {
    const k = optionOf(a, options);
    if (!options.includes(k)) options.push(k);
  }
  const codes = mine.map((a) => options.indexOf(optionOf(a, options)));
  const simShares = sharesOfCodes(codes, options);
  const human = Float64Array.from(options, (k) => h.shares[k] ?? 0);
  const dist = new TripleDistance(options);
  const seed = `compare/${o.seed}/${h.item}/${h.groupLabel}`;
  const cis = bootstrapTriple(codes, human, dist, { replicates: o.replicates, rng: rngOf(`${seed}/boot`) });
  const floors = splitHalfTriple(human, h.n, dist, { splits: o.splits, rng: rngOf(`${seed}/split`) });
  const row: CompareRow = {
    item: h.item,
    group: h.groupLabel,
    nSim: mine.length,
    nHuman: h.n,
    source: h.source,
    simShares,
    humanShares: { ...h.shares },
    tv: metric(cis[0], floors[0], true),
    js: metric(cis[1], floors[1], true),
  };
  if (dist.numeric) row.w1 = metric(cis[2], floors[2], false);
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
 * (the reference held fixed) and a split-half noise floor from the human sample. The three
 * metrics share one set of resamples and one set of splits per row. Seeded: the same
 * inputs and seed give the same report.
 */
export function compareAnswers(
  answers: readonly SurveyAnswer[],
  human: readonly HumanDistribution[],
  opts: CompareOptions,
): CompareReport {
  const o: Required<CompareOptions> = { replicates: 1000, splits: 200, phase: 'initial', ...opts };
  const rows: CompareRow[] = [];
  const missing: string[] = [];
  const byItem = new Map<string, SurveyAnswer[]>();
  for (const a of answers) {
    if (a.phase !== o.phase) continue;
    const list = byItem.get(a.item);
    if (list) list.push(a);
    else byItem.set(a.item, [a]);
  }
  for (const h of human) {
    const row = compareRow(byItem, h, o);
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

import * as stats from '../stats/index.ts';
import { averageBy, holm } from '../stats/index.ts';
import type { EpisodeRow, ReportDimension } from './report.ts';
import type { PairedTTest } from './stats.ts';

/**
 * A scenario-level paired test with its effect size and Holm-adjusted p: `dz` is Cohen's
 * d for paired data (mean difference / SD of the differences) with its 95% CI, `pHolm` the
 * p-value adjusted over every comparison and dimension the report shows.
 */
export type PairedEffect = PairedTTest & {
  pHolm: number | null;
  dz: number | null;
  dzCi95: [number, number] | null;
};

/** The unit over which modes are paired: a scenario and a pair of characters. */
function unitOf(r: EpisodeRow): string {
  return `${r.envId}/p${r.pair}`;
}

const finite = (x: number): number | null => (Number.isFinite(x) ? x : null);

/**
 * `b − a` on one dimension: the (scenario, pair) units both modes scored are kept, each
 * scenario's episodes are averaged per mode ({@link averageBy}), then the scenarios are
 * paired ({@link stats.pairedTTest}). `pHolm` is filled in by {@link scenarioPairedTests}.
 */
export function scenarioPairedTest(
  rowsA: readonly EpisodeRow[],
  rowsB: readonly EpisodeRow[],
  value: (r: EpisodeRow) => number,
): PairedEffect {
  const inB = new Set(rowsB.map(unitOf));
  const inA = new Set(rowsA.map(unitOf));
  const a = averageBy(
    rowsA.filter((r) => inB.has(unitOf(r))),
    (r) => r.envId,
    value,
  );
  const b = averageBy(
    rowsB.filter((r) => inA.has(unitOf(r))),
    (r) => r.envId,
    value,
  );
  const keys = [...a.keys()];
  const r = stats.pairedTTest(
    keys.map((k) => a.get(k)!),
    keys.map((k) => b.get(k)!),
  );
  const n = r.n;
  const none = { t: null, df: null, p: null, ci95: null, pHolm: null, dz: null, dzCi95: null };
  if (n === 0) return { n, meanDiff: null, sd: null, se: null, ...none };
  if (n < 2 || r.se === 0)
    return { n, meanDiff: r.meanDiff, sd: n < 2 ? null : r.sd, se: n < 2 ? null : r.se, ...none };
  return {
    n,
    meanDiff: r.meanDiff,
    sd: r.sd,
    se: r.se,
    t: r.t,
    df: r.df,
    p: r.p,
    ci95: [r.lo, r.hi],
    pHolm: null,
    dz: finite(r.dz),
    dzCi95: [r.dzLo, r.dzHi],
  };
}

/**
 * Every later − earlier pair of `modes`, per dimension, at the scenario level (see
 * {@link scenarioPairedTest}), with Holm's adjustment over all the p-values returned
 * (comparisons × dimensions): the family is what the report shows.
 */
export function scenarioPairedTests(
  modes: readonly string[],
  rows: readonly EpisodeRow[],
  dimensions: readonly ReportDimension[],
): { a: string; b: string; dimensions: Record<ReportDimension, PairedEffect> }[] {
  const scored = (m: string) => rows.filter((r) => r.mode === m && r.scores && !r.missing);
  const out = modes.flatMap((a, i) =>
    modes.slice(i + 1).map((b) => ({
      a,
      b,
      dimensions: Object.fromEntries(
        dimensions.map((d) => [d, scenarioPairedTest(scored(a), scored(b), (r) => r.scores!.mean[d])]),
      ) as Record<ReportDimension, PairedEffect>,
    })),
  );
  const all = out.flatMap((c) => dimensions.map((d) => c.dimensions[d]));
  const adjusted = holm(all.map((t) => t.p ?? Number.NaN));
  all.forEach((t, k) => {
    t.pHolm = finite(adjusted[k]);
  });
  return out;
}

import { averageBy, holm, mcnemar, pairedTTest, wilson } from '../../../src/public/analysis.ts';
import type { StudyConfig } from './plan.ts';
import type { EpisodeRow, ReportDimension } from './report-rows.ts';

/** A number for JSON: NaN and infinities become null. */
function num(x: number): number | null {
  return Number.isFinite(x) ? x : null;
}

/** One paired comparison of two modes on one dimension, at the scenario level. */
export interface ModeTest {
  a: string;
  b: string;
  dimension: ReportDimension;
  /** Scenarios both modes scored (pairs and seatings averaged within each first). */
  n: number;
  meanDiff: number | null;
  ci95: [number | null, number | null];
  t: number | null;
  df: number | null;
  p: number | null;
  /** Holm-adjusted over every test of the report's `tests`. */
  pHolm: number | null;
  /** Effect size d_z with its 95% CI (Hedges & Olkin normal approximation). */
  dz: number | null;
  dzCi95: [number | null, number | null];
}

/** A rate with its Wilson 95% interval. */
export interface RateCi {
  mode: string;
  successes: number;
  n: number;
  rate: number | null;
  ci95: [number | null, number | null];
}

/** McNemar's test of a binary outcome between two modes over the same episodes' units. */
export interface BinaryTest {
  a: string;
  b: string;
  /** Units where only `a` succeeded (b = a yes, b no) and only `b` (c). */
  onlyA: number;
  onlyB: number;
  statistic: number | null;
  p: number | null;
  exact: boolean;
}

/** The report's inferential statistics (src/stats). */
export interface ReportStatistics {
  tests: ModeTest[];
  deal: { rates: RateCi[]; mcnemar: BinaryTest[] };
  found: { rates: RateCi[]; mcnemar: BinaryTest[] };
}

const unitKey = (r: EpisodeRow) => `${r.envId}/p${r.pair}${r.order ? `/${r.order}` : ''}`;

function modePairs(modes: readonly string[]): [string, string][] {
  return modes.flatMap((a, i) => modes.slice(i + 1).map((b) => [a, b] as [string, string]));
}

function modeTest(
  a: string,
  b: string,
  d: ReportDimension,
  rows: readonly EpisodeRow[],
): Omit<ModeTest, 'pHolm'> {
  const scoredIn = (m: string) => rows.filter((r) => r.mode === m && r.scores !== null);
  // only the (scenario, pair) units both modes scored are paired (an unpartnered episode
  // still counts in its mode's means)
  const units = (m: string) => new Set(scoredIn(m).map(unitKey));
  const [ua, ub] = [units(a), units(b)];
  const scored = (m: string) => scoredIn(m).filter((r) => ua.has(unitKey(r)) && ub.has(unitKey(r)));
  const ma = averageBy(
    scored(a),
    (r) => r.envId,
    (r) => r.scores!.mean[d],
  );
  const mb = averageBy(
    scored(b),
    (r) => r.envId,
    (r) => r.scores!.mean[d],
  );
  const keys = [...ma.keys()].filter((k) => mb.has(k));
  const t = pairedTTest(
    keys.map((k) => ma.get(k)!),
    keys.map((k) => mb.get(k)!),
  );
  return {
    a,
    b,
    dimension: d,
    n: t.n,
    meanDiff: num(t.meanDiff),
    ci95: [num(t.lo), num(t.hi)],
    t: num(t.t),
    df: num(t.df),
    p: num(t.p),
    dz: num(t.dz),
    dzCi95: [num(t.dzLo), num(t.dzHi)],
  };
}

function rates(
  modes: readonly string[],
  rows: readonly EpisodeRow[],
  hit: (r: EpisodeRow) => boolean | null,
) {
  return modes.map((mode): RateCi => {
    const outcomes = rows
      .filter((r) => r.mode === mode && !r.missing)
      .map(hit)
      .filter((x) => x !== null);
    const successes = outcomes.filter(Boolean).length;
    const w = wilson(successes, outcomes.length);
    return { mode, successes, n: outcomes.length, rate: num(w.p), ci95: [num(w.lo), num(w.hi)] };
  });
}

function mcnemars(
  modes: readonly string[],
  rows: readonly EpisodeRow[],
  hit: (r: EpisodeRow) => boolean | null,
) {
  return modePairs(modes).map(([a, b]): BinaryTest => {
    const of = (m: string) =>
      new Map(
        rows.filter((r) => r.mode === m && !r.missing && hit(r) !== null).map((r) => [unitKey(r), hit(r)!]),
      );
    const ya = of(a);
    const yb = of(b);
    let onlyA = 0;
    let onlyB = 0;
    for (const [k, x] of ya) {
      if (!yb.has(k)) continue;
      if (x && !yb.get(k)) onlyA++;
      if (!x && yb.get(k)) onlyB++;
    }
    const m = mcnemar(onlyA, onlyB);
    return { a, b, onlyA, onlyB, statistic: num(m.statistic), p: num(m.p), exact: m.exact };
  });
}

/**
 * Scenario-level paired t-tests between every two modes on every dimension (Holm across all
 * of them, raw and adjusted p, d_z with its CI), Wilson intervals of the deal and
 * found-friend rates, and McNemar's test of those outcomes between modes over the same units.
 */
export function buildStatistics(
  config: StudyConfig,
  rows: readonly EpisodeRow[],
  dimensions: readonly ReportDimension[],
): ReportStatistics {
  const raw = modePairs(config.modes).flatMap(([a, b]) => dimensions.map((d) => modeTest(a, b, d, rows)));
  const adjusted = holm(raw.map((t) => t.p ?? Number.NaN));
  const deal = (r: EpisodeRow) => (r.deal ? r.deal.deal : null);
  const found = (r: EpisodeRow) => (r.mention ? r.mention.turn !== null : null);
  return {
    tests: raw.map((t, k) => ({ ...t, pHolm: num(adjusted[k]) })),
    deal: { rates: rates(config.modes, rows, deal), mcnemar: mcnemars(config.modes, rows, deal) },
    found: { rates: rates(config.modes, rows, found), mcnemar: mcnemars(config.modes, rows, found) },
  };
}

const f = (x: number | null, digits = 3) => (x === null ? '—' : x.toFixed(digits));
const ci = (c: [number | null, number | null], digits = 2) => `${f(c[0], digits)} .. ${f(c[1], digits)}`;

/** The statistics as Markdown sections. */
export function statisticsMarkdown(s: ReportStatistics): string[] {
  const row = (cells: string[]) => `| ${cells.join(' | ')} |`;
  const head = (cells: string[]) => [row(cells), row(cells.map(() => '---'))];
  const rateTable = (title: string, x: { rates: RateCi[]; mcnemar: BinaryTest[] }) => [
    `### ${title}`,
    '',
    ...head(['mode', 'successes', 'n', 'rate', 'Wilson 95% CI']),
    ...x.rates.map((r) => row([r.mode, String(r.successes), String(r.n), f(r.rate), ci(r.ci95, 3)])),
    '',
    ...head(['b vs a', 'only a', 'only b', 'McNemar statistic', 'p', 'test']),
    ...x.mcnemar.map((m) =>
      row([
        `${m.b} vs ${m.a}`,
        String(m.onlyA),
        String(m.onlyB),
        f(m.statistic),
        f(m.p),
        m.exact ? 'exact' : 'chi-square',
      ]),
    ),
    '',
  ];
  return [
    '## Tests across modes (scenario level, Holm-adjusted)',
    '',
    'Per scenario, its episodes are averaged first; paired t-test of b − a over the scenarios both modes scored; Holm adjustment over every row of this table; d_z = mean difference / SD of the differences.',
    '',
    ...head(['b − a', 'dimension', 'n', 'mean diff', '95% CI', 'p', 'p (Holm)', 'd_z', 'd_z 95% CI']),
    ...s.tests.map((t) =>
      row([
        `${t.b} − ${t.a}`,
        t.dimension,
        String(t.n),
        f(t.meanDiff, 2),
        ci(t.ci95),
        f(t.p),
        f(t.pHolm),
        f(t.dz, 2),
        ci(t.dzCi95),
      ]),
    ),
    '',
    ...rateTable('Deal rate (Craigslist)', s.deal),
    ...rateTable('Shared friend found (MutualFriends)', s.found),
  ];
}

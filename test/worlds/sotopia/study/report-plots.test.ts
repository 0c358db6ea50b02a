import { describe, expect, it } from 'vitest';
import { DIMENSION_NAMES } from '../../../../worlds/sotopia/dimensions.ts';
import { importSotopia } from '../../../../worlds/sotopia/importer.ts';
import type { SotopiaEnvironment } from '../../../../worlds/sotopia/records.ts';
import { episodeSeed, type StudyConfig } from '../../../../worlds/sotopia/study/plan.ts';
import { buildReport } from '../../../../worlds/sotopia/study/report.ts';
import { renderReportHtml } from '../../../../worlds/sotopia/study/report-html.ts';
import { PLOT_LAYOUT } from '../../../../worlds/sotopia/study/report-plots.ts';
import {
  dimensionRange,
  type EpisodeResult,
  REPORT_DIMENSIONS,
  type ReportDimension,
} from '../../../../worlds/sotopia/study/report-rows.ts';
import type { SotopiaSummary } from '../../../../worlds/sotopia/summary.ts';

/** t(0.975, 2): both modes have n = 3 episodes; the paired tests n = 3 scenarios. */
const T2 = 4.302652729911275;

type Dims = Record<(typeof DIMENSION_NAMES)[number], number>;

/** Seven in-range scores from one base value; `overall` is their mean. */
function dims(base: number): Dims & { overall: number } {
  const d: Dims = {
    believability: base,
    relationship: base - 5,
    knowledge: base,
    secret: -base,
    social_rules: -1,
    financial_and_material_benefits: 0,
    goal: base,
  };
  return { ...d, overall: DIMENSION_NAMES.reduce((n, k) => n + d[k], 0) / 7 };
}

function result(
  e: SotopiaEnvironment,
  mode: 'agents' | 'script',
  scores: [number, number],
  pair = 0,
): EpisodeResult {
  const agent = (b: number) => ({
    ...dims(b),
    reasoning: Object.fromEntries(DIMENSION_NAMES.map((k) => [k, 'r'])),
  });
  const summary = {
    envId: e.env_id,
    codename: e.codename,
    source: e.source,
    mode,
    pair,
    relationship: e.relationship,
    agents: [],
    endReason: 'max-turns',
    turns: 1,
    words: 2,
    wordsBySeat: [2, 0],
    fallbackTurns: 0,
    transcript: [{ turn: 1, speaker: 0, name: 'A', action: 'speak', text: 'hello there', fallback: false }],
    scores: { agent0: agent(scores[0]), agent1: agent(scores[1]) },
    judge: { model: 'm', fallback: false, errors: [] },
  } as unknown as SotopiaSummary;
  const episode = {
    envId: e.env_id,
    codename: e.codename,
    source: e.source,
    pair,
    mode,
    seed: episodeSeed(1, e.env_id, pair),
    log: `episodes/${e.codename}-${mode}-${pair}.ndjson`,
    unit: `${e.env_id}/p${pair}`,
  };
  return { episode, summary, digest: 'd'.repeat(64), reason: 'episode-end' };
}

const envs = importSotopia()
  .environments.filter((e) => e.source === 'social_iqa')
  .slice(0, 3);
const config: StudyConfig = {
  kind: 'sotopia',
  modes: ['agents', 'script'],
  scenarios: envs.map((e) => e.env_id).join(','),
  pairs: 1,
  seed: 1,
  maxTurns: 20,
  model: 'grapevine-local',
  judgeModel: 'judge',
  judgeSame: false,
  protocol: 'zhou2024',
  rubric: 'basic',
  models: null,
  templates: '',
  templateHashes: {},
  data: '',
};
/** Per scenario the two characters' base scores: episode bases agents 4, 6, 8 and script 7, 7, 9. */
const SCORES: Record<'agents' | 'script', [number, number][]> = {
  agents: [
    [3, 5],
    [6, 6],
    [8, 8],
  ],
  script: [
    [7, 7],
    [6, 8],
    [9, 9],
  ],
};
const results = (['agents', 'script'] as const).flatMap((m) =>
  envs.map((e, k) => result(e, m, SCORES[m][k])),
);
const report = buildReport(config, envs, results);
const html = renderReportHtml(report);

/** Episode values of one dimension for one mode (each the mean of the two characters). */
const episodeValues = (mode: 'agents' | 'script', d: ReportDimension) =>
  SCORES[mode].map(([a, b]) => (dims(a)[d] + dims(b)[d]) / 2);

function meanCi(xs: number[]): { mean: number; lo: number; hi: number } {
  const mean = xs.reduce((s, x) => s + x, 0) / xs.length;
  const sd = Math.sqrt(xs.reduce((s, x) => s + (x - mean) ** 2, 0) / (xs.length - 1));
  const h = (T2 * sd) / Math.sqrt(xs.length);
  return { mean, lo: mean - h, hi: mean + h };
}

interface Mark {
  row: string;
  series: string;
  attrs: Record<string, string>;
  tag: string;
}

function marks(svg: string, cls: 'dot' | 'whisker'): Mark[] {
  const out: Mark[] = [];
  for (const m of svg.matchAll(/<(circle|rect|polygon|line) ([^>]*?)\/?>/g)) {
    const attrs = Object.fromEntries([...m[2].matchAll(/([\w-]+)="([^"]*)"/g)].map((a) => [a[1], a[2]]));
    if (attrs.class === cls)
      out.push({ row: attrs['data-row'], series: attrs['data-series'], attrs, tag: m[1] });
  }
  return out;
}

/** The horizontal centre of a marker, from its geometry only. */
function centreX(m: Mark): number {
  if (m.tag === 'circle') return Number(m.attrs.cx);
  if (m.tag === 'rect') return Number(m.attrs.x) + Number(m.attrs.width) / 2;
  const xs = m.attrs.points
    .split(' ')
    .filter((_, k) => k % 2 === 0)
    .map(Number);
  return (Math.min(...xs) + Math.max(...xs)) / 2;
}

const svgs = [
  ...html.matchAll(/<figure class="plot">(<svg [\s\S]*?<\/svg>)<figcaption>([\s\S]*?)<\/figcaption>/g),
];
const xOn = (lo: number, hi: number) => (v: number) =>
  PLOT_LAYOUT.left + ((v - lo) / (hi - lo)) * PLOT_LAYOUT.width;

describe('study report plots', () => {
  it('draws two captioned plots in the HTML page', () => {
    expect(svgs).toHaveLength(2);
    expect(svgs[0][2]).toContain('Figure 1. Mean Sotopia-EVAL score per dimension');
    expect(svgs[0][2]).toContain('95% confidence intervals');
    expect(svgs[0][2]).toContain('6 scored episodes (agents 3, script 3)');
    expect(svgs[1][2]).toContain('Figure 2. Paired differences between modes (b − a)');
    expect(svgs[1][2]).toContain('statistics.tests');
    expect(html).not.toMatch(/<script|<link|src=|href=|url\(/);
  });

  it('plot 1: one marker per (dimension, mode) at the mean, whiskers over the 95% CI', () => {
    const dots = marks(svgs[0][1], 'dot');
    const whiskers = marks(svgs[0][1], 'whisker');
    expect(dots).toHaveLength(REPORT_DIMENSIONS.length * 2);
    for (const d of REPORT_DIMENSIONS) {
      const { min, max } = dimensionRange(d);
      const x = xOn(min, max);
      for (const mode of ['agents', 'script'] as const) {
        const want = meanCi(episodeValues(mode, d));
        const dot = dots.filter((m) => m.row === d && m.series === mode);
        expect(dot, `${d} ${mode}`).toHaveLength(1);
        expect(centreX(dot[0])).toBeCloseTo(x(want.mean), 1);
        expect(Number(dot[0].attrs['data-lo'])).toBeCloseTo(want.lo, 9);
        expect(Number(dot[0].attrs['data-hi'])).toBeCloseTo(want.hi, 9);
        const w = whiskers.filter((m) => m.row === d && m.series === mode);
        expect(w).toHaveLength(1);
        // drawn from lo to hi, clipped to the dimension's score range
        expect(Number(w[0].attrs.x1)).toBeCloseTo(x(Math.max(min, want.lo)), 1);
        expect(Number(w[0].attrs.x2)).toBeCloseTo(x(Math.min(max, want.hi)), 1);
      }
    }
    // goal, agents: episodes 4, 6, 8 -> mean 6 on 0..10
    const goal = dots.find((m) => m.row === 'goal' && m.series === 'agents')!;
    expect(centreX(goal)).toBeCloseTo(PLOT_LAYOUT.left + 0.6 * PLOT_LAYOUT.width, 1);
  });

  it('plot 2: scenario-level paired differences with their CI and a zero line', () => {
    const svg = svgs[1][1];
    const dots = marks(svg, 'dot');
    expect(dots).toHaveLength(REPORT_DIMENSIONS.length);
    // axis symmetric about 0: the largest |value| over every difference and CI end, rounded up
    const goal = meanCi([3, 1, 1]); // script − agents per scenario: 7−4, 7−6, 9−8
    const span = Math.ceil(
      Math.max(
        ...REPORT_DIMENSIONS.flatMap((d) => {
          const a = episodeValues('agents', d);
          const c = meanCi(episodeValues('script', d).map((v, k) => v - a[k]));
          return [c.lo, c.hi].map(Math.abs).filter(Number.isFinite);
        }),
      ),
    );
    const x = xOn(-span, span);
    const g = dots.find((m) => m.row === 'goal')!;
    expect(g.series).toBe('script − agents');
    expect(centreX(g)).toBeCloseTo(x(5 / 3), 1);
    const w = marks(svg, 'whisker').find((m) => m.row === 'goal')!;
    expect(Number(w.attrs.x1)).toBeCloseTo(x(goal.lo), 1);
    expect(Number(w.attrs.x2)).toBeCloseTo(x(goal.hi), 1);
    const zeros = [...svg.matchAll(/<line x1="([\d.]+)"[^>]*class="zero"/g)].map((m) => Number(m[1]));
    expect(zeros).toHaveLength(REPORT_DIMENSIONS.length);
    for (const z of zeros) expect(z).toBeCloseTo(PLOT_LAYOUT.left + PLOT_LAYOUT.width / 2, 1);
  });

  it('plot 1 averages the pairs of a scenario first (scenario-level CI, not episode-level)', () => {
    // a second agents pair in scenario 0 with base 2: scenario means 3, 6, 8 (episode mean would be 5)
    const r = buildReport({ ...config, pairs: 2 }, envs, [...results, result(envs[0], 'agents', [2, 2], 1)]);
    const svg = [...renderReportHtml(r).matchAll(/<figure class="plot">(<svg [\s\S]*?<\/svg>)/g)][0][1];
    const dot = marks(svg, 'dot').find((m) => m.row === 'goal' && m.series === 'agents')!;
    const want = meanCi([3, 6, 8]);
    expect(centreX(dot)).toBeCloseTo(xOn(0, 10)(17 / 3), 1);
    expect(Number(dot.attrs['data-lo'])).toBeCloseTo(want.lo, 9);
    expect(Number(dot.attrs['data-hi'])).toBeCloseTo(want.hi, 9);
  });
});

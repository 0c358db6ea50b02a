// Sweeps with shared seeds (common random numbers): replicate r of every point runs with one
// seed, so the report compares the levels of a one-factor sweep on per-seed differences.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { planSweep, runSeed, type SweepSpec } from '../../src/sweep/index.ts';
import { cli } from '../support/cli.ts';
import { lines } from '../support/logs.ts';
import { tempDir } from '../support/temp-dir.ts';

const dir = tempDir('sweep-crn');

const spec = (extra: Partial<SweepSpec> = {}): SweepSpec => ({
  world: 'rumor',
  seed: 9,
  replicates: 3,
  set: {},
  grid: { p: [0.1, 0.2] },
  ranges: {},
  ...extra,
});

describe('sweep seeds', () => {
  it('shared: replicate r of every point gets the seed of replicate r of a sweep with nothing swept', () => {
    const plan = planSweep(spec({ seeds: 'shared' }));
    for (const run of plan.runs) expect(run.seed).toBe(runSeed(9, {}, run.replicate));
    const perPoint = planSweep(spec());
    for (const run of perPoint.runs)
      expect(run.seed).toBe(runSeed(9, perPoint.points[run.point], run.replicate));
    expect(new Set(perPoint.runs.map((r) => r.seed)).size).toBe(6);
  });
});

/** A results.csv column by name. */
function column(csv: string, name: string): string[] {
  const [head, ...rows] = csv
    .trim()
    .split('\n')
    .map((l) => l.split(','));
  const j = head.indexOf(name);
  return rows.map((r) => r[j]);
}

/** The report's embedded data. */
function reportData(out: string): {
  design: { factor: string; paired: boolean; why: string };
  contrasts: {
    outcome: string;
    level: number;
    paired: { t: { lo: number; hi: number } } | null;
    welch: object;
  }[];
} {
  const html = readFileSync(join(out, 'report.html'), 'utf8');
  return JSON.parse(html.match(/<script type="application\/json" id="report-data">(.*)<\/script>/)![1]);
}

const SWEEP = [
  'rumor',
  '--grid',
  'p=0.05,0.15',
  '--set',
  'n=300',
  '--set',
  'model=independent-cascade',
  '--workers',
  '1',
];

describe('grapevine sweep --shared-seeds', { timeout: 300_000 }, () => {
  it('pairs the levels by seed in its report; without it the levels are independent samples', async () => {
    const [shared, perPoint] = [join(dir, 'shared'), join(dir, 'per-point')];
    for (const [out, extra] of [
      [shared, ['--shared-seeds']],
      [perPoint, []],
    ] as const) {
      const r = await cli([
        'sweep',
        ...SWEEP,
        '--replicates',
        '6',
        '--seed',
        '3',
        ...extra,
        '--out',
        out,
        '--json',
      ]);
      expect(r.code, r.stderr).toBe(0);
    }
    const csv = readFileSync(join(shared, 'results.csv'), 'utf8');
    const seeds = column(csv, 'seed');
    expect(seeds.slice(0, 6)).toEqual(seeds.slice(6));
    // each run's log header holds the seed the table shows
    for (const [k, run] of column(csv, 'run').entries())
      expect(String(JSON.parse(lines(join(shared, 'runs', `${run}.ndjson`))[0]).seed)).toBe(seeds[k]);
    expect(JSON.parse(readFileSync(join(shared, 'sweep.json'), 'utf8')).spec.seeds).toBe('shared');
    expect(JSON.parse(readFileSync(join(perPoint, 'sweep.json'), 'utf8')).spec.seeds).toBeUndefined();

    const crn = reportData(shared);
    expect(crn.design).toMatchObject({ factor: 'p', paired: true });
    const reach = crn.contrasts.find((c) => c.outcome === 'metric.rumor.fractionAware')!;
    expect(reach.level).toBe(0.15);
    // the paired t interval of the per-seed differences, from the table: t(0.975, 5) =
    // 2.570581835636314 (R: qt(0.975, 5))
    const x = column(csv, 'metric.rumor.fractionAware').map(Number);
    const d = x.slice(6).map((v, k) => v - x[k]);
    const mean = d.reduce((a, b) => a + b, 0) / 6;
    const sd = Math.sqrt(d.reduce((a, v) => a + (v - mean) ** 2, 0) / 5);
    expect(reach.paired!.t.lo).toBeCloseTo(mean - (2.570581835636314 * sd) / Math.sqrt(6), 9);
    expect(reach.paired!.t.hi).toBeCloseTo(mean + (2.570581835636314 * sd) / Math.sqrt(6), 9);

    const indep = reportData(perPoint);
    expect(indep.design).toMatchObject({ factor: 'p', paired: false });
    expect(indep.design.why).toContain('independent samples');
    for (const c of indep.contrasts) expect(c.paired).toBeNull();
    const html = readFileSync(join(perPoint, 'report.html'), 'utf8');
    expect(html).toContain('Welch 95% CI');
    expect(html).toContain('--shared-seeds');

    // a rerun resumes the same sweep: nothing to run
    const again = await cli([
      'sweep',
      ...SWEEP,
      '--replicates',
      '6',
      '--seed',
      '3',
      '--shared-seeds',
      '--out',
      shared,
      '--json',
    ]);
    expect(JSON.parse(again.stdout)).toMatchObject({ ran: 0, reused: 12 });
  });
});

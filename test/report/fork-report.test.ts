// Report of a fork (parent and child overlaid) and of a fork --replicates directory (the
// effect with its CI, the same numbers as grapevine diff).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Figure } from '../../src/report/index.ts';
import { cliChecked } from '../support/cli-in-process.ts';
import { lines } from '../support/logs.ts';
import { tempDir } from '../support/temp-dir.ts';

const dir = tempDir('fork-report');
const parent = join(dir, 'parent.ndjson');
const batch = join(dir, 'batch');

// The commands run in this process (cliChecked), one after the other (nothing left open):
// what is checked is the figures and numbers they print, and a process start costs ~0.3 CPU-s.

beforeAll(async () => {
  const run = await cliChecked([
    'run',
    'rumor',
    '--set',
    'n=300',
    '--set',
    'k=6',
    '--out',
    parent,
    '--quiet',
  ]);
  expect(run.code).toBe(0);
  const fork = ['fork', parent, '--at', '2', '--set', 'model=maki-thompson', '--quiet'];
  const one = await cliChecked([...fork, '--out', join(dir, 'child.ndjson')]);
  const many = await cliChecked([...fork, '--replicates', '3', '--out', batch]);
  expect(one.code).toBe(0);
  expect(many.code).toBe(0);
}, 120_000);

function figure(figures: Figure[], id: string): Figure {
  const f = figures.find((x) => x.id === id);
  if (!f) throw new Error(`no figure ${id} in ${figures.map((x) => x.id)}`);
  return f;
}

describe('report of forks', () => {
  it('overlays the parent curve on the child and tables their final metrics', async () => {
    const r = await cliChecked(['report', join(dir, 'child.ndjson'), '--json']);
    expect(r.code).toBe(0);
    const figures = JSON.parse(r.stdout).figures as Figure[];
    const overlay = figure(figures, 'fork-rumor.fractionAware').chart!;
    const ticks = lines(parent)
      .map((l) => JSON.parse(l))
      .filter((e) => e.type === 'tick');
    expect(overlay.series[0].y).toEqual(ticks.map((t) => t.metrics['rumor.fractionAware']));
    const row = figure(figures, 'fork-effect').table!.rows.find((x) => x[0] === 'rumor.aware')!;
    expect(row[1]).toBe(ticks[ticks.length - 1].metrics['rumor.aware']);
    expect(row[3]).toBe((row[2] as number) - (row[1] as number));
  });

  it('gives a replicates directory the paired effect, as grapevine diff does, and bands per arm', async () => {
    const rep = await cliChecked(['report', batch, '--json']);
    const diff = await cliChecked(['diff', batch, '--json']);
    expect(rep.code).toBe(0);
    const page = JSON.parse(rep.stdout);
    const { figures, ...analysis } = page;
    // the report's numbers are diff's numbers
    expect(analysis).toEqual(JSON.parse(diff.stdout));
    const outcomes = analysis.outcomes as {
      outcome: string;
      constant: number | null;
      effect: { mean: number };
    }[];
    const rows = figure(figures, 'batch-effect').table!.rows;
    const varying = outcomes.filter((o) => o.constant === null);
    expect(rows.map((r) => r[0])).toEqual(varying.map((o) => o.outcome));
    for (const o of varying) expect(rows.find((r) => r[0] === o.outcome)![3]).toBe(o.effect.mean);
    // one chart per metric that varies and is not a linear function of another: two arms, each with its band
    const charts = (figures as Figure[]).filter((f) => f.chart);
    expect(charts.length).toBeGreaterThan(0);
    for (const f of charts) {
      expect(f.chart!.series.map((x) => x.name)).toEqual(['control', 'treated']);
      for (const x of f.chart!.series) expect(x.band!.lo.length).toBe(x.x.length);
      expect(varying.map((o) => o.outcome)).toContain(`metric.${f.id.slice('batch-'.length)}`);
    }
    const html = readFileSync(join(batch, 'report.html'), 'utf8');
    expect(html).toContain('3 pairs');
    expect(html).toContain('forked after tick 2');
    expect(html).toMatch(/<b>Table 2\. Effect of the treatment/);
  });
});

// Report of a fork (parent and child overlaid) and of a fork --replicates directory (the
// effect with its CI, the same numbers as grapevine diff).
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Figure } from '../../src/report/index.ts';
import { cliChecked } from '../support/cli-in-process.ts';
import { lines } from '../support/logs.ts';
import { tempDir } from '../support/temp-dir.ts';

const dir = tempDir('fork-report');
const parent = join(dir, 'parent.ndjson');
const batch = join(dir, 'batch');

// The commands run in this process, one after the other (the CLI's `main`, nothing left open):
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

  it('gives a replicates directory the effect with its CI, as grapevine diff does', async () => {
    const rep = await cliChecked(['report', batch, '--json']);
    const diff = await cliChecked(['diff', batch, '--json']);
    expect(rep.code).toBe(0);
    const rows = figure(JSON.parse(rep.stdout).figures, 'batch-effect').table!.rows;
    const metrics = JSON.parse(diff.stdout).metrics as {
      metric: string;
      effect: { mean: number; ci95: number[] };
    }[];
    expect(rows.length).toBe(metrics.length);
    for (const m of metrics) {
      const row = rows.find((x) => x[0] === m.metric)!;
      expect(row[3]).toBeCloseTo(m.effect.mean, 2);
      if (Number.isFinite(m.effect.ci95[0])) expect(row[4]).toBeCloseTo(m.effect.ci95[0], 2);
    }
    expect(figure(JSON.parse(rep.stdout).figures, 'batch-rumor.fractionAware').chart!.series.length).toBe(6);
  });
});

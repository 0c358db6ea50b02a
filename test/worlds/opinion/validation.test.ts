import { describe, expect, it } from 'vitest';
import { runWorld } from '../../../src/index.ts';
import { runBattery } from '../../../src/public/analysis.ts';
import { majorClusters } from '../../../worlds/opinion/bounded-confidence-validation.ts';
import { world } from '../../../worlds/opinion/index.ts';
import { countClusters } from '../../../worlds/opinion/metrics.ts';
import { opinionCases } from '../../../worlds/opinion/validation.ts';
import { hegselmannKrauseWindow } from '../../validate/references/opinion-reference.ts';

describe('opinion validation cases', () => {
  it('are DeGroot, Friedkin–Johnsen, two voter, two Deffuant–Weisbuch and one Hegselmann–Krause case', () => {
    expect(opinionCases().map((c) => c.id)).toEqual([
      'degroot-consensus',
      'friedkin-johnsen-steady-state',
      'voter-exit-probability',
      'voter-degree-weighted',
      'deffuant-weisbuch-clusters',
      'deffuant-weisbuch-mean-conserved',
      'hegselmann-krause-reference',
    ]);
  });

  it('DeGroot and Friedkin–Johnsen land within bounds derived from the stop tolerance and rounding (below 1e-9)', async () => {
    for (const id of ['degroot-consensus', 'friedkin-johnsen-steady-state']) {
      const [row] = await runBattery(opinionCases(), { only: id, quick: true });
      expect(row.pass, `${id}: ${row.reason}`).toBe(true);
      expect(row.test).toBe('exact');
      expect(row.hi).toBeLessThan(1e-9);
      for (const v of row.values) expect(Math.abs(v)).toBeLessThanOrEqual(row.hi);
    }
  }, 120_000);

  it('the world’s Hegselmann–Krause ends in the clusters of a reference written apart in the tests', async () => {
    for (const seed of [1, 2, 3]) {
      const r = await runWorld(world, {
        params: {
          model: 'hegselmann-krause',
          network: 'complete',
          n: 200,
          epsilon: 0.15,
          reportOpinions: true,
        },
        seed,
        ticks: 1000,
      });
      const x0 = r.summary.initialOpinions as number[];
      const x = r.summary.finalOpinions as number[];
      const ref = hegselmannKrauseWindow(x0, 0.15, 1e-9, 1000);
      expect(countClusters(x, 1e-3)).toBe(countClusters(ref, 1e-3));
      expect(countClusters(x, 1e-3)).toBeGreaterThan(1);
      expect(Math.max(...x.map((v, i) => Math.abs(v - ref[i])))).toBeLessThan(1e-12);
    }
  }, 120_000);

  it('majorClusters counts groups of at least 10% split at gaps above 0.01 (by hand)', () => {
    const x = [...Array(45).fill(0.2), ...Array(45).fill(0.7), ...Array(9).fill(0.95), 0.5];
    expect(majorClusters(x)).toBe(2);
    expect(majorClusters([0.1, 0.105, 0.2, 0.3])).toBe(3);
  });
});

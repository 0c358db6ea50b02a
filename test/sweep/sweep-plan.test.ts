import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  checkSweepSpec,
  latinHypercube,
  planSweep,
  rangeValues,
  runSeed,
  type SweepSpec,
} from '../../src/sweep/index.ts';

const base: SweepSpec = { world: 'rumor', seed: 7, replicates: 2, set: { n: 50 }, grid: {}, ranges: {} };

describe('sweep plan', () => {
  it('derives each seed from (S, point, replicate) by the documented sha256 formula', () => {
    const hex = createHash('sha256').update('grapevine-sweep-seed/1\n7\n{"p":0.1}\n1').digest('hex');
    expect(runSeed(7, { p: 0.1 }, 1)).toBe(Number.parseInt(hex.slice(0, 13), 16));
    expect(runSeed(7, { p: 0.1 }, 1)).not.toBe(runSeed(7, { p: 0.1 }, 0));
    expect(runSeed(7, { p: 0.1 }, 1)).not.toBe(runSeed(8, { p: 0.1 }, 1));
  });

  it('crosses grid and range values, last key fastest, replicates innermost', () => {
    const plan = planSweep({ ...base, grid: { p: [0.1, 0.2] }, ranges: { k: { from: 2, to: 6, step: 2 } } });
    expect(plan.points).toEqual([
      { p: 0.1, k: 2 },
      { p: 0.1, k: 4 },
      { p: 0.1, k: 6 },
      { p: 0.2, k: 2 },
      { p: 0.2, k: 4 },
      { p: 0.2, k: 6 },
    ]);
    expect(plan.runs).toHaveLength(12);
    expect(plan.runs[3]).toMatchObject({
      id: 'p1-r1',
      point: 1,
      replicate: 1,
      params: { n: 50, p: 0.1, k: 4 },
    });
    expect(plan.runs[3].seed).toBe(runSeed(7, { p: 0.1, k: 4 }, 1));
    // adding a value to the grid changes no other point's seeds
    const wider = planSweep({
      ...base,
      grid: { p: [0.1, 0.15, 0.2] },
      ranges: { k: { from: 2, to: 6, step: 2 } },
    });
    expect(wider.runs.find((r) => r.params.p === 0.2 && r.params.k === 6 && r.replicate === 1)?.seed).toBe(
      plan.runs[11].seed,
    );
  });

  it('sets a dotted grid key inside a nested parameter', () => {
    const plan = planSweep({ ...base, set: { a: { b: 1, c: 2 } }, grid: { 'a.b': [5] } });
    expect(plan.runs[0].params).toEqual({ a: { b: 5, c: 2 } });
  });

  it('draws a Latin hypercube: every stratum of every parameter used once, same seed same sample', () => {
    const lhs = { samples: 10, params: { x: [0, 1] as [number, number], y: [10, 30] as [number, number] } };
    const s = latinHypercube(lhs, 3);
    for (const [name, [lo, hi]] of Object.entries(lhs.params)) {
      const strata = s
        .map((p) => Math.floor((((p[name] as number) - lo) / (hi - lo)) * 10))
        .sort((a, b) => a - b);
      expect(strata).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    }
    expect(latinHypercube(lhs, 3)).toEqual(s);
    expect(latinHypercube(lhs, 4)).not.toEqual(s);
  });

  it('names the problem of a bad spec', () => {
    expect(() => rangeValues('k', { from: 5, to: 1, step: 1 })).toThrow(
      /range k: to \(1\) is below from \(5\)/,
    );
    expect(() =>
      checkSweepSpec({ ...base, grid: { p: [1] }, ranges: { p: { from: 0, to: 1, step: 1 } } }),
    ).toThrow(/parameter p is swept twice/);
    expect(() => checkSweepSpec({ ...base, lhs: { samples: 3, params: { q: [1, 1] } } })).toThrow(
      /low \(1\) must be below high/,
    );
  });
});
